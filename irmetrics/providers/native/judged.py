"""Judged@k: the share of the top k that the qrels judge (with any grade); Unjudged@k: the share of the
top k, padded to k, absent from the qrels or judged with a negative grade."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.array_library import NUMPY
from ...measures import Judged, Unjudged
from .formulas import judged_share
from .kernels import cutoff_of, kernel
from .table import RankedTable
from .ties import count_within, expects


@kernel(Judged)
def judged(measure: Measure, t: RankedTable) -> np.ndarray:
    k = cutoff_of(measure)
    return cast(np.ndarray, judged_share(count_within(t, np.ones(len(t.rank), dtype=bool), k, False, expects(measure)),
                                         t.n_ret, k, NUMPY))


@kernel(Unjudged)
def unjudged(measure: Measure, t: RankedTable) -> np.ndarray:
    k = measure['cutoff']
    if measure['judged_only']:
        return np.zeros(t.nq)
    judged_in_top = count_within(t, t.grade >= 0, k, False, expects(measure))
    return cast(np.ndarray, (np.minimum(t.n_ret, k) - judged_in_top) / k)
