"""P@k: relevant documents in the top k, divided by k."""
from ...core.measure import Measure
from .kernels import kernel
from .table import RankedTable


@kernel('P')
def precision(measure: Measure, t: RankedTable):
    k = measure['cutoff']
    hits = t.relevant(measure['rel']) & (t.rank_in(measure['judged_only']) < k)
    return t.count(hits) / k
