"""The formulas that both the native engine's kernels (on a run's :class:`~.table.RankedTable`, numpy) and the hit
kernels (:mod:`.hit_kernels`, on a users x k hit matrix, numpy or torch on a GPU) compute, written once.

Each takes arrays of either library (only arithmetic, comparisons and ``clip``, which numpy and torch spell alike)
and, where it divides, the arrays' :data:`~irmetrics.data.array_library.Library`, whose ``divide`` gives 0 where the
denominator is 0 (trec_eval's empty denominators).  The two engines then differ only in how they gather and add
the terms (a segment per query, a row per user), and both add them from rank 1 down: their values are the same
to the bit on the host.  Ranks are 0-based.
"""
from __future__ import annotations

from typing import Any

from ...data.array_library import Library


def precision_at(seen: Any, rank: Any) -> Any:
    """Precision at ``rank`` (0-based) of a ranking whose ``seen``-th relevant document is there: AP's term."""
    return seen / (rank + 1.0)


def reciprocal_rank(rank: Any) -> Any:
    """1 / (rank + 1): RR of a first relevant document at ``rank`` (0-based; infinity: none, RR 0)."""
    return 1.0 / (rank + 1.0)


def precision(found: Any, num_rel: Any, k: int, relative: bool, lib: Library) -> Any:
    """P@k of ``found`` relevant documents in the top ``k``: / k, or / min(k, R) when ``relative``."""
    return lib.divide(found, num_rel.clip(max=k)) if relative else found / k


def recall(found: Any, num_rel: Any, lib: Library) -> Any:
    """R@k of ``found`` relevant documents in the top k: / R, 0 when the query has none."""
    return lib.divide(found, num_rel)


def judged_share(judged: Any, lengths: Any, k: float, lib: Library) -> Any:
    """Judged@k: the ``judged`` documents in the top ``k`` over the top's size, min(k, ranking length)."""
    return lib.divide(judged, lengths.clip(max=k))
