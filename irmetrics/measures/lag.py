"""LAG: how many non-relevant documents a user wades through before each relevant one."""
from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import CUTOFF, JUDGED_ONLY, REL

LAG = register(MeasureDef(
    name='LAG',
    tie_order='monotone',
    params=(CUTOFF, REL, JUDGED_ONLY),
    at_param='cutoff',
    summary='Mean number of non-relevant documents ranked above each relevant document (lower is better).',
    formula='LAG@k = (1/R) * sum over the R relevant documents d of lag(d), where lag(d) is the number of '
            'non-relevant documents ranked above d if d is in the top k, and, if d is not, '
            'NR_k + N_out / 2: NR_k the non-relevant documents in the top k, N_out the judged non-relevant '
            'documents outside it. Undefined (left out) when R = 0.',
    citation='Defined by irmetrics (no published source): for each relevant item, the number of '
             'non-relevant items ranked above it, averaged per query then over queries.',
    notes='Non-relevant: every retrieved document with grade < rel, unjudged ones included (trec_eval\'s '
          'reading); judged_only=True removes unjudged documents first (trec_eval -J). Unretrieved relevant '
          'documents are not dropped, or a ranking that finds one relevant document at rank 1 and misses the '
          'others would be perfect: the ranking is completed with the unretrieved judged documents in random '
          'order, so an unretrieved relevant document follows every retrieved non-relevant one and, on '
          'average, half of the unretrieved judged non-relevant ones. An empty ranking (a query missing from '
          'the run) thus scores N/2, with N the judged non-relevant documents. Without a cutoff, '
          'AUC = 1 - LAG(judged_only=True) / N (the same completion).',
    missing_value=COMPUTED,
    bounds=None,
    higher_is_better=False,
    skips_undefined=True,
))
