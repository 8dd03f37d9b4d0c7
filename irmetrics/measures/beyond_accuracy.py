"""Beyond accuracy: what a whole run recommends across its users (scope ``'run'``: one value per run,
not a mean over queries).

Both read the top k of the ranking of every query of the qrels that the run holds, judged documents or
not, and the size of the catalogue the items come from (``catalogue``), so that items never recommended
count.
"""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, REQUIRED, Param
from ..constraints import Int

CATALOGUE = Param('catalogue', Int(minimum=1), REQUIRED,
                  'number of items in the catalogue the run recommends from (required)')

Coverage = register(MeasureDef(
    name='Coverage',
    params=(CUTOFF_REQUIRED, CATALOGUE),
    summary='Catalogue coverage: the share of the catalogue recommended in the top k of some user.',
    formula='Coverage@k = |union over users u of top_k(u)| / catalogue',
    citation='M. Ge, C. Delgado-Battenfeld, D. Jannach. Beyond accuracy: evaluating recommender systems by '
             'coverage and serendipity. RecSys 2010.',
    notes='One value for the whole run (scope run), computed over the qrels queries the run holds; a run '
          'that recommends more distinct items than the catalogue holds is an error.',
    scope='run',
))

Gini = register(MeasureDef(
    name='Gini',
    params=(CUTOFF_REQUIRED, CATALOGUE),
    summary='Gini index of item exposure: how unequally the top-k slots are spread over the catalogue.',
    formula='with c_1 <= ... <= c_n the number of top-k slots of each of the n = catalogue items (0 for items '
            'never recommended): Gini@k = sum_i (2i - n - 1) c_i / (n sum_i c_i); 0 when every item is '
            'recommended equally often, towards 1 when a few items take every slot',
    citation='C. Gini. Variabilità e mutabilità. 1912; as an exposure measure of recommender systems: '
             'D. Fleder, K. Hosanagar. Blockbuster culture\'s next rise or fall: the impact of recommender '
             'systems on sales diversity. Management Science 55(5), 2009.',
    notes='One value for the whole run (scope run); 0 for a run that recommends nothing. Lower is more even.',
    higher_is_better=False,
    scope='run',
))
