"""Interpolated precision at a recall level (trec_eval ``iprec_at_recall``)."""
from ..core.measure import MeasureDef, define
from ..core.params import JUDGED_ONLY, REL, REQUIRED, Float, Param

RECALL_LEVEL = Param('recall', Float(0, 1), REQUIRED, 'recall level in [0, 1], set with @ (IPrec@0.5)')

IPrec = define(MeasureDef(
    name='IPrec',
    params=(RECALL_LEVEL, REL, JUDGED_ONLY),
    at_param='recall',
    summary='Interpolated precision at a recall level: the highest precision at any rank whose '
            'recall reaches the level.',
    formula='IPrec@r = max{P@i : rel_i / R >= r} over ranks i (0 if no rank reaches recall r); '
            'the comparison uses trec_eval 9\'s rounding of r * R (see the conventions page)',
    citation='C. Buckley and E. M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and '
             'Evaluation in Information Retrieval, MIT Press, 2005.',
))
