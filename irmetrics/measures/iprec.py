"""Interpolated precision at a recall level (trec_eval ``iprec_at_recall``) and its average over
recall levels (trec_eval ``11pt_avg``)."""
import numpy as np

from ..algebra.measure import MeasureDef, register
from ..algebra.params import JUDGED_ONLY, REL, REQUIRED, Param
from ..constraints import Choice, Float, FloatList

RECALL_LEVEL = Param('recall', Float(0, 1), REQUIRED, 'recall level in [0, 1], set with @ (IPrec@0.5)')
ROUNDING = Param('rounding', Choice('trec_eval_9', 'trec_eval_10'), 'trec_eval_9',
                 "how a recall level r becomes a number of relevant documents c for R relevant documents: "
                 "'trec_eval_9': c = int(r * R + 0.9), as trec_eval 9 and pytrec_eval; 'trec_eval_10': "
                 "c = lround(r * R), r * R rounded half away from zero, as trec_eval 10")
ELEVEN_POINTS = tuple(i / 10 for i in range(11))
LEVELS = Param('levels', FloatList(0, 1), ELEVEN_POINTS,
               'the recall levels averaged over (default the 11 levels 0, 0.1, ..., 1)')

_INTERPOLATION = ('the level r is reached at the c-th relevant document retrieved (c from r and R by the '
                  'rounding parameter): IPrec@r = max{c\' / rank(c\') : c\' >= c}, the highest precision at or '
                  'below that document; 0 when fewer than c relevant documents are retrieved; for c <= 0 the '
                  'highest precision at any relevant document')
_CITATION = ('C. Buckley and E. M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and '
             'Evaluation in Information Retrieval, MIT Press, 2005.')

IPrec = register(MeasureDef(
    name='IPrec',
    tie_order='monotone',
    params=(RECALL_LEVEL, REL, JUDGED_ONLY, ROUNDING),
    at_param='recall',
    summary='Interpolated precision at a recall level: the highest precision at any rank whose '
            'recall reaches the level.',
    formula=f'IPrec@r = max{{P@i : rel_i / R >= r}} over ranks i (0 if no rank reaches recall r); precisely, '
            f'{_INTERPOLATION}',
    citation=_CITATION,
    notes="trec_eval 9 and 10 round r * R differently (see the conventions page): rounding='trec_eval_10' "
          'gives trec_eval 10\'s iprec_at_recall, the default gives pytrec_eval\'s. An empty ranking scores 0 '
          'at every level (trec_eval divides 0 by 0 there at levels with c = 0; irmetrics trec_eval prints '
          'that -nan as trec_eval does).',
))

IPrecAvg = register(MeasureDef(
    name='IPrecAvg',
    tie_order='monotone',
    params=(LEVELS, REL, JUDGED_ONLY, ROUNDING),
    at_param=None,
    summary='Interpolated precision averaged over recall levels: by default the classic 11-point average.',
    formula=f'IPrecAvg = (1/n) * sum over the n levels r of IPrec@r, where {_INTERPOLATION}',
    citation=_CITATION + ' G. Salton and M. J. McGill. Introduction to Modern Information Retrieval. '
                         'McGraw-Hill, 1983 (the 11-point average).',
    notes="IPrecAvg(rounding='trec_eval_10') is trec_eval 10's 11pt_avg. A level given twice counts twice. "
          'trec_eval averages its levels in the order given, and for levels not in increasing order computes '
          'something else than this average (see the conventions page); irmetrics sorts them.',
))


def recall_counts(level: float, num_rel: np.ndarray, rounding: str) -> np.ndarray:
    """The number of relevant documents c that reaches recall ``level`` for each R in ``num_rel``.

    trec_eval 9: ``(long)(level * R + 0.9)``; trec_eval 10: ``lround(level * R)``, half away from zero
    (computed exactly: ``level * R - floor(level * R)`` has no rounding error).
    """
    x = level * np.asarray(num_rel, dtype=np.float64)
    if rounding == 'trec_eval_9':
        return (x + 0.9).astype(np.int64)
    whole = np.floor(x)
    return (whole + (x - whole >= 0.5)).astype(np.int64)
