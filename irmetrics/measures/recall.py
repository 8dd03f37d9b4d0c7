"""Recall at a rank cutoff (trec_eval ``recall``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL

R = register(MeasureDef(
    name='R',
    tie_order='expected',
    params=(CUTOFF_REQUIRED, REL, JUDGED_ONLY),
    summary='Fraction of the relevant documents that appear in the top k.',
    formula='R@k = |{relevant documents in the top k}| / R, with R the number of relevant documents '
            'in the qrels (0 when R = 0)',
    citation='C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979.',
    notes='Some communities call Success@k "recall@k"; irmetrics follows TREC: R@k is the fraction '
          'of relevant documents retrieved.',
), aliases=['Recall'])
