"""Novelty and diversity measures over subtopic qrels (ndeval, the TREC Web track's tool).

In diversity qrels the iteration column is the subtopic: ``query subtopic doc grade``.
Every measure here reads, for each ranked document, the set of subtopics it is
relevant to.  G(i), the gain of rank i, sums over those subtopics s the novelty
discount (1 - alpha)^c(s, i), c(s, i) being the number of documents above rank i
relevant to s; S is the number of the query's subtopics with at least one relevant
document.  The conventions all of them share are those of ndeval 4.5 (through
pyndeval 0.0.8) and are stated in :data:`NDEVAL_CONVENTIONS`.
"""
from collections.abc import Iterable

from ..algebra.measure import Measure, MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL, Param
from ..constraints import Float

ALPHA = Param('alpha', Float(0, 1), 0.5,
              'redundancy intolerance: a document relevant to a subtopic already covered c times gains '
              '(1 - alpha)^c for it')
BETA = Param('beta', Float(0, 1, low_open=True), 0.5,
             'patience: NRBP weighs rank i by beta^(i-1)')
DIV_CUTOFF = CUTOFF_REQUIRED.with_doc(
    'rank cutoff k: only the top k documents count (ndeval reports k = 5, 10 and 20; pyndeval accepts k <= 20, '
    'irmetrics any k)')
DIV_REL = REL.with_doc('minimum grade for a document to count as relevant to a subtopic (ndeval\'s judgments '
                       'are binary)')

#: Conventions shared by the family (repeated in each definition's notes).
NDEVAL_CONVENTIONS = (
    'As ndeval 4.5 computes it (through pyndeval 0.0.8): a document is relevant to a subtopic when its grade '
    'for that subtopic is >= rel; subtopics without a relevant document in the qrels are ignored, and S '
    'counts the others. A query without any relevant document scores 0 (ndeval also gives 0, except nNRBP: '
    '0/0 = NaN there). Documents absent from the qrels keep their rank and gain nothing; judged_only=True '
    'removes them first, and documents judged only with negative grades with them (trec_eval -J; '
    'ir_measures removes only the documents absent from the qrels). pyndeval orders tied scores by docno '
    'ascending, ndeval by the rank column.'
)
IDEAL_RANKING = (
    'The ideal ranking is ndeval\'s greedy approximation over the judged documents: at each rank, the '
    'document with the highest gain given those already placed (ties: the greater docno, byte-wise). The '
    'exact ideal is NP-hard; the greedy one is not always optimal, so values above 1 are possible, rarely.'
)
IDEAL_IDEAL = (
    'The normaliser is ndeval\'s "ideal ideal" ranking, in which every rank covers all S subtopics, so the '
    'value does not depend on the qrels beyond S. As in ndeval, it applies for k >= 2 only: at k = 1 the '
    'value is G(1), the unnormalised gain of the first document (up to S).'
)

_ALPHA_NDCG = ('C. L. A. Clarke, M. Kolla, G. V. Cormack, O. Vechtomova, A. Ashkan, S. Büttcher and '
               'I. MacKinnon. Novelty and Diversity in Information Retrieval Evaluation. SIGIR 2008.')
_ERR_IA = ('O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan. Expected Reciprocal Rank for Graded Relevance. '
           'CIKM 2009; R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong. Diversifying Search Results. '
           'WSDM 2009.')
_NRBP = ('C. L. A. Clarke, M. Kolla and O. Vechtomova. An Effectiveness Measure for Ambiguous and '
         'Underspecified Queries. ICTIR 2009.')
_IA = 'R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong. Diversifying Search Results. WSDM 2009.'
_GAIN = 'G(i) = sum over the subtopics s that document i is relevant to of (1 - alpha)^c(s, i)'


def _diversity(name: str, params: tuple[Param, ...], summary: str, formula: str, citation: str, notes: str = '',
               at_param: str | None = 'cutoff', bounds: tuple[float, float] | None = (0.0, 1.0),
               aliases: Iterable[str] = ()) -> Measure:
    return register(MeasureDef(
        name=name, params=params, summary=summary, formula=formula, citation=citation,
        notes=(notes + ' ' if notes else '') + NDEVAL_CONVENTIONS, at_param=at_param, bounds=bounds,
        subtopics=True), aliases=aliases)


