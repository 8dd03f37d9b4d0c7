"""Hits: the number of relevant documents retrieved (ranx's ``hits``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF, JUDGED_ONLY, REL

Hits = register(MeasureDef(
    name='Hits',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF, REL, JUDGED_ONLY),
    summary='Number of relevant documents in the top k (all retrieved without a cutoff).',
    formula='Hits@k = |{relevant documents in the top k}|; averaged over queries',
    citation='E. Bassani. ranx: A Blazing-Fast Python Library for Ranking Evaluation and Comparison. ECIR 2022.',
    notes='Averaged over queries like every per-query measure (ranx reports the mean too); '
          'NumRet(rel=1) is the same count summed over queries.',
    bounds=None,
))
