"""Rank-biased precision and its residual (Moffat & Zobel 2008)."""
from collections.abc import Mapping
from typing import Any

from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import CUTOFF, GAINS, JUDGED_ONLY, NOT_PROVIDED, P_PERSISTENCE, REL, Param
from ..constraints import Choice, IntOrChoice
from ..errors import MeasureError

_CITATION = ('A. Moffat and J. Zobel. Rank-Biased Precision for Measurement of Retrieval Effectiveness. '
             'ACM TOIS 27(1), 2008.')

RBP_REL = REL.with_default(NOT_PROVIDED, 'binary gains: 1 for grades >= rel, else 0; without it the gains '
                                         'are graded')
RBP_MAX_REL = Param('max_rel', IntOrChoice(1, 'query'), NOT_PROVIDED,
                    "graded gains scaled to [0, 1]: min(gain, max_rel) / max_rel; 'query': each query's gains "
                    "scaled by their own range, as trec_eval 10's rbp (see the formula); without it the graded "
                    'gain is the grade itself')


def _check(params: Mapping[str, Any]) -> None:
    if 'rel' in params and ('max_rel' in params or 'gains' in params):
        raise MeasureError('RBP takes rel (binary gains) or max_rel and gains (graded gains), not both')


RBP = register(MeasureDef(
    name='RBP',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF, P_PERSISTENCE, RBP_REL, RBP_MAX_REL, GAINS, JUDGED_ONLY),
    summary='Expected rate of gain of a user who goes on to the next rank with probability p.',
    formula='RBP@k = (1 - p) * sum_{i=1..min(k, n)} gain_i * p^(i-1); gain_i = 1 if grade_i >= rel else 0 '
            '(binary, with rel); g_i = gains[grade_i] or grade_i (graded, without rel); min(g_i, max_rel) / '
            'max_rel (with max_rel=m); with max_rel=\'query\', (g_i - lo) / (hi - lo) when hi > 1, else '
            'g_i, where lo and hi are the least and greatest gain of the grades 0 to the query\'s highest '
            'grade and of the grades gains lists. Negative grades and unjudged documents gain 0.',
    citation=_CITATION,
    notes='Graded RBP uses the raw grades by default, as trectools (and ir_measures through it) and ranx '
          'do, so values may exceed 1. RBP(max_rel=m) scales gains to [0, 1] (cwl_eval\'s graded '
          'convention); RBP(max_rel=\'query\', p=0.9) is trec_eval 10\'s rbp, which rescales each query by '
          'its own gains: the grade over the query\'s highest grade, when that is above 1. Binary RBP(rel=r) is '
          'cwl_eval\'s binary RBP. The residual is the separate measure RBPResidual.',
    bounds=None,
    check=_check,
))

RBPResidual = register(MeasureDef(
    name='RBPResidual',
    tie_order='monotone',
    params=(CUTOFF, P_PERSISTENCE, JUDGED_ONLY,
            Param('tail', Choice('always', 'if_unjudged'), 'always',
                  "'always': the residual always counts the ranks beyond the ranking; 'if_unjudged': it is 0 "
                  "when the ranking holds no unjudged document, as trec_eval 10's rbp_resid")),
    summary='The RBP weight of the ranks whose gain is unknown: unjudged documents and the ranks beyond '
            'the ranking (or the cutoff).',
    formula='RBPResidual@k = (1 - p) * sum_{i <= d, document i unjudged} p^(i-1) + p^d, d = min(k, n); '
            'unjudged = absent from the qrels or judged with a negative grade. RBP lies in '
            '[RBP, RBP + g_max * RBPResidual], g_max the highest gain (1 for binary or max_rel-scaled RBP).',
    citation=_CITATION,
    notes='A separate measure, so that it is requested, reported and aggregated like any other, with the '
          'same p and cutoff as the RBP it bounds. It does not depend on the gains. A query missing from '
          'the run has residual 1 (nothing is known). trec_eval 10\'s rbp_resid, '
          'RBPResidual(tail=\'if_unjudged\', p=0.9), reports 0 when no retrieved document is unjudged, even '
          'though the tail p^n is unknown (and so 0 for a query missing from the run, or under -J). '
          'trectools\' residual adds p^depth with depth its cutoff parameter (1000 by default), not the '
          'ranking length.',
    missing_value=COMPUTED,
    higher_is_better=False,
))
