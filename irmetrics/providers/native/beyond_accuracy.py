"""Catalogue coverage and the Gini index of exposure: one value per run, from the top k of every
qrels query the run holds (judged or not)."""
from __future__ import annotations

import numpy as np

from ...algebra.measure import Measure
from ...errors import MeasureError
from ...measures import Coverage, Gini
from .kernels import kernel
from .table import RankedTable


def _exposure(measure: Measure, t: RankedTable) -> np.ndarray:
    """The number of top-k slots of each catalogue item (0 for the items never recommended), ascending."""
    run, k, n = t.run, measure['cutoff'], measure['catalogue']
    in_qrels = run.query_ids.lookup(t.index.qrels.query_ids) >= 0            # per run query code
    query = run.qidx[run.order]
    chosen = run.order[in_qrels[query] & (np.arange(len(run.order)) - run.offsets[query] < k)]
    _, codes = run.doc_ids.take(chosen).encode()
    counts = np.bincount(codes).astype(np.float64) if len(codes) else np.zeros(0)
    if len(counts) > n:
        raise MeasureError(f'{measure!r}: the run recommends {len(counts)} distinct items, more than the '
                           f'catalogue of {n} (catalogue=...)')
    return np.sort(np.concatenate((np.zeros(n - len(counts)), counts)))


@kernel(Coverage)
def coverage(measure: Measure, t: RankedTable) -> float:
    return float(np.count_nonzero(_exposure(measure, t)) / measure['catalogue'])


@kernel(Gini)
def gini(measure: Measure, t: RankedTable) -> float:
    slots = _exposure(measure, t)
    n, total = len(slots), slots.sum()
    if total == 0:
        return 0.0
    weights = 2 * np.arange(1, n + 1) - n - 1
    return float((weights * slots).sum() / (n * total))
