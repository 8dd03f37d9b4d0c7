"""Fusing runs given as arrays: the score matrices (or top-k arrays) of several retrievers over the same users.

Each array is ranked where it lives (its library and device, by trec_eval's rule: the ranking of
:mod:`irmetrics.data.top_ranking`), to ``depth`` items a user when ``depth`` is given (the fusion of top-k lists,
as hybrid retrieval does it) or over the whole catalogue; only those rankings leave the device.  They are fused
by the same methods and definitions as runs given as files (:func:`.fusing.fuse`), and the fused run comes back
as a users x items float64 score matrix, a torch tensor on the first array's device when it is one (numpy
otherwise): the fused score of each
item a run ranks for the user, ``-inf`` (not ranked) for the others, so that it goes into an evaluator or an
accumulator as any score matrix does.  Its width is the score matrices' (the catalogue), or for top-k arrays
one more than the largest item index.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..data.array_library import is_tensor
from ..data.arrays import ArrayRun
from ..data.ids.int_ids import numbers_of
from ..data.run import Run
from ..errors import InputError


def array_runs(arrays: list[Any], depth: int | None) -> tuple[list[Run], Any, int, int | None]:
    """Each array as a :class:`Run` of its top ``depth`` (all when None), the first array's tensor (None for
    numpy), the number of users, and the catalogue's width (None for top-k arrays)."""
    parsed = [ArrayRun(a) for a in arrays]
    users = {p.shape[0] for p in parsed}
    if len(users) > 1:
        raise InputError(f'fusing arrays of different numbers of users (rows: {sorted(users)}): each array holds '
                         f'the same users, row i the user i')
    widths = {p.shape[1] for p in parsed if p.is_scores}
    if len(widths) > 1:
        raise InputError(f'fusing score matrices of different widths ({sorted(widths)}): each column is an item of '
                         f'one catalogue')
    first = arrays[0]
    tensor = next((a for a in (first if isinstance(first, tuple) else (first,)) if is_tensor(a)), None)
    return ([p.run('error', depth) for p in parsed], tensor, users.pop(),
            widths.pop() if len(widths) == len(parsed) else None)


def as_matrix(fused: Run, tensor: Any, users: int, width: int | None) -> Any:
    """The fused run as a users x items matrix of its scores (``-inf`` where it ranks no item): numpy, or a
    torch tensor on the device of ``tensor``."""
    user = numbers_of(fused.query_ids)[fused.qidx]
    item = numbers_of(fused.doc_ids)
    width = width if width is not None else int(item.max(initial=-1)) + 1
    out = np.full((users, width), -np.inf)
    out[user, item] = fused.scores
    if tensor is None:
        return out
    import torch  # the user gave a tensor: torch is imported already
    return torch.from_numpy(out).to(tensor.device)
