"""Compatibility with an ideal ranking (Clarke, Vtyurina and Smucker 2021)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import P_PERSISTENCE, Param
from ..constraints import Bool

Compat = register(MeasureDef(
    name='Compat',
    params=(P_PERSISTENCE.with_default(0.95, 'persistence of the rank-biased overlap, in (0, 1)'),
            Param('normalize', Bool(), True,
                  'divide by the compatibility of the ideal ranking with itself (finite ideal rankings '
                  'cannot reach 1 otherwise)')),
    at_param=None,
    summary='Rank-biased overlap between the ranking and an ideal ranking of the relevant documents.',
    formula='RBO(A, I) = sum_{i<D} p^i |A_{:i+1} & I_{:i+1}| / (i + 1) / sum_{i<D} p^i, D = max(|A|, |I|); '
            'Compat = RBO(ranking, ideal) / RBO(ideal, ideal) when normalize (0 when the ideal is empty). '
            'The ideal ranking holds the documents judged > 0 by grade descending; within a grade, those '
            'the run retrieved come first, in the run\'s order, then the others.',
    citation='C. L. A. Clarke, A. Vtyurina and M. D. Smucker. Assessing Top-k Preferences. ACM TOIS 39(3), '
             '2021.',
    notes='D, the depth RBO is summed to, is the longer ranking\'s length, as ir_measures\' compat provider '
          'sums it; the authors\' compatibility script sums to a fixed depth (1000), which gives other numbers '
          'when both rankings are shorter. As ir_measures\' compat provider, whose ideal puts equal grades in '
          'the run\'s score order with unretrieved documents scored 0.0: with negative run scores it would put '
          'unretrieved documents ahead of retrieved ones; irmetrics always puts retrieved ones first (the best '
          'ideal for the run). Grades are any positive numbers (a real grade in (0, 1) is in the ideal). '
          'From preference judgments '
          '(trec_eval\'s prefs files): irmetrics.calc([Compat], prefs.ideal_qrels(), run), each level a grade, '
          'for queries of one judgment group of one sub-group, a weak ordering as the definition needs (Clarke et '
          'al., Offline evaluation without gain, ICTIR 2020); qrels read as preferences (qrels_prefs) give the '
          'values of the qrels. A query of several judgment groups or sub-groups is refused: the paper builds '
          'its one weak ordering by its own judging process, which the files do not record.',
))
