"""Rprec: relevant documents in the top R, divided by R."""
from ...core.measure import Measure
from .kernels import kernel, safe_divide
from .table import RankedTable


@kernel('Rprec')
def r_precision(measure: Measure, t: RankedTable):
    rel = measure['rel']
    num_rel = t.index.num_rel(rel)
    hits = t.relevant(rel) & (t.rank_in(measure['judged_only']) < num_rel[t.query])
    return safe_divide(t.count(hits), num_rel)