alpha_DCG = _diversity(
    'alpha_DCG', (DIV_CUTOFF, ALPHA, DIV_REL, JUDGED_ONLY),
    'Novelty-discounted DCG, normalised by the DCG of an ideal ranking covering every subtopic at every rank.',
    f'{_GAIN}; alpha_DCG@k = sum_{{i<=k}} G(i) / log2(i + 1) divided by '
    f'sum_{{i<=k}} S (1 - alpha)^(i-1) / log2(i + 1)  (k >= 2; G(1) when k = 1)',
    _ALPHA_NDCG, notes=IDEAL_IDEAL, bounds=None, aliases=['α_DCG'])

alpha_nDCG = _diversity(
    'alpha_nDCG', (DIV_CUTOFF, ALPHA, DIV_REL, JUDGED_ONLY),
    'Novelty-discounted DCG divided by that of the (greedy) ideal ranking.',
    f'{_GAIN}; alpha_nDCG@k = sum_{{i<=k}} G(i) / log2(i + 1) divided by the same sum over the ideal '
    f'ranking (0 when the numerator is 0)',
    _ALPHA_NDCG, notes=IDEAL_RANKING, bounds=None, aliases=['α_nDCG'])

ERR_IA = _diversity(
    'ERR_IA', (DIV_CUTOFF, ALPHA, DIV_REL, JUDGED_ONLY),
    'Intent-aware expected reciprocal rank (a relevant document satisfies a subtopic with probability '
    'alpha), normalised by an ideal ranking covering every subtopic at every rank.',
    f'{_GAIN}; ERR_IA@k = sum_{{i<=k}} G(i) / i divided by sum_{{i<=k}} S (1 - alpha)^(i-1) / i  '
    f'(k >= 2; G(1) when k = 1)',
    _ERR_IA, notes=IDEAL_IDEAL, bounds=None)

nERR_IA = _diversity(
    'nERR_IA', (DIV_CUTOFF, ALPHA, DIV_REL, JUDGED_ONLY),
    'Intent-aware expected reciprocal rank divided by that of the (greedy) ideal ranking.',
    f'{_GAIN}; nERR_IA@k = sum_{{i<=k}} G(i) / i divided by the same sum over the ideal ranking '
    f'(0 when the numerator is 0)',
    _ERR_IA, notes=IDEAL_RANKING, bounds=None)

NRBP = _diversity(
    'NRBP', (ALPHA, BETA, DIV_REL),
    'Novelty- and rank-biased precision over the whole ranking.',
    f'{_GAIN}; NRBP = (1 - (1 - alpha) beta) / S * sum_i G(i) beta^(i-1)',
    _NRBP, at_param=None)

nNRBP = _diversity(
    'nNRBP', (ALPHA, BETA, DIV_REL),
    'NRBP divided by the NRBP of the (greedy) ideal ranking.',
    f'{_GAIN}; nNRBP = sum_i G(i) beta^(i-1) divided by the same sum over the ideal ranking of all the '
    f'judged documents (0 when the query has no relevant document)',
    _NRBP, notes=IDEAL_RANKING, at_param=None, bounds=None)

P_IA = _diversity(
    'P_IA', (DIV_CUTOFF, DIV_REL, JUDGED_ONLY),
    'Intent-aware precision: P@k per subtopic, averaged over the subtopics.',
    'P_IA@k = (1/S) sum_s |{i <= k: document i is relevant to s}| / k   (k, not the number retrieved, is '
    'the divisor)',
    _IA)

AP_IA = _diversity(
    'AP_IA', (DIV_REL, JUDGED_ONLY),
    'Intent-aware average precision: AP per subtopic, averaged over the subtopics.',
    'AP_IA = (1/S) sum_s AP_s, AP_s = (1/R_s) sum over the ranks i of documents relevant to s of '
    '|{j <= i: document j is relevant to s}| / i, R_s = the documents relevant to s in the qrels',
    _IA, at_param=None, aliases=['MAP_IA'])

StRecall = _diversity(
    'StRecall', (DIV_CUTOFF, DIV_REL),
    'Subtopic recall: the fraction of the subtopics covered by the top k documents.',
    'StRecall@k = |{s: a document relevant to s is in the top k}| / S',
    'C. X. Zhai, W. W. Cohen and J. Lafferty. Beyond Independent Relevance: Methods and Evaluation Metrics '
    'for Subtopic Retrieval. SIGIR 2003.')
