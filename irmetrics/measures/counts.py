"""Counts: queries, relevant documents, retrieved documents (trec_eval ``num_*``).

These aggregate by summing over queries.  A qrels query missing from the run
still counts one query and its real number of relevant documents (trec_eval -c).
"""
from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import JUDGED_ONLY, NOT_PROVIDED, REL, Param
from ..constraints import Bool, Level

NumQ = register(MeasureDef(
    name='NumQ',
    tie_order='irrelevant',
    params=(),
    at_param=None,
    summary='Number of queries evaluated (the queries of the qrels).',
    formula='NumQ = 1 per query; summed over queries',
    missing_value=COMPUTED, aggregate='sum', bounds=None,
))

NumRel = register(MeasureDef(
    name='NumRel',
    tie_order='irrelevant',
    params=(REL,),
    at_param=None,
    summary='Number of relevant documents in the qrels, whether retrieved or not.',
    formula='NumRel = |{d in qrels : rel(d) >= rel}|; summed over queries',
    missing_value=COMPUTED, aggregate='sum', bounds=None,
))

NumRet = register(MeasureDef(
    name='NumRet',
    monotone=True,
    tie_order='irrelevant',
    params=(Param('rel', Level(), NOT_PROVIDED,
                  'count only retrieved documents with at least this grade (NumRet(rel=1) is '
                  'trec_eval num_rel_ret); all retrieved documents when not given'),
            Param('judged_nonrel', Bool(), False,
                  'count only the retrieved documents judged non-relevant, 0 <= grade < rel (rel 1 when not '
                  'given): trec_eval num_nonrel_judged_ret'),
            JUDGED_ONLY),
    at_param=None,
    summary='Number of documents retrieved (or, with rel, retrieved and relevant).',
    formula='NumRet = |ranking|; NumRet(rel=r) = |{d in ranking : rel(d) >= r}|; '
            'NumRet(judged_nonrel=True, rel=r) = |{d in ranking : 0 <= rel(d) < r}|; summed over queries',
    notes='With judged_only=True the ranking holds only the judged documents, so NumRet counts those '
          '(trec_eval num_ret under -J).',
    aggregate='sum', bounds=None,
), aliases={'NumRelRet': {'rel': 1}, 'NumNonRelJudgedRet': {'judged_nonrel': True}})
