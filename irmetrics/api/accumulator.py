"""A streaming evaluation: a run given in batches of users, as a training loop scores them.

``acc = evaluator.accumulator()``; ``acc.update(batch, offset=lo)`` for each batch, where row ``i`` of
a batch given as arrays (a score matrix on any device, a top-k array, an ``(items, scores)`` pair) is
the user ``lo + i`` of the judgments, and a batch of named queries (any other run: a :class:`Run`, a
DataFrame, a dict, a file) names its own; ``acc.compute()`` gives the :class:`CalcResults` of every
user seen; ``acc.reset()`` starts again.  This is torchmetrics' ``Metric`` protocol.

A user's value depends on its own ranking and judgments only, so the per-user values of each batch
(computed where the scores are, see :mod:`.array_runs`) are kept, and ``compute()`` builds the
results from them exactly as from the whole run: the same numbers, whatever the batches.  Users of the
judgments never given score as users missing from a run (trec_eval ``-c``), with its warning.  The
measures of a whole run (Coverage, Gini) keep each batch's top ranking as deep as they read (users x k,
whatever the other measures read) and are computed from all of them.  A user given twice (in two batches, or
on two processes) is an error; a refused batch is not added at all, so the batches accepted give their numbers
as if it had never been given.

Under ``torch.distributed`` (``sync=None``: when it is initialised), ``compute()`` gathers the per-user
values of every process (``all_gather_object``), so that each process gets the same results; every
process must call it, one that was given no batch too.  The processes' evaluators must be the same (the
measures in the same order, the same whole judgments): :mod:`.gathering` checks it before joining any value.
``sync=False`` keeps the results to the users this accumulator was given (the rows of its batches, ranked
or not: a row whose every item is masked scores as a query missing from the run), on one process as under
``torch.distributed``: the users of the judgments never given are not in its results, and no warning
names them.  ``compute()`` before any batch (since the accumulator was built or reset, on any process) is
an error: an evaluation of no user has no number to report.
"""
from __future__ import annotations

import sys
from typing import Any, NamedTuple

import numpy as np

from ..algebra.measure import Measure
from ..data.arrays import ArrayRun
from ..data.input_kinds import ARRAYS, find_kind
from ..data.inputs import to_run
from ..data.run import Run
from ..errors import InputError
from .gathering import Identity, gathered
from .results import CalcResults, QueryValues


class Batch(NamedTuple):
    """One batch, computed and not yet added: its per-user values (the users it ranks), its top ranking (when
    the evaluator has measures of a whole run) and ``users``, the codes of every user of the judgments it gives
    (ranked or not: a row whose every item is masked too)."""
    parts: list[QueryValues]
    top: Run | None
    users: np.ndarray


