"""The C/W/L family (Moffat et al.; Azzopardi, Thomas and Moffat, cwl_eval, SIGIR 2019).

A C/W/L measure is a user model: C(i), the probability that a user who has
examined rank i goes on to rank i+1, defines the weight of each rank
W(i) = prod_{j<i} C(j) / sum_k prod_{j<k} C(j), and the measure is the
expected rate of gain EU = sum_i W(i) * g(i).  The definitions below give
each measure's C(i); the conventions all of them share (gain scaling, the
1000-rank depth, unjudged documents) are those of cwl_eval 1.0.12 as
ir_measures calls it, and are stated in :data:`CWL_CONVENTIONS`.

cwl_eval's P@k, RR and AP are irmetrics' ``P@k``, ``RR@1000`` and
``AP(divisor='num_rel_ret')@1000`` (see :mod:`.ap`).
"""
from collections.abc import Iterable, Mapping
from typing import Any

from ..algebra.measure import Measure, MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, P_PERSISTENCE, REQUIRED, Param
from ..constraints import Choice, Float, Int
from ..errors import MeasureError

#: Depth to which cwl_eval evaluates every ranking (its ``max_n`` / ``--max_depth`` default).
CWL_DEPTH = 1000

T = Param('T', Float(0, low_open=True), 1.0,
          'total gain the user wants (in scaled gain units, so T=1 is one fully relevant document)')
MIN_REL = Param('min_rel', Int(minimum=0), 0,
                'grade that gains 0; lower grades (and negative ones) gain 0 too')
MAX_REL = Param('max_rel', Int(minimum=1), REQUIRED,
                'grade that gains 1 (the top of the grading scale); higher grades gain 1 too. '
                'Must be greater than min_rel')
SDCG_FORM = Param('dcg', Choice('log2'), 'log2',
                  "discount: 'log2' = 1 / log2(rank + 1) (the only form cwl_eval implements)")

_CITATION = ('L. Azzopardi, P. Thomas and A. Moffat. cwl_eval: An Evaluation Tool for Information '
             'Retrieval. SIGIR 2019; A. Moffat, P. Bailey, F. Scholer and P. Thomas. '
             'Incorporating User Expectations and Behavior into the Measurement of Search '
             'Effectiveness. ACM TOIS 35(3), 2017')

#: Conventions shared by the family (repeated in each definition's notes).
CWL_CONVENTIONS = (
    'As cwl_eval 1.0.12 computes it through ir_measures: the value is the expected rate of gain per '
    'document examined (cwl_eval\'s EU column, which ir_measures reports), not the expected total gain '
    '(ETU). Gains are scaled to [0, 1]: g = (min(max(grade, 0, min_rel), max_rel) - min_rel) / '
    '(max_rel - min_rel); documents absent from the qrels gain 0 (cwl_eval\'s lower bound). Every '
    'ranking is cut, or padded with zero-gain documents, to depth 1000 (cwl_eval\'s max_n), and the '
    'weights are normalised over those 1000 ranks, so documents below rank 1000 never count. '
    'cwl_eval itself keeps file order for tied scores and counts a duplicated docno twice. A document '
    'judged under several iterations (subtopics) takes its highest grade (ir_measures hands cwl_eval '
    'every qrels line, so there the last one wins).'
)


def _check_scale(params: Mapping[str, Any]) -> None:
    if 'max_rel' in params and params['max_rel'] <= params.get('min_rel', MIN_REL.default):
        raise MeasureError(f'max_rel ({params["max_rel"]}) must be greater than min_rel '
                           f'({params.get("min_rel", MIN_REL.default)})')


