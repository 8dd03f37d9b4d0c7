"""Set utility: a linear gain over the contingency table of retrieval (trec_eval ``utility``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import JUDGED_ONLY, REL, Param
from ..constraints import Float, Int

Utility = register(MeasureDef(
    name='Utility',
    tie_order='irrelevant',
    params=(Param('rel_ret', Float(), 1.0, 'worth of each relevant document retrieved'),
            Param('nonrel_ret', Float(), -1.0, 'worth of each non-relevant document retrieved'),
            Param('rel_unret', Float(), 0.0, 'worth of each relevant document not retrieved'),
            Param('nonrel_unret', Float(), 0.0, 'worth of each non-relevant document not retrieved'),
            Param('num_docs', Int(), 0, 'number of documents in the collection, N (trec_eval -N); '
                                        'needed when nonrel_unret is not 0'),
            REL, JUDGED_ONLY),
    at_param=None,
    summary='Worth of the retrieved set: a weighted count of relevant and non-relevant documents, '
            'retrieved or not.',
    formula='Utility = rel_ret * a + nonrel_ret * b + rel_unret * c + nonrel_unret * d, with a the relevant '
            'retrieved, b = ret - a the non-relevant retrieved (unjudged ones included), c = R - a the '
            'relevant not retrieved and d = N + a - ret - R the non-relevant not retrieved',
    citation='D. D. Lewis. The TREC-4 Filtering Track. TREC 1995; trec_eval\'s utility measure.',
    notes="Utility(rel_ret=2, nonrel_ret=-1, rel_unret=0, nonrel_unret=0.001, num_docs=N) is trec_eval's "
          'utility.2,-1,0,0.001 under -N N. Averaged over queries, as trec_eval does (its help suggests a '
          'sum might serve better). A query missing from the run scores 0, as in trec_eval -c.',
    bounds=None,
))
