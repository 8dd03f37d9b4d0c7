"""Set measures over the whole retrieved list (trec_eval set_P, set_recall, set_F, set_map)."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import SetAP, SetF, SetP, SetR
from .kernels import kernel, safe_divide
from .table import RankedTable


def _counts(measure: Measure, t: RankedTable, judged_only: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(relevant retrieved, retrieved, relevant) per query."""
    rel = measure['rel']
    return t.count(t.relevant(rel)), t.ret_count(judged_only).astype(float), t.index.num_rel(rel).astype(float)


@kernel(SetP)
def set_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    relret, ret, num_rel = _counts(measure, t, measure['judged_only'])
    if measure['relative']:
        return safe_divide(relret, np.minimum(ret, num_rel))
    return safe_divide(relret, ret)


@kernel(SetR)
def set_recall(measure: Measure, t: RankedTable) -> np.ndarray:
    relret, _, num_rel = _counts(measure, t)
    return safe_divide(relret, num_rel)


@kernel(SetF)
def set_f(measure: Measure, t: RankedTable) -> np.ndarray:
    # trec_eval weighs recall by beta itself, not beta squared: (1 + b) P R / (b P + R)
    relret, ret, num_rel = _counts(measure, t, measure['judged_only'])
    b = measure['beta']
    p, r = safe_divide(relret, ret), safe_divide(relret, num_rel)
    return np.where(relret > 0, safe_divide((1 + b) * p * r, b * p + r), 0.0)


@kernel(SetAP)
def set_ap(measure: Measure, t: RankedTable) -> np.ndarray:
    relret, ret, num_rel = _counts(measure, t, measure['judged_only'])
    return safe_divide(relret * relret, ret * num_rel)
