"""Precision at a rank cutoff (trec_eval ``P``)."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL

P = define(MeasureDef(
    name='P',
    params=(CUTOFF_REQUIRED, REL, JUDGED_ONLY),
    summary='Fraction of the top k documents that are relevant.',
    formula='P@k = |{relevant documents in the top k}| / k   (k, not the number retrieved, is the divisor)',
    citation='C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979.',
), aliases=['Precision'])
