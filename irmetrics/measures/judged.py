"""Judgment rate: how much of the top of a ranking the qrels cover (Judged), or leave uncovered (Unjudged,
trec_eval ``unj``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF, CUTOFF_REQUIRED, JUDGED_ONLY

Judged = register(MeasureDef(
    name='Judged',
    tie_order='expected',
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

Unjudged = register(MeasureDef(
    name='Unjudged',
    tie_order='expected',
    params=(CUTOFF_REQUIRED, JUDGED_ONLY),
    summary='Fraction of the top k that the qrels leave unjudged: a warning sign for a run the pool did '
            'not cover (trec_eval unj).',
    formula='Unjudged@k = |{documents in the top k absent from the qrels or judged with a negative grade}| / k '
            '(k, not the number retrieved, is the divisor)',
    citation='trec_eval 10.0, measure unj (github.com/usnistgov/trec_eval).',
    notes='Not 1 - Judged@k: a negative grade counts as unjudged here (trec_eval\'s pooled-but-unjudged), as '
          'judged in Judged; and the divisor is k, a short ranking being padded with judged documents, where '
          'Judged divides by min(k, n). With judged_only=True (trec_eval -J) the ranking holds no unjudged '
          'document: 0.',
    higher_is_better=False,
))
