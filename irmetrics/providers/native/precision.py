"""P@k: relevant documents in the top k, divided by k (or by min(k, R) when relative)."""
from __future__ import annotations

from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.array_library import NUMPY
from ...measures import P
from . import formulas
from .kernels import kernel
from .table import RankedTable
from .ties import count_within, expects


@kernel(P)
def precision(measure: Measure, t: RankedTable) -> np.ndarray:
    k, rel = measure['cutoff'], measure['rel']
    hits = count_within(t, t.relevant(rel), k, measure['judged_only'], expects(measure))
    return cast(np.ndarray, formulas.precision(hits, t.index.num_rel(rel), k, measure['relative'], NUMPY))
