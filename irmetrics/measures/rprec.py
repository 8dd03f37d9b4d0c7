"""Precision at R, the number of relevant documents, or at a multiple of R (trec_eval ``Rprec``,
``Rprec_mult``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import JUDGED_ONLY, REL, Param
from ..constraints import Float

Rprec = register(MeasureDef(
    name='Rprec',
    tie_order='expected',
    params=(REL, JUDGED_ONLY, Param('mult', Float(0), 1.0,
                                    'measure at rank c = int(mult * R + 0.9) instead of R (trec_eval Rprec_mult)')),
    at_param=None,
    summary='Precision at rank R, where R is the number of relevant documents of the query.',
    formula='Rprec = |{relevant documents in the top R}| / R (0 when R = 0); equal to recall at R. '
            'With mult: P@c for c = int(mult * R + 0.9), the missing ranks counting as non-relevant '
            '(0 when c = 0)',
    citation='C. Buckley and E. M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and '
             'Evaluation in Information Retrieval, MIT Press, 2005.',
    notes="Rprec(mult=2.0) is trec_eval's Rprec_mult_2.00, which rounds mult * R as trec_eval 9 rounds "
          'recall levels (adding 0.9), in trec_eval 10 too. mult=1 is Rprec itself.',
), aliases=['RPrec'])
