"""Average precision (trec_eval ``map`` and ``map_cut``)."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF, JUDGED_ONLY, REL

AP = define(MeasureDef(
    name='AP',
    params=(CUTOFF, REL, JUDGED_ONLY),
    summary='Mean of the precision values at the ranks of the relevant documents retrieved.',
    formula='AP@k = (1/R) * sum over ranks i <= k holding a relevant document of P@i, '
            'with R the number of relevant documents in the qrels (0 when R = 0). '
            'Unretrieved relevant documents contribute 0; the cutoff does not change the divisor R.',
    citation='D. Harman. Overview of the First Text REtrieval Conference (TREC-1). 1992.',
), aliases=['MAP'])
