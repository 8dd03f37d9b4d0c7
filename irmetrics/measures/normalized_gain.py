"""trec_eval's normalised gain G and binary gain binG (Buckley's experimental measures, 2008)."""
from collections.abc import Mapping
from typing import Any

from ..algebra.measure import MeasureDef, register
from ..algebra.params import GAINS, JUDGED_ONLY, NOT_PROVIDED, REL
from ..errors import MeasureError


def _check(params: Mapping[str, Any]) -> None:
    if 'rel' in params and 'gains' in params:
        raise MeasureError('G takes rel (binary gains) or gains (graded gains), not both')


G = register(MeasureDef(
    name='G',
    tie_order='monotone',
    params=(GAINS, REL.with_default(NOT_PROVIDED, 'binary gains: 1 for grades >= rel, else 0 (trec_eval binG); '
                                                  'without it the gains are graded'), JUDGED_ONLY),
    at_param=None,
    summary='Gain of each relevant document discounted by how far the ranking lags behind the ideal one '
            'when it is retrieved; a blend of AP and nDCG.',
    formula='G = (1 / sum_j g*_j) * sum over ranks i of g_i / log2(2 + C_i - S_i), with g_i the gain of the '
            'document at rank i, S_i = g_1 + ... + g_i the gain collected so far, g*_j the gains of the ideal '
            'ranking (the judged documents of positive gain, highest first, then 0) and C_i = sum_{j <= i} '
            'max(g*_j, 1); 0 when no judged document has a positive gain. Gains: the grade (or gains[grade]; '
            'negative grades and unjudged documents gain 0), or with rel, 1 for grade >= rel and 0 otherwise, '
            'where G is binG: the mean over the R relevant documents of 1 / log2(2 + the non-relevant '
            'documents ranked above it)',
    citation='C. Buckley. trec_eval 9.0 (2008), measures G and binG (experimental, undocumented in print).',
    notes='As trec_eval 10 computes G and binG. binG = G(rel=1) (G(rel=l) under trec_eval -l l).',
    check=_check,
), aliases={'binG': {'rel': 1}})
