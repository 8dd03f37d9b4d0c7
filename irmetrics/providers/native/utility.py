"""Utility: a weighted count of the four cells of the retrieved / relevant contingency table."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...measures import Utility
from .kernels import kernel
from .table import RankedTable


@kernel(Utility)
def utility(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    rel_ret = t.count(t.relevant(rel))
    ret = t.ret_count(measure['judged_only']).astype(float)
    num_rel = t.index.num_rel(rel).astype(float)
    # summed in trec_eval's order, so that even the sign of a zero is the same
    return cast(np.ndarray, measure['rel_ret'] * rel_ret + measure['nonrel_ret'] * (ret - rel_ret)
                + measure['rel_unret'] * (num_rel - rel_ret)
                + measure['nonrel_unret'] * (measure['num_docs'] + rel_ret - ret - num_rel))
