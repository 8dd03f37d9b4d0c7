"""The measures that read a ranking only down to a cutoff, computed from the hit matrix (:mod:`.hit_matrix`)
in the array's own library (numpy, or torch on the CPU or a GPU): one value per row of a batch.

Each formula is its family's, on the users x k matrix of the top ``k``: the per-position terms (AP's precision
at a rank, RR's reciprocal rank, DCG's discounted gain, the gains) and the values made of the sums (P, R, Judged,
the divisions by empty denominators) are the functions the native engine's kernels call (:mod:`.formulas`,
:func:`.ndcg.discounted`, :func:`.ndcg.gain_of`, :func:`.ndcg.ideal_dcg`); only how the terms are gathered
and summed is this module's (a row per user rather than a segment per query).  ``rel_i`` whether the item at
rank ``i`` is judged with a grade >= rel, ``R`` the relevant documents of the qrels:

* P@k = sum_{i<=k} rel_i / k (relative: / min(k, R)); R@k = sum_{i<=k} rel_i / R; Hits@k = sum_{i<=k} rel_i;
  Success@k = [sum_{i<=k} rel_i > 0]; RR@k = 1 / min{i <= k : rel_i}, 0 when none;
* AP@k = (1/R) sum_{i<=k} rel_i * (sum_{j<=i} rel_j) / i (divisor num_rel_ret: / sum_{i<=k} rel_i);
* DCG@k = sum_{i<=k} gain(grade_i) / log2(i + 1), nDCG@k = DCG@k / IDCG@k (the qrels' ideal DCG);
* Judged@k = |judged items in the top k| / min(k, ranking length).

A measure is computed here when :func:`supports` says so: its family has a formula here, it reads the
ranking only to its cutoff (:attr:`Measure.depth`), and its parameters are among those the formula
reads; every other measure goes through the engine of TREC runs on the top ``k``.  Values equal the
TREC engine's: sums are float64 and added in rank order, as that engine adds them (bit for bit with numpy
and torch on the CPU, as tests/api/test_array_runs.py checks with exact equality; a GPU's parallel sums may
differ in the last bit, which tests/api/test_cuda.py bounds).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...algebra.measure import Measure, MeasureDef
from ...measures import AP, DCG, RR, Hits, Judged, P, R, Success, nDCG
from . import formulas
from .hit_matrix import HitMatrix
from .ndcg import dcg_form, discounted, ideal_dcg
from .table import QrelsIndex

HitKernel = Callable[[Measure, HitMatrix], Any]
#: what a kernel reads of the qrels alone: (name, per-query array) for a measure, from a QrelsIndex
Needs = Callable[[Measure, QrelsIndex], dict[str, np.ndarray]]
#: per family: the kernel, the parameters it reads (others must keep their defaults) and what it needs
HIT_KERNELS: dict[MeasureDef, tuple[HitKernel, frozenset[str], Needs]] = {}


def supports(measure: Measure) -> bool:
    """Whether ``measure`` is computed from the hit matrix (see the module docstring)."""
    entry = HIT_KERNELS.get(measure.definition)
    return entry is not None and measure.depth is not None and set(measure.params) <= entry[1]


def evaluate(measure: Measure, hits: HitMatrix) -> Any:
    """The measure's value for each row of the hit matrix, float64, in its library."""
    return HIT_KERNELS[measure.definition][0](measure, hits)


def needs(measures: list[Measure]) -> Callable[[QrelsIndex], dict[str, np.ndarray]]:
    """What ``measures`` read of the qrels alone, as :class:`~.hit_matrix.HitJudgments` computes it once."""
    def compute(index: QrelsIndex) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for m in measures:
            found.update(HIT_KERNELS[m.definition][2](m, index))
        return found
    return compute


def _nothing(measure: Measure, index: QrelsIndex) -> dict[str, np.ndarray]:
    return {}


def _relevant_count(measure: Measure, index: QrelsIndex) -> dict[str, np.ndarray]:
    return {_num_rel_name(measure): index.num_rel(measure['rel'])}


def _num_rel_name(measure: Measure) -> str:
    return f'num_rel {measure["rel"]}'


