"""Judgment rate: how much of the top of a ranking the qrels cover."""
from ..core.measure import MeasureDef, define
from ..core.params import CUTOFF

Judged = define(MeasureDef(
    name='Judged',
    params=(CUTOFF,),
    summary='Fraction of the top k retrieved documents that have a relevance judgment.',
    formula='Judged@k = |{documents in the top k that appear in the qrels}| / min(k, n), n the number '
            'retrieved (all retrieved without a cutoff)',
    citation='S. MacAvaney, C. Macdonald and I. Ounis. Streamlining Evaluation with ir-measures. ECIR 2022 '
             '(judged@k, from OpenNIR).',
    notes='A document is judged when the qrels list it, with any grade, negative grades included. The '
          'divisor is min(k, n), as in ir_measures\' judged provider: a ranking shorter than k is not '
          'padded with unjudged documents (P-style measures would divide by k).',
))
