"""Binary preference (trec_eval ``bpref`` and ``gm_bpref``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import AGGREGATION, REL

Bpref = register(MeasureDef(
    name='Bpref',
    tie_order='monotone',
    params=(REL, AGGREGATION),
    at_param=None,
    summary='How often judged relevant documents are ranked above judged non-relevant ones; '
            'unjudged documents are ignored.',
    formula='Bpref = (1/R) * sum over relevant retrieved d of (1 - min(n_d, R) / min(R, N)), with '
            'n_d the number of judged non-relevant documents ranked above d, R the number of relevant '
            'and N the number of judged non-relevant documents (each term is 1 when N = 0; 0 when R = 0). '
            "With agg='gmean' the aggregate is the geometric mean of the values floored at 1e-5 "
            '(trec_eval gm_bpref).',
    citation='C. Buckley and E. M. Voorhees. Retrieval Evaluation with Incomplete Information. SIGIR 2004.',
    notes='Follows trec_eval: the denominator min(R, N) is trec_eval\'s, not the 1/R of the paper\'s first '
          'formulation. Unjudged documents are skipped, so trec_eval -J changes nothing here.',
), aliases=['BPref'])
