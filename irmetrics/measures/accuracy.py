"""Accuracy: how often the relevant retrieved documents precede the non-relevant ones."""
from ..algebra.measure import UNDEFINED, MeasureDef, register
from ..algebra.params import CUTOFF, REL

Accuracy = register(MeasureDef(
    name='Accuracy',
    params=(CUTOFF, REL),
    summary='Probability that a relevant retrieved document is ranked above a non-relevant retrieved one '
            '(a diagnostic, e.g. to compare train and test accuracy).',
    formula='Accuracy@k = 1 - sum_{relevant d in top k} nonrel_above(d) / (m * N), with m the relevant and '
            'N the non-relevant (unjudged included) documents in the top k; 1 when N = 0; undefined when '
            'm = 0',
    citation='ir_measures\' Accuracy measure and accuracy provider (ir_measures 0.3); S. MacAvaney, '
             'C. Macdonald and I. Ounis. Streamlining Evaluation with ir-measures. ECIR 2022.',
    notes='Only retrieved documents count. Queries without a relevant document in the top k (and queries '
          'missing from the run) are undefined and left out of the per-query values and of the mean, as '
          'ir_measures\' accuracy provider does. When every document of the top k is relevant, the reference '
          'divides by zero; irmetrics gives 1 (no pair is misordered).',
    missing_value=UNDEFINED,
    skips_undefined=True,
))
