"""Expected reciprocal rank (gdeval's ``err``) and its normalised form."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF, Param
from ..constraints import Int

MAX_GRADE = Param('max_rel', Int(minimum=1, maximum=1000), 4,
                  'highest grade of the relevance scale: the stopping probability of grade g is '
                  '(2^g - 1) / 2^max_rel (gdeval fixes it at 4); higher grades count as max_rel')

_ERR_FORMULA = ('ERR@k = sum_{i=1..k} (R_i / i) * prod_{j<i} (1 - R_j), with '
                'R_i = (2^g_i - 1) / 2^max_rel the probability that the user stops at rank i '
                '(g_i the grade at rank i, clipped to [0, max_rel]; unjudged documents have R = 0)')
_ERR_CITATION = ('O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan. Expected Reciprocal Rank for Graded '
                 'Relevance. CIKM 2009.')

ERR = register(MeasureDef(
    name='ERR',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF, MAX_GRADE),
    summary='Expected reciprocal rank of the document at which a cascading user stops.',
    formula=_ERR_FORMULA,
    citation=_ERR_CITATION,
    notes='ERR@k is gdeval\'s err@k (ties by docno descending, max_rel = 4). gdeval leaves out the queries '
          'without a relevant document (irmetrics scores them 0), prints 5 decimals, and refuses grades '
          'above 4, where irmetrics clips grades to max_rel.',
))

nERR = register(MeasureDef(
    name='nERR',
    tie_order='expected',
    params=(CUTOFF, MAX_GRADE),
    summary='ERR divided by the ERR of the ideal ranking.',
    formula='nERR@k = ERR@k / ideal ERR@k, the ideal ranking being the judged documents by grade '
            'descending, cut at k (0 when the query has no relevant document). ' + _ERR_FORMULA,
    citation=_ERR_CITATION,
))
