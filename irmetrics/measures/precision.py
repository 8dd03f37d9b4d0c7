"""Precision at a rank cutoff (trec_eval ``P`` and ``relative_P``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL, Param
from ..constraints import Bool

P = register(MeasureDef(
    name='P',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF_REQUIRED, REL, JUDGED_ONLY,
            Param('relative', Bool(), False, 'divide by min(k, R), the most relevant documents the top k can '
                                             'hold, instead of k (trec_eval relative_P)')),
    summary='Fraction of the top k documents that are relevant.',
    formula='P@k = |{relevant documents in the top k}| / k   (k, not the number retrieved, is the divisor); '
            'with relative=True, |{relevant documents in the top k}| / min(k, R), R the number of relevant '
            'documents (0 when R = 0)',
    citation='C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979.',
    notes='P(relative=True)@k equals P@k for k <= R and R@k for k >= R.',
), aliases=['Precision'])