def _hit_kernel(family: Measure, *reads: str, qrels: Needs = _nothing) -> Callable[[HitKernel], HitKernel]:
    def register(fn: HitKernel) -> HitKernel:
        HIT_KERNELS[family.definition] = (fn, frozenset(('cutoff', *reads)), qrels)
        return fn
    return register


def _found(measure: Measure, h: HitMatrix) -> Any:
    """Per row, the relevant items in the top k, as float64."""
    return h.library.f64(h.relevant(measure['rel'])[:, :measure['cutoff']].sum(1))


def _num_rel(measure: Measure, h: HitMatrix) -> Any:
    return h.library.f64(h.per_query(_num_rel_name(measure)))


def _total(h: HitMatrix, terms: Any) -> Any:
    """Per row, the sum of ``terms`` (float64) from rank 1 down, one addition after another (the native engine's
    order of additions, so that the values are its own to the bit on the host)."""
    if terms.shape[1] == 0:
        return h.library.f64(terms.sum(1))
    return terms.cumsum(1)[:, -1]


@_hit_kernel(P, 'rel', 'relative', qrels=_relevant_count)
def precision(measure: Measure, h: HitMatrix) -> Any:
    found, num_rel = _found(measure, h), _num_rel(measure, h)
    return formulas.precision(found, num_rel, measure['cutoff'], measure['relative'], h.library)


@_hit_kernel(R, 'rel', qrels=_relevant_count)
def recall(measure: Measure, h: HitMatrix) -> Any:
    return formulas.recall(_found(measure, h), _num_rel(measure, h), h.library)


@_hit_kernel(Hits, 'rel')
def hits(measure: Measure, h: HitMatrix) -> Any:
    return _found(measure, h)


@_hit_kernel(Success, 'rel')
def success(measure: Measure, h: HitMatrix) -> Any:
    return h.library.f64(_found(measure, h) > 0)


@_hit_kernel(RR, 'rel')
def reciprocal_rank(measure: Measure, h: HitMatrix) -> Any:
    k = min(measure['cutoff'], h.k)
    lib = h.library
    reciprocal = formulas.reciprocal_rank(lib.f64(lib.arange(k)))
    return lib.row_max(lib.where(h.relevant(measure['rel'])[:, :k], reciprocal, 0.0))


@_hit_kernel(AP, 'rel', 'divisor', qrels=_relevant_count)
def average_precision(measure: Measure, h: HitMatrix) -> Any:
    k = min(measure['cutoff'], h.k)
    lib = h.library
    relevant = h.relevant(measure['rel'])[:, :k]
    seen = lib.f64(relevant.cumsum(1))
    sums = _total(h, lib.where(relevant, formulas.precision_at(seen, lib.f64(lib.arange(k))), 0.0))
    if measure['divisor'] == 'num_rel_ret':
        return lib.divide(sums, lib.f64(relevant.sum(1)))
    return lib.divide(sums, _num_rel(measure, h))


def _dcg(measure: Measure, h: HitMatrix) -> Any:
    k = min(measure['cutoff'], h.k)
    return _total(h, discounted(h.gain(*dcg_form(measure))[:, :k], np.arange(k), h.library))


@_hit_kernel(DCG, 'dcg', 'gains')
def dcg(measure: Measure, h: HitMatrix) -> Any:
    return _dcg(measure, h)


def _ideal(measure: Measure, index: QrelsIndex) -> dict[str, np.ndarray]:
    gains, exp = dcg_form(measure)
    return {f'ideal {measure!r}': ideal_dcg(index, gains, measure['cutoff'], exp)}


@_hit_kernel(nDCG, 'dcg', 'gains', qrels=_ideal)
def ndcg(measure: Measure, h: HitMatrix) -> Any:
    return h.library.divide(_dcg(measure, h), h.library.f64(h.per_query(f'ideal {measure!r}')))


@_hit_kernel(Judged)
def judged(measure: Measure, h: HitMatrix) -> Any:
    k, lib = measure['cutoff'], h.library
    return formulas.judged_share(lib.f64(h.judged[:, :k].sum(1)), lib.f64(h.lengths), k, lib)
