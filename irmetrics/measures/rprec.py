"""Precision at R, the number of relevant documents (trec_eval ``Rprec``)."""
from ..core.measure import MeasureDef, define
from ..core.params import JUDGED_ONLY, REL

Rprec = define(MeasureDef(
    name='Rprec',
    params=(REL, JUDGED_ONLY),
    at_param=None,
    summary='Precision at rank R, where R is the number of relevant documents of the query.',
    formula='Rprec = |{relevant documents in the top R}| / R (0 when R = 0); equal to recall at R',
    citation='C. Buckley and E. M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and '
             'Evaluation in Information Retrieval, MIT Press, 2005.',
), aliases=['RPrec'])
