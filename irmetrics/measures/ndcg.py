"""Normalised discounted cumulative gain (trec_eval ``ndcg`` and ``ndcg_cut``)."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF, GAINS, JUDGED_ONLY, Choice, Param

DCG_FORM = Param('dcg', Choice('log2'), 'log2',
                 "DCG formulation: 'log2' = gain(grade) / log2(rank + 1) with linear gains (trec_eval)")

nDCG = define(MeasureDef(
    name='nDCG',
    params=(CUTOFF, DCG_FORM, GAINS, JUDGED_ONLY),
    summary='Discounted cumulative gain of the ranking divided by that of the ideal ranking.',
    formula='DCG@k = sum_{i=1..k} gain(rel_i) / log2(i + 1); nDCG@k = DCG@k / IDCG@k, where IDCG@k is '
            'the DCG@k of the judged documents sorted by gain (the ideal ranking is cut at k too). '
            'gain(g) = g by default (linear), or gains[g]; negative gains count as 0.',
    citation='K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. '
             'ACM TOIS 20(4), 2002.',
), aliases=['NDCG'])
