"""F1 at a rank cutoff: harmonic mean of P@k and R@k (ranx's ``f1``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF, JUDGED_ONLY, REL

F1 = register(MeasureDef(
    name='F1',
    tie_order='expected',
    params=(CUTOFF, REL, JUDGED_ONLY),
    summary='Harmonic mean of precision and recall at k (of the whole ranking without a cutoff).',
    formula='F1@k = 2 P@k R@k / (P@k + R@k), with P@k = hits@k / k (hits / n without a cutoff, n the '
            'number retrieved) and R@k = hits@k / R; 0 when hits@k = 0',
    citation='C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979; as in ranx (E. Bassani, '
             'ECIR 2022).',
    notes='Without a cutoff F1 equals SetF (beta = 1). As P@k, the divisor is k even when fewer than k '
          'documents are retrieved (ranx does the same).',
))
