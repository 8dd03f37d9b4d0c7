"""Average precision (trec_eval ``map`` and ``map_cut``)."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF, JUDGED_ONLY, REL, Choice, Param

DIVISOR = Param('divisor', Choice('num_rel', 'num_rel_ret'), 'num_rel',
                "'num_rel': the relevant documents in the qrels (trec_eval); 'num_rel_ret': the relevant "
                "documents retrieved (within the cutoff), as cwl_eval's AP does")

AP = define(MeasureDef(
    name='AP',
    params=(CUTOFF, REL, JUDGED_ONLY, DIVISOR),
    summary='Mean of the precision values at the ranks of the relevant documents retrieved.',
    formula='AP@k = (1/R) * sum over ranks i <= k holding a relevant document of P@i, '
            'with R the number of relevant documents in the qrels (0 when R = 0). '
            'Unretrieved relevant documents contribute 0; the cutoff does not change the divisor R. '
            "With divisor='num_rel_ret', R is the number of relevant documents ranked within the cutoff.",
    notes="AP(divisor='num_rel_ret')@1000 is cwl_eval's AP (the C/W/L AP, whose weights are normalised over "
          'the relevant documents in its 1000-rank window); trec_eval and this default divide by all the '
          'relevant documents of the qrels.',
    citation='D. Harman. Overview of the First Text REtrieval Conference (TREC-1). 1992.',
), aliases=['MAP'])
