"""The per-user values of every process of ``torch.distributed``, gathered for the accumulator's ``compute()``.

A process's values are a matrix whose columns are its evaluator's measures and whose rows are users
numbered by its evaluator's judgments.  Joining them is right only when every process has the same
measures in the same order and the same judgments (and items, and excluded cells): so each process sends,
with its values, its evaluator's :class:`Identity`, and every process compares them before it reads any
value.  A difference is one error, the same on every process (each compares the same gathered list).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..data.run import Run
from ..errors import InputError
from .results import QueryValues


@dataclass(frozen=True)
class Identity:
    """What must be the same in every process whose values are joined: the measures in order (the columns),
    a hash of the judgments (:meth:`~irmetrics.data.qrels.Qrels.digest`: the rows) with their counts for
    messages, and hashes of the items and of the excluded cells (None when not given)."""

    measures: tuple[str, ...]
    judgments: str
    users: int
    rows: int
    items: str | None
    exclude: str | None

    @classmethod
    def of(cls, evaluator: Any) -> Identity:
        """The identity of an :class:`~.evaluator.Evaluator` (not imported: it imports this module)."""
        qrels, exclude = evaluator.qrels, evaluator.arrays.exclude
        return cls(tuple(map(repr, evaluator.all_measures)), qrels.digest(), qrels.num_queries, len(qrels),
                   None if qrels.items is None else qrels.items.digest(),
                   None if exclude is None else exclude.digest())


def check_same(identities: list[Identity]) -> None:
    """Refuse processes whose evaluators differ (see the module docstring), naming the first process that
    differs from process 0 and what differs."""
    first = identities[0]
    for rank, other in enumerate(identities):
        if other.measures != first.measures:
            raise InputError(f'measures differ: process 0 has [{", ".join(first.measures)}], process {rank} has '
                             f'[{", ".join(other.measures)}]: build the evaluator with the same measures, in the '
                             f'same order, on every process', 'accumulator')
        if other.judgments != first.judgments:
            counts = (f'process 0 has {first.rows} judgments of {first.users} users, process {rank} has '
                      f'{other.rows} of {other.users}' if (first.rows, first.users) != (other.rows, other.users)
                      else f'process 0 and process {rank} have as many judgments ({first.rows}) of as many users '
                           f'({first.users}), not the same ones')
            raise InputError(f'judgments differ: {counts}: build the evaluator from the same, whole judgments on '
                             f'every process (the user codes of each process number the users of its judgments) '
                             f'and give each process its own users by offset (a batch at offset lo holds the '
                             f'users lo, lo + 1, ... of the whole judgments)', 'accumulator')
        for what, mine, theirs in (('items', first.items, other.items), ('excluded cells (exclude=)', first.exclude,
                                                                       other.exclude)):
            if mine != theirs:
                raise InputError(f'{what} differ between process 0 and process {rank}: build the evaluator with '
                                 f'the same, whole {what} on every process', 'accumulator')


def gathered(identity: Identity, parts: list[QueryValues], tops: list[Run], batches: int, query_ids: list[str]
             ) -> tuple[list[QueryValues], list[Run], int]:
    """Every process's parts and top rankings, and the number of batches of all, on every process (one
    ``all_gather_object``), once every process's ``identity`` is checked to be the same and every user to be
    on one process only."""
    import torch.distributed as dist
    mine = (identity, np.concatenate([p.codes for p in parts]) if parts else np.zeros(0, dtype=np.int64),
            np.concatenate([p.values for p in parts]) if parts else None, tops, batches)
    everyone: list[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, mine)
    check_same([who for who, *_ in everyone])
    owner = np.concatenate([np.full(len(codes), rank) for rank, (_, codes, *_) in enumerate(everyone)])
    codes = np.concatenate([codes for _, codes, *_ in everyone])
    order = np.argsort(codes, kind='stable')
    twice = np.flatnonzero(codes[order][1:] == codes[order][:-1])
    if len(twice):
        first, second = order[twice[0]], order[twice[0] + 1]
        raise InputError(f'user {query_ids[int(codes[first])]!r} is given on process {int(owner[first])} and on '
                         f'process {int(owner[second])} ({len(twice)} such user(s)): give each user to one process '
                         f"(torch's DistributedSampler repeats users to even out the processes; give each its own "
                         f'slice of the users)', 'accumulator')
    _one_process_each([runs for _, _, _, runs, _ in everyone])
    values = [QueryValues(codes, values) for _, codes, values, _, _ in everyone if values is not None]
    return values, [run for _, _, _, runs, _ in everyone for run in runs], sum(n for *_, n in everyone)


def _one_process_each(tops: list[list[Run]]) -> None:
    """Refuse a user of the kept top rankings (judged or not: the measures of a whole run read them all) given on
    two processes."""
    owner: dict[str, int] = {}
    for rank, runs in enumerate(tops):
        for user in {u for run in runs for u in run.query_ids.to_list()}:
            if owner.setdefault(user, rank) != rank:
                raise InputError(f'user {user!r} is given on process {owner[user]} and on process {rank}: give each '
                                 f"user to one process (torch's DistributedSampler repeats users to even out the "
                                 f'processes; give each its own slice of the users)', 'accumulator')
