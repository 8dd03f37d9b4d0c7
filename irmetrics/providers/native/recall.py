"""R@k: relevant documents in the top k, divided by the number of relevant documents."""
from ...algebra.measure import Measure
from ...measures import R
from .kernels import kernel, safe_divide
from .table import RankedTable


@kernel(R)
def recall(measure: Measure, t: RankedTable):
    rel = measure['rel']
    hits = t.relevant(rel) & (t.rank_in(measure['judged_only']) < measure['cutoff'])
    return safe_divide(t.count(hits), t.index.num_rel(rel))
