"""How alike two runs rank documents, query by query: KTU and RBO (a reproduction against its original).

No qrels: the queries are those both runs hold, each run's ranking in trec_eval's order (score
descending, ties by document id descending; :mod:`irmetrics.data.ranking`), cut at ``depth``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..data.inputs import to_run
from ..data.run import Run
from ..errors import InputError, warn
from ..rendering.result import Table, Tabled
from .rank_correlation import tau_statistic
from .rankings import FEWEST_ITEMS
from .rbo import rbo_of_orders


@dataclass(frozen=True, eq=False)
class RunAgreement(Tabled):
    """Per query (``query_ids``, the queries both runs hold): ``ktu`` (Kendall's tau union),
    ``rbo`` (RBO_EXT), ``rbo_min`` and ``rbo_residual`` (the bounds of the full RBO) and ``depth``
    (the documents compared: both rankings cut at ``depth``; KTU reads the first ``min`` of the two
    lengths); ``p`` is RBO's persistence.  ``mean_ktu`` and ``mean_rbo`` average over the queries
    (KTU over those where it is defined)."""

    query_ids: tuple[str, ...]
    ktu: np.ndarray
    rbo: np.ndarray
    rbo_min: np.ndarray
    rbo_residual: np.ndarray
    depth: int | None
    p: float

    @property
    def mean_ktu(self) -> float:
        defined = self.ktu[~np.isnan(self.ktu)]
        return float(defined.mean()) if defined.size else math.nan

    @property
    def mean_rbo(self) -> float:
        return float(self.rbo.mean())

    def __repr__(self) -> str:
        depth = 'all' if self.depth is None else self.depth
        return (f'RunAgreement({len(self.query_ids)} queries, depth={depth}, p={self.p:g}: '
                f'mean KTU={self.mean_ktu:.4f}, mean RBO={self.mean_rbo:.4f})')

    def table(self, *, by_query: bool = False) -> Table:
        """The means over the queries on a row ``all`` (with ``by_query``, after one row per query): KTU, RBO,
        RBO_MIN, RBO_RES."""
        rows: list[list[Any]] = [[q, k, r, m, e] for q, k, r, m, e in zip(
            self.query_ids, self.ktu.tolist(), self.rbo.tolist(), self.rbo_min.tolist(), self.rbo_residual.tolist(),
            strict=True)] if by_query else []
        rows.append(['all', self.mean_ktu, self.mean_rbo, float(self.rbo_min.mean()), float(self.rbo_residual.mean())])
        return Table(['query', 'KTU', 'RBO', 'RBO_MIN', 'RBO_RES'], rows)

    def to_dataframe(self) -> Any:
        """One row per query: ``query_id, ktu, rbo, rbo_min, rbo_residual``."""
        import pandas as pd
        return pd.DataFrame({'query_id': list(self.query_ids), 'ktu': self.ktu, 'rbo': self.rbo,
                             'rbo_min': self.rbo_min, 'rbo_residual': self.rbo_residual})

    def to_dict(self) -> dict[str, Any]:
        return {'depth': self.depth, 'p': self.p, 'mean_ktu': self.mean_ktu, 'mean_rbo': self.mean_rbo,
                'queries': {q: {'ktu': k, 'rbo': r, 'rbo_min': m, 'rbo_residual': e} for q, k, r, m, e in
                            zip(self.query_ids, self.ktu.tolist(), self.rbo.tolist(), self.rbo_min.tolist(),
                                self.rbo_residual.tolist(), strict=True)}}


def run_agreement(run_a: Any, run_b: Any, *, depth: int | None = None, p: float = 0.9,
                  duplicates: str = 'error') -> RunAgreement:
    """Kendall's tau union (KTU) and rank-biased overlap (RBO) of two runs' document rankings, per query.

    Two runs are compared with each other, without qrels or measures: of the shared options
    (:mod:`irmetrics.api.options`) only ``duplicates`` applies, so it is the only one taken.

    The queries are those both runs hold (a warning counts those only one holds; none in common is an
    error).  KTU as repro_eval computes it (Breuer et al.): both rankings are cut to the same length ``k``
    (the shorter one's), every document of the two cut rankings is coded by its position in their
    union sorted by document id, and KTU is Kendall's tau between the two sequences of codes, paired
    rank by rank: ``(n_c - n_d) / (k(k-1)/2)`` (no ties: a ranking holds a document once).  It is 1
    when the rankings are the same; NaN (and one warning) for queries with fewer than 3 documents.
    RBO is :func:`irmetrics.rbo` of the two rankings (Webber et al.'s extrapolated RBO_EXT, p = ``p``,
    with its bounds RBO_MIN and RBO_RES), uneven lengths allowed: not repro_eval's RBO, which is the sum
    truncated at the depth and normalised by its weights, ``sum_{d<=k} p^(d-1) A_d / sum_{d<=k} p^(d-1)``,
    and differs on the same rankings.

    Parameters
    ----------
    run_a : any run input
        The original run (path, DataFrame, dict of dicts, :class:`Run`, ...).
    run_b : any run input
        The reproduction; both measures are symmetric.
    depth : int or None
        Compare each ranking's first ``depth`` documents (default: all).
    p : float
        RBO's persistence, strictly between 0 and 1.
    duplicates : str
        A document retrieved twice for a query: ``'error'``, ``'first'``, ``'last'`` or ``'max'``.

    Returns
    -------
    RunAgreement
        KTU, RBO (RBO_EXT), RBO_MIN and RBO's residual for each common query, and their means.

    Raises
    ------
    InputError
        For a bad ``depth`` or ``p``, or runs with no query in common.

    References
    ----------
    T. Breuer, N. Ferro, N. Fuhr, M. Maistro, T. Sakai, P. Schaer and I. Soboroff, "How to measure the
    reproducibility of system-oriented IR experiments", SIGIR 2020; W. Webber, A. Moffat and J. Zobel,
    "A similarity measure for indefinite rankings", ACM TOIS 28(4), 2010.

    Examples
    --------
    >>> irmetrics.run_agreement('examples/run_bm25.txt', 'examples/run_dense.txt', depth=10)
    RunAgreement(10 queries, depth=10, p=0.9: mean KTU=-0.0844, mean RBO=0.1169)
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise InputError(f'run_agreement: depth={depth!r}; expected a number of documents >= 1, or None for all')
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise InputError(f'run_agreement: p={p!r}; expected a persistence strictly between 0 and 1')
    a, b = to_run(run_a, duplicates=duplicates), to_run(run_b, duplicates=duplicates)
    queries, qa, qb = _common_queries(a, b)
    docs_a, docs_b = _union_codes(a, b)
    cut = depth if depth is not None else np.iinfo(np.int64).max
    ktu, ext, low, high = (np.empty(len(queries)) for _ in range(4))
    for i, (x, y) in enumerate(zip(qa.tolist(), qb.tolist(), strict=True)):         # a loop over queries
        ranked_a = docs_a[a.order[a.offsets[x]:a.offsets[x + 1]][:cut]]
        ranked_b = docs_b[b.order[b.offsets[y]:b.offsets[y + 1]][:cut]]
        ktu[i] = _ktu(ranked_a, ranked_b)
        ext[i], low[i], high[i] = rbo_of_orders(ranked_a, ranked_b, float(p))
    short = int(np.isnan(ktu).sum())
    if short:
        warn(f'KTU is NaN for {short} of {len(queries)} queries: fewer than {FEWEST_ITEMS} documents in a ranking')
    return RunAgreement(tuple(queries), ktu, ext, low, high - low, depth, float(p))


def _common_queries(a: Run, b: Run) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The query ids both runs hold (in ``a``'s order) and their codes in each."""
    in_b = a.query_ids.lookup(b.query_ids)
    has_docs_a, has_docs_b = np.diff(a.offsets) > 0, np.diff(b.offsets) > 0
    qa = np.flatnonzero((in_b >= 0) & has_docs_a)
    qa = qa[has_docs_b[in_b[qa]]]
    if qa.size == 0:
        raise InputError(f'{a.source} and {b.source} have no query in common: nothing to compare')
    only_a, only_b = int(has_docs_a.sum()) - qa.size, int(has_docs_b.sum()) - qa.size
    if only_a or only_b:
        warn(f'{a.source} and {b.source} share {qa.size} queries; {only_a} only in {a.source} and {only_b} only in '
             f'{b.source} are left out')
    return a.query_ids.take(qa).to_list(), qa, in_b[qa]


def _union_codes(a: Run, b: Run) -> tuple[np.ndarray, np.ndarray]:
    """Each row's document as a code shared by both runs, codes in the order of the document ids
    (code point order, as Python's ``sorted``)."""
    va, ca = a.doc_ids.encode()
    vb, cb = b.doc_ids.encode()
    words = np.array(va.to_list() + vb.to_list(), dtype=str)
    _, code = np.unique(words, return_inverse=True)
    return code[:len(va)][ca], code[len(va):][cb]


def _ktu(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau of the codes ``x`` and ``y`` paired by rank, both cut to the shorter length."""
    k = min(len(x), len(y))
    if k < FEWEST_ITEMS:
        return math.nan
    return tau_statistic(x[:k], y[:k])           # no ties: a ranking holds a document once
