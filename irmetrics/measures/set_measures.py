"""Measures of the unranked set of retrieved documents (trec_eval ``set_*``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import JUDGED_ONLY, REL, Param
from ..constraints import Bool, Float

_SET_CITATION = 'C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979.'

SetP = register(MeasureDef(
    name='SetP',
    monotone=True,
    tie_order='irrelevant',
    params=(REL, Param('relative', Bool(), False,
                       'divide by min(retrieved, R) instead of the number retrieved (trec_eval set_relative_P)'),
            JUDGED_ONLY),
    at_param=None,
    summary='Precision of the whole retrieved set.',
    formula='SetP = relret / ret; with relative=True, relret / min(ret, R) (0 when the divisor is 0)',
    citation=_SET_CITATION,
), aliases={'SetRelP': {'relative': True}})

SetR = register(MeasureDef(
    name='SetR',
    tie_order='irrelevant',
    params=(REL,),
    at_param=None,
    summary='Recall of the whole retrieved set.',
    formula='SetR = relret / R (0 when R = 0)',
    citation=_SET_CITATION,
))

SetF = register(MeasureDef(
    name='SetF',
    tie_order='irrelevant',
    params=(REL, Param('beta', Float(0, low_open=False), 1.0,
                       'weight of recall relative to precision in the harmonic mean'),
            JUDGED_ONLY),
    at_param=None,
    summary='Weighted harmonic mean of SetP and SetR.',
    formula='SetF = (1 + beta^2) * SetP * SetR / (beta^2 * SetP + SetR) (0 when SetP + SetR = 0)',
    citation=_SET_CITATION,
))

SetAP = register(MeasureDef(
    name='SetAP',
    tie_order='irrelevant',
    params=(REL, JUDGED_ONLY),
    at_param=None,
    summary='Unranked average precision: SetP times SetR.',
    formula='SetAP = SetP * SetR = relret^2 / (ret * R)',
    citation=_SET_CITATION,
))
