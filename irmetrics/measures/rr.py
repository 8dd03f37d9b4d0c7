"""Reciprocal rank of the first relevant document (trec_eval ``recip_rank``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF, JUDGED_ONLY, REL

RR = register(MeasureDef(
    name='RR',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF, REL, JUDGED_ONLY),
    summary='Reciprocal of the rank of the first relevant document (0 if none in the top k).',
    formula='RR@k = 1 / min{i <= k : document at rank i is relevant}, or 0 if there is none',
    citation='E. M. Voorhees. The TREC-8 Question Answering Track Report. TREC 1999; '
             'P. B. Kantor and E. M. Voorhees. The TREC-5 Confusion Track. Information Retrieval 2(2-3), 2000.',
    notes='RR@10 is the MS MARCO passage ranking MRR@10 (the official msmarco_eval.py, as ir_measures runs '
          'it): the same value for every query with a relevant document. The script differs in what it '
          'reports, not in the value: it orders tied scores by docno ascending (irmetrics: descending), '
          'leaves out queries without a relevant document (irmetrics: 0, trec_eval\'s rule; the official '
          'qrels list relevant passages only, so there the two agree), and, reading files, ranks by the rank '
          'column and keeps at most 1,000 passages per query.',
), aliases=['MRR'])