class Accumulator:
    """The per-user values of the batches of a run seen so far (see the module docstring)."""

    def __init__(self, evaluator: Any, *, duplicates: str = 'error', sync: bool | None = None):
        """``evaluator``: the :class:`~.evaluator.Evaluator` of the measures and judgments; ``duplicates``: as
        :meth:`~.evaluator.Evaluator.calc`; ``sync``: see the module docstring."""
        self.evaluator = evaluator
        self.duplicates = duplicates
        self.sync = sync
        self._identity_of: Identity | None = None
        self.reset()

    def reset(self) -> None:
        """Forget every batch: the next :meth:`compute` sees only what is given after this."""
        self._parts: list[QueryValues] = []
        self._seen = np.zeros(self.evaluator.qrels.num_queries, dtype=bool)
        self._given = np.zeros(self.evaluator.qrels.num_queries, dtype=bool)   # the users of the batches
        self._tops: list[Run] = []
        self._top_users: set[str] = set()       # every user of the top rankings kept, judged or not
        self._batches = 0

    def update(self, run: Any, *, offset: int = 0) -> None:
        """Add one batch: arrays whose row ``i`` is the user ``offset + i``, or a run of named queries.

        The whole batch is computed and checked before any of it is added: a refused batch changes nothing."""
        self.add(batch_values(self.evaluator, run, offset, self.duplicates))

    def add(self, batch: Batch) -> None:
        """Add one batch (what :func:`batch_values` gives), or refuse it whole when it holds a user twice or a
        user of an earlier batch."""
        parts, top = batch.parts, batch.top
        codes = np.concatenate([part.codes for part in parts]) if parts else np.zeros(0, dtype=np.int64)
        ordered = np.sort(codes)
        again = np.concatenate((codes[self._seen[codes]], ordered[1:][ordered[1:] == ordered[:-1]]))
        users = set(top.query_ids.to_list()) if top is not None else set()
        if len(again) or users & self._top_users:
            first = self.evaluator.query_ids[int(again[0])] if len(again) else min(users & self._top_users)
            raise InputError(f'user {first!r} is in batch {self._batches + 1} and in an earlier one '
                             f'({max(len(again), len(users & self._top_users))} such user(s)): give each user once '
                             f'(a batch at offset lo holds the users lo, lo + 1, ...), and call reset() before '
                             f'giving the users again (each epoch); the batch is not added', 'accumulator')
        self._seen[codes] = True
        self._given[batch.users] = True
        self._parts += parts
        if top is not None:
            self._tops.append(top)
            self._top_users |= users
        self._batches += 1

    def compute(self) -> CalcResults:
        """The results of every user given since the last :meth:`reset` (of every process, when synced)."""
        parts, tops, batches = self._parts, self._tops, self._batches
        if self._synced():
            parts, tops, batches = gathered(self._identity(), parts, tops, batches, self.evaluator.query_ids)
        if not batches:
            raise InputError('compute() before any update(): no batch was given since the accumulator was built or '
                             'reset(), so no user has a value; give the batches first (update(batch, offset=lo))',
                             'accumulator')
        ev = self.evaluator
        run_values = ev.engines.run_values(merged_runs(tops)) if ev.run_measures else None
        users = np.flatnonzero(self._given) if self.sync is False else None
        results: CalcResults = ev.combine(parts, 'the batches', run_values, users=users)
        return results

    def _identity(self) -> Identity:
        """What the processes compare before joining their values (:class:`~.gathering.Identity`), computed
        once: it hashes the judgments."""
        if self._identity_of is None:
            self._identity_of = Identity.of(self.evaluator)
        return self._identity_of

    def _synced(self) -> bool:
        if self.sync is False or 'torch' not in sys.modules:       # torch is never imported to ask
            return False
        import torch.distributed as dist
        ready = dist.is_available() and dist.is_initialized()
        if self.sync and not ready:
            raise InputError('sync=True gathers the users of every process of torch.distributed, which is not '
                             'initialised (torch.distributed.init_process_group)', 'accumulator')
        return bool(ready and dist.get_world_size() > 1)

    @property
    def measures(self) -> list[Measure]:
        measures: list[Measure] = self.evaluator.all_measures
        return measures

    def __repr__(self) -> str:
        return (f'<Accumulator: {int(self._seen.sum())} users in {self._batches} batch(es), {len(self.measures)} '
                f'measures>')


def batch_values(evaluator: Any, run: Any, offset: int = 0, duplicates: str = 'error') -> Batch:
    """The :class:`Batch` of ``run`` (arrays whose row ``i`` is the user ``offset + i``, or a run of named
    queries): its per-user values, and, when the evaluator has measures of a whole run, its top ranking as a
    :class:`Run`."""
    ev = evaluator
    if find_kind(run) is ARRAYS:
        if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
            raise InputError(f'offset: the first user of the batch, an integer >= 0; got {offset!r}', 'accumulator')
        arrays = ArrayRun(run)
        ev.arrays.check(arrays, int(offset), whole=False)
        tops: list[Run] | None = [] if ev.run_measures else None
        parts = list(ev.arrays.parts(arrays, duplicates, int(offset), tops))
        users = ev.arrays.judgments.codes(int(offset), arrays.shape[0])
        return Batch(parts, None if tops is None else merged_runs(tops), users[users >= 0])
    if offset:
        raise InputError('offset places the rows of arrays among the users; a run of named queries names its own '
                         'users: give it without offset', 'accumulator')
    named = to_run(run, duplicates=duplicates, depth=ev.depth)
    depth = ev.arrays.run_depth
    top = (named.top(depth) if depth else named) if ev.run_measures else None
    values = ev.engines.query_values(named)
    return Batch([values], top, values.codes)


def merged_runs(runs: list[Run]) -> Run:
    """One run of the top rankings of every batch or block of users (each user in one of them)."""
    if len(runs) == 1:
        return runs[0]
    import pyarrow as pa

    from ..data.tables import run_from_table
    from ..data.writing import run_table
    table = pa.concat_tables([run_table(run).select(['query_id', 'doc_id', 'score']) for run in runs if len(run)])
    return run_from_table(table, 'the batches') if len(table) else Run.from_columns([], [], [])