def _cwl(name: str, params: tuple[Param, ...], summary: str, continuation: str, citation: str, notes: str = '',
         at_param: str | None = 'cutoff', aliases: Iterable[str] = ()) -> Measure:
    return register(MeasureDef(
        name=name,
        params=params + (MIN_REL, MAX_REL),
        summary=summary,
        formula=f'{continuation}; W(i) = prod_{{j<i}} C(j) / sum_{{k=1..1000}} prod_{{j<k}} C(j); '
                f'{name} = sum_{{i=1..1000}} W(i) g(i), with g(i) the scaled gain at rank i',
        citation=f'{citation}; {_CITATION}.',
        notes=(notes + ' ' if notes else '') + CWL_CONVENTIONS,
        at_param=at_param,
        check=_check_scale,
    ), aliases=aliases)


BPM = _cwl(
    'BPM', (CUTOFF_REQUIRED, T),
    'Bejeweled Player Model (static): the user stops at rank k or once the gain collected reaches T.',
    'C(i) = 1 if i < k and sum_{j<=i} g(j) < T, else 0',
    'F. Zhang, Y. Liu, X. Li, M. Zhang, Y. Xu and S. Ma. Evaluating Web Search with a Bejeweled '
    'Player Model. SIGIR 2017',
    notes='The cost of each document is 1, so the cost budget K of the paper is the cutoff k.')

SDCG = _cwl(
    'SDCG', (CUTOFF_REQUIRED, SDCG_FORM),
    'Scaled DCG: DCG@k divided by the DCG of k documents of the highest grade.',
    'C(i) = log2(i + 1) / log2(i + 2) if i < k, else 0 (so W(i) is proportional to 1 / log2(i + 1))',
    'K. Järvelin and J. Kekäläinen. Cumulated Gain-Based Evaluation of IR Techniques. ACM TOIS 20(4), '
    '2002',
    notes='cwl_eval calls it NDCG-k; unlike nDCG it does not depend on the qrels beyond the gains of the '
          'retrieved documents (it assumes k fully relevant documents exist).')

_NERR_CITATION = ('L. Azzopardi, J. Mackenzie and A. Moffat. ERR is not C/W/L: Exploring the Relationship '
                  'Between Expected Reciprocal Rank and Other Metrics. ICTIR 2021')

NERR8 = _cwl(
    'NERR8', (CUTOFF_REQUIRED,),
    'Not (but nearly) ERR, equation 8: the user stops when satisfied (probability g) or at rank k.',
    'C(i) = 1 - g(i) if i < k, else 0', _NERR_CITATION)

NERR9 = _cwl(
    'NERR9', (CUTOFF_REQUIRED,),
    'Not (but nearly) ERR, equation 9: ERR\'s satisfaction model with a reciprocal-rank discount, '
    'truncated at rank k.',
    'C(i) = i / (i + 1) * (1 - g(i)) if i < k, else 0', _NERR_CITATION)

NERR10 = _cwl(
    'NERR10', (P_PERSISTENCE.with_default(0.9),),
    'Not (but nearly) ERR, equation 10: satisfaction-based stopping with RBP\'s persistence p.',
    'C(i) = p * (1 - g(i))', _NERR_CITATION, at_param=None)

NERR11 = _cwl(
    'NERR11', (T,),
    'Not (but nearly) ERR, equation 11: satisfaction-based stopping with INSQ\'s goal-driven patience.',
    'C(i) = ((i + 2T - 1) / (i + 2T))^2 * (1 - g(i))', _NERR_CITATION, at_param=None)

INST = _cwl(
    'INST', (T,),
    'INST: an adaptive user who expects to need T units of gain and grows less patient as gain accrues.',
    'C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2, with T_i = T - sum_{j<=i} g(j)',
    'A. Moffat, P. Bailey, F. Scholer and P. Thomas. INST: An Adaptive Metric for Information Retrieval '
    'Evaluation. ADCS 2015', at_param=None)

INSQ = _cwl(
    'INSQ', (T,),
    'INSQ: a user who expects to need T units of gain; the continuation does not depend on the gains.',
    'C(i) = ((i + 2T - 1) / (i + 2T))^2',
    'A. Moffat, F. Scholer and P. Thomas. Models and Metrics: IR Evaluation as a User Process. ADCS 2012',
    at_param=None)
