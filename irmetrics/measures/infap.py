"""Inferred average precision (trec_eval ``infAP``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import JUDGED_ONLY, REL

infAP = register(MeasureDef(
    name='infAP',
    params=(REL, JUDGED_ONLY),
    at_param=None,
    summary='AP estimated from a random sample of judgments: documents judged -1 were pooled but not '
            'sampled, unpooled documents are taken as non-relevant.',
    formula='infAP = (1/R) * sum over relevant retrieved d at rank k of E[P@k], with '
            'E[P@k] = 1/k + ((k-1)/k) * (|pooled above k| / (k-1)) * ((rel_above + eps) / '
            '(rel_above + nonrel_above + 2 eps)), eps = 0.00001 (trec_eval\'s estimator)',
    citation='E. Yilmaz and J. A. Aslam. Estimating Average Precision with Incomplete and Imperfect '
             'Judgments. CIKM 2006.',
    notes='With judged_only=True (trec_eval -J) the ranking holds only the judged documents, so no '
          'document is pooled but unsampled and k is the rank among judged documents.',
))
