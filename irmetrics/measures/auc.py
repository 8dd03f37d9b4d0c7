"""Area under the ROC curve of a ranking, relevant against judged non-relevant documents."""
from ..algebra.measure import COMPUTED, MeasureDef, register
from ..algebra.params import CUTOFF, REL

AUC = register(MeasureDef(
    name='AUC',
    tie_order='monotone',
    params=(CUTOFF, REL),
    summary='Probability that a relevant document is ranked above a judged non-relevant one (ROC-AUC).',
    formula='AUC@k = (1 / (R N)) * sum over pairs (r, n) of [r above n] + [r, n tied] / 2, R relevant '
            '(grade >= rel) and N judged non-relevant (0 <= grade < rel) documents of the qrels; the ranking '
            'is the judged documents among the top k retrieved, in rank order, followed by the other judged '
            'documents, tied. '
            'Undefined (left out) when R = 0 or N = 0.',
    citation='T. Fawcett. An Introduction to ROC Analysis. Pattern Recognition Letters 27(8), 2006; '
             'D. J. Hand and R. J. Till. A Simple Generalisation of the Area Under the ROC Curve. Machine '
             'Learning 45, 2001.',
    notes='Unjudged documents (absent from the qrels, or judged with a negative grade) are ignored, as '
          'bpref ignores them. Judged documents the run does not retrieve (in the top k) are all tied below '
          'the retrieved ones: each pair of them counts 1/2, the value of a random order, so a query missing '
          'from the run scores 0.5. irmetrics.roc_curve returns the points of the curve whose area this is. '
          'Without a cutoff, AUC = 1 - LAG(judged_only=True) / N.',
    missing_value=COMPUTED,
    skips_undefined=True,
))
