"""Discounted cumulative gain: nDCG (trec_eval ``ndcg``/``ndcg_cut``, gdeval) and unnormalised DCG."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF, GAINS, JUDGED_ONLY, Choice, Param

DCG_FORM = Param('dcg', Choice('log2', 'exp-log2'), 'log2',
                 "DCG formulation: 'log2' = gain(grade) / log2(rank + 1) with linear gains (trec_eval, "
                 "Järvelin & Kekäläinen); 'exp-log2' = (2^gain(grade) - 1) / log2(rank + 1) (gdeval, "
                 "Burges et al.)")

_GAIN = ('gain(g) = g by default, or gains[g]; negative grades (and unjudged documents) gain 0. '
         "With dcg='exp-log2' the gain is 2^gain(g) - 1.")

nDCG = define(MeasureDef(
    name='nDCG',
    params=(CUTOFF, DCG_FORM, GAINS, JUDGED_ONLY),
    summary='Discounted cumulative gain of the ranking divided by that of the ideal ranking.',
    formula='DCG@k = sum_{i=1..k} gain(rel_i) / log2(i + 1); nDCG@k = DCG@k / IDCG@k, where IDCG@k is '
            'the DCG@k of the judged documents sorted by gain (the ideal ranking is cut at k too; '
            '0 when IDCG@k = 0). ' + _GAIN,
    citation='K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. '
             'ACM TOIS 20(4), 2002. exp-log2: C. Burges et al. Learning to Rank using Gradient Descent. '
             'ICML 2005; gdeval.pl, TREC 2010 Web track.',
    notes="nDCG(dcg='exp-log2')@k is gdeval's ndcg@k: gdeval ranks ties by docno descending too (as "
          'irmetrics does), takes the ideal ranking from the documents judged > 0, cut at k, and uses the '
          'natural logarithm, which cancels in the ratio. gdeval leaves out the queries without a relevant '
          'document (irmetrics scores them 0), prints 5 decimals, and refuses grades above 4 (irmetrics '
          "takes any grade). ranx's ndcg_burges is the same measure.",
), aliases=['NDCG'])

DCG = define(MeasureDef(
    name='DCG',
    params=(CUTOFF, DCG_FORM, GAINS, JUDGED_ONLY),
    summary='Discounted cumulative gain of the ranking (not normalised).',
    formula='DCG@k = sum_{i=1..min(k, n)} gain(rel_i) / log2(i + 1). ' + _GAIN,
    citation='K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. '
             'ACM TOIS 20(4), 2002. exp-log2: C. Burges et al. Learning to Rank using Gradient Descent. '
             'ICML 2005.',
    notes="ranx's dcg and dcg_burges are DCG@k and DCG(dcg='exp-log2')@k.",
    bounds=None,
))
