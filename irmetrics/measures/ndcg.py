"""Discounted cumulative gain: nDCG (trec_eval ``ndcg``/``ndcg_cut``, gdeval), unnormalised DCG (``dcg``)
and IDCG (``ideal_dcg``), and trec_eval's two averages of the nDCG curve (``ndcg_rel``, ``Rndcg``)."""
from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import CUTOFF, GAINS, JUDGED_ONLY, REL, Param
from ..constraints import Choice

DCG_FORM = Param('dcg', Choice('log2', 'exp-log2'), 'log2',
                 "DCG formulation: 'log2' = gain(grade) / log2(rank + 1) with linear gains (trec_eval, "
                 "Järvelin & Kekäläinen); 'exp-log2' = (2^gain(grade) - 1) / log2(rank + 1) (gdeval, "
                 "Burges et al.)")

_GAIN = ('gain(g) = g by default, or gains[g]; negative grades (and unjudged documents) gain 0. '
         "With dcg='exp-log2' the gain is 2^gain(g) - 1.")

nDCG = register(MeasureDef(
    name='nDCG',
    tie_order='expected',
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

DCG = register(MeasureDef(
    name='DCG',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF, DCG_FORM, GAINS, JUDGED_ONLY),
    summary='Discounted cumulative gain of the ranking (not normalised).',
    formula='DCG@k = sum_{i=1..min(k, n)} gain(rel_i) / log2(i + 1). ' + _GAIN,
    citation='K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. '
             'ACM TOIS 20(4), 2002. exp-log2: C. Burges et al. Learning to Rank using Gradient Descent. '
             'ICML 2005.',
    notes="ranx's dcg and dcg_burges are DCG@k and DCG(dcg='exp-log2')@k; trec_eval's dcg is DCG.",
    bounds=None,
))

IDCG = register(MeasureDef(
    name='IDCG',
    tie_order='irrelevant',
    params=(CUTOFF, DCG_FORM, GAINS),
    summary='Discounted cumulative gain of the ideal ranking: the divisor of nDCG, a property of the qrels.',
    formula='IDCG@k = the DCG@k of the judged documents sorted by gain, highest first. ' + _GAIN,
    citation='K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. '
             'ACM TOIS 20(4), 2002.',
    notes="trec_eval's ideal_dcg is IDCG. It does not depend on the run, so a query missing from the run has "
          'its IDCG too (as in trec_eval -c).',
    missing_value=COMPUTED,
    bounds=None,
))

_CURVE = ('DCG@i and IDCG@i are the DCG of the first i documents of the ranking and of the ideal ranking (the '
          'judged documents of positive gain, highest first); gain(g) = g or gains[g], 0 for negative grades '
          'and unjudged documents.')
_CURVE_CITATION = ('K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. ACM TOIS '
                   '20(4), 2002; the averages are C. Buckley\'s experimental measures of trec_eval 9.0 (2008).')

nDCGRel = register(MeasureDef(
    name='nDCGRel',
    tie_order='monotone',
    params=(GAINS, JUDGED_ONLY),
    at_param=None,
    summary='nDCG averaged over the relevant documents: at the rank of each one retrieved, at the end of the '
            'ranking for each one missed.',
    formula='nDCGRel = (1/R\') * (sum over retrieved documents d of positive gain of DCG@rank(d) / '
            'IDCG@rank(d) + (R\' - r\') * DCG@n / IDCG), R\' the judged documents of positive gain, r\' those '
            'retrieved, n the ranking length and IDCG the whole ideal DCG; 0 when R\' = 0. ' + _CURVE,
    citation=_CURVE_CITATION,
    notes="As trec_eval 10's ndcg_rel. The nDCG curve dips between the levels of the ideal ranking; averaging "
          'it at the relevant documents, as AP averages precision, makes queries comparable.',
))

RnDCG = register(MeasureDef(
    name='RnDCG',
    tie_order='monotone',
    params=(GAINS, REL.with_doc('the query scores 0 unless it has a judged document of grade >= rel (trec_eval '
                                'computes Rndcg only where num_rel at its level -l is positive); the gains do not '
                                'depend on it'), JUDGED_ONLY),
    at_param=None,
    summary='nDCG averaged at the R-levels: the depths where a gain level of the ideal ranking ends.',
    formula='RnDCG = mean of DCG@b / IDCG@b over the depths b >= 1 at which the ideal gain changes '
            '(g*_b != g*_{b+1}, with g*_j = 0 beyond the ideal ranking; so b = R\', the number of judged '
            'documents of positive gain, is always one), and b = n, the ranking length, when n >= R\' + 2. '
            'Undefined (NaN, trec_eval\'s 0/0) when no judged document has a positive gain. ' + _CURVE,
    citation=_CURVE_CITATION,
    notes="As trec_eval 10's Rndcg: with 5 documents of grade 3, 3 of grade 2 and 10 of grade 1, "
          'RnDCG = (nDCG@5 + nDCG@8 + nDCG@18 (+ nDCG@n)) / 3 (or 4). A query missing from the run is '
          'evaluated as an empty ranking.',
    missing_value=COMPUTED,
))
