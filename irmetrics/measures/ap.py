"""Average precision (trec_eval ``map``, ``map_cut``, ``gm_map``) and Robertson's YAAP (``yaap``)."""
from collections.abc import Mapping
from typing import Any

from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import AGGREGATION, CUTOFF, JUDGED_ONLY, REL, Param
from ..constraints import Choice
from ..errors import MeasureError

DIVISOR = Param('divisor', Choice('num_rel', 'num_rel_ret'), 'num_rel',
                "'num_rel': the relevant documents in the qrels (trec_eval); 'num_rel_ret': the relevant "
                "documents retrieved (within the cutoff), as cwl_eval's AP does")



def _check(params: Mapping[str, Any]) -> None:
    if params.get('ties') == 'expected' and params.get('divisor') == 'num_rel_ret' and 'cutoff' in params:
        raise MeasureError("AP(ties='expected', divisor='num_rel_ret') with a cutoff: the divisor (the relevant "
                           'documents within the cutoff) then depends on the order of tied documents too, and the '
                           'expectation of the ratio has no closed form here; use the default divisor or no cutoff')


AP = register(MeasureDef(
    name='AP',
    tie_order='expected',
    params=(CUTOFF, REL, JUDGED_ONLY, DIVISOR, AGGREGATION),
    summary='Mean of the precision values at the ranks of the relevant documents retrieved.',
    formula='AP@k = (1/R) * sum over ranks i <= k holding a relevant document of P@i, '
            'with R the number of relevant documents in the qrels (0 when R = 0). '
            'Unretrieved relevant documents contribute 0; the cutoff does not change the divisor R. '
            "With divisor='num_rel_ret', R is the number of relevant documents ranked within the cutoff. "
            "With agg='gmean' the aggregate is the geometric mean exp(mean(log(max(AP_q, 1e-5)))) "
            '(GMAP, trec_eval gm_map).',
    notes="AP(divisor='num_rel_ret')@1000 is cwl_eval's AP (the C/W/L AP, whose weights are normalised over "
          'the relevant documents in its 1000-rank window); trec_eval and this default divide by all the '
          'relevant documents of the qrels. GMAP = AP(agg=\'gmean\') rewards consistency across queries '
          '(Robertson 2006): a query scoring 0 counts as 1e-5, so one failed query pulls the aggregate down '
          'hard; only the aggregate differs from AP, the per-query values are AP\'s.',
    citation='D. Harman. Overview of the First Text REtrieval Conference (TREC-1). 1992. GMAP: S. Robertson. '
             'On GMAP and Other Transformations. CIKM 2006.',
    check=_check,
), aliases={'MAP': {}, 'GMAP': {'agg': 'gmean'}})

YAAP = register(MeasureDef(
    name='YAAP',
    tie_order='monotone',
    params=(REL, JUDGED_ONLY),
    at_param=None,
    summary='Yet another average precision: a log-odds form of AP that averages better over queries.',
    formula='YAAP = log((1 + S) / (1 + R - S)), with S = R * AP = the sum over ranks i holding a relevant '
            'document of P@i, and R the number of relevant documents in the qrels',
    citation='S. Robertson. On Smoothing Average Precision. ECIR 2012 (trec_eval yaap).',
    notes='Monotonic in AP for a fixed R. A ranking without a relevant document scores log(1 / (1 + R)), '
          'not 0, and a query missing from the run is evaluated as such a ranking (as trec_eval -c does).',
    missing_value=COMPUTED,
    bounds=None,
))
