"""ROC-AUC of a ranking over the judged documents, and the ROC curve itself.

The ranking is completed as the AUC definition says: the judged documents in the top k in rank order,
then every other judged document, tied (each tied relevant/non-relevant pair counts 1/2).
"""
from __future__ import annotations

import numpy as np

from ...algebra.measure import Measure
from ...data.run import Run
from ...data.segments import offsets_of, running_count
from ...measures import AUC
from .kernels import cutoff_of, kernel
from .table import QrelsIndex, RankedTable


def _judged_classes(t: RankedTable, rel: int, k: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Masks of the relevant and judged non-relevant rows in the top k, and the class sizes R, N."""
    in_top = t.rank < k
    relevant = t.relevant(rel) & in_top
    nonrel = (t.grade >= 0) & ~t.relevant(rel) & in_top
    return relevant, nonrel, t.index.num_rel(rel).astype(np.float64), \
        t.index.count(low=0, high=rel).astype(np.float64)


@kernel(AUC)
def auc(measure: Measure, t: RankedTable) -> np.ndarray:
    relevant, nonrel, num_rel, num_nonrel = _judged_classes(t, measure['rel'], cutoff_of(measure))
    nonrel_outside = num_nonrel - t.count(nonrel)
    below = num_nonrel[t.query[relevant]] - t.count_before(nonrel, at=relevant)
    ordered = t.total(relevant, below) + (num_rel - t.count(relevant)) * nonrel_outside / 2.0
    pairs = num_rel * num_nonrel
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(pairs > 0, ordered / pairs, np.nan)


def roc_curves(index: QrelsIndex, run: Run, rel: int, cutoff: int | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The ROC curve of each query: ``{query_id: (false positive rates, true positive rates)}``.

    Points start at (0, 0), take one step per judged document of the top ``cutoff`` (up for a relevant
    one, grade >= ``rel``; right for a judged non-relevant one) and end at (1, 1): the last segment is
    the judged documents not retrieved, tied.  Its area is ``AUC(rel=rel)@cutoff``.  Queries of the
    qrels without relevant or without judged non-relevant documents have no curve and are left out.
    """
    t = RankedTable(index, run)
    relevant, nonrel, num_rel, num_nonrel = _judged_classes(t, rel, np.inf if cutoff is None else cutoff)
    steps = relevant | nonrel
    q = t.query[steps]
    offsets = offsets_of(q, t.nq)
    true_pos = running_count(relevant[steps], q, offsets)
    false_pos = running_count(nonrel[steps], q, offsets)
    out = {}
    for i, qid in enumerate(index.qrels.query_ids.to_list()):
        if num_rel[i] == 0 or num_nonrel[i] == 0:
            continue
        part = slice(offsets[i], offsets[i + 1])
        out[qid] = (np.concatenate(([0.0], false_pos[part] / num_nonrel[i], [1.0])),
                    np.concatenate(([0.0], true_pos[part] / num_rel[i], [1.0])))
    return out
