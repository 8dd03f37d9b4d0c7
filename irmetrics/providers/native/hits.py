"""Hits@k: relevant documents in the top k."""
from ...algebra.measure import Measure
from ...measures import Hits
from .kernels import cutoff_of, kernel
from .table import RankedTable


@kernel(Hits)
def hits(measure: Measure, t: RankedTable):
    return t.count(t.relevant(measure['rel']) & (t.rank_in(measure['judged_only']) < cutoff_of(measure)))
