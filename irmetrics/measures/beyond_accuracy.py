"""Beyond accuracy: what a run recommends, judged or not.

Coverage and Gini are measures of a whole run (scope ``'run'``: one value per run, not a mean over
queries): both read the top k of the ranking of every query of the qrels that the run holds, and the
size of the catalogue the items come from (``catalogue``), so that items never recommended count.

ARP, Novelty, ILD, TailShare, HeadRecall and TailRecall are per user (query) and read what is known
of the items beyond the judgments (``items``: popularity, features), given to the evaluation as
:class:`irmetrics.Items`.
"""
from ..algebra.measure import COMPUTED, Measure, MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, REL, REQUIRED, Param
from ..constraints import Choice, Float, Int

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

# --- popularity bias, novelty and diversity: per user, from the top k and what is known of the items ----

HEAD = Param('head', Float(0.0, 1.0, low_open=True, high_open=True), 0.2,
             'share of the items the popularity lists (popularity 0 included) that form the head: the most '
             'popular ones (the rest, and every item the popularity leaves out, is the tail)')

ARP = register(MeasureDef(
    name='ARP',
    params=(CUTOFF_REQUIRED,),
    summary='Average recommendation popularity: the mean popularity of the items a user is recommended.',
    formula='ARP@k(u) = (1 / |L|) sum_{i in L} popularity(i), L the top k of u (|L| <= k); items without a '
            'popularity count 0',
    citation='H. Yin, B. Cui, J. Li, J. Yao, C. Chen. Challenging the long tail recommendation. VLDB 2012; '
             'H. Abdollahpouri, R. Burke, B. Mobasher. Managing popularity bias in recommender systems with '
             'personalized re-ranking. FLAIRS 2019.',
    notes='Needs item popularity (items=irmetrics.Items(popularity=...)). 0 for an empty ranking. Lower '
          'recommends less popular items.',
    bounds=None,
    higher_is_better=False,
    items=('popularity',),
))

UNSEEN = Param('unseen', Choice('error', 'once'), 'error',
               "a recommended item without interactions: 'error' (its self-information is infinite), or 'once' "
               "(counted as if one user had interacted with it: log2(users))")

Novelty = register(MeasureDef(
    name='Novelty',
    params=(CUTOFF_REQUIRED, UNSEEN),
    summary='Novelty: the mean self-information of the recommended items (how unlikely a user already knows '
            'them).',
    formula='Novelty@k(u) = (1 / |L|) sum_{i in L} -log2(popularity(i) / users), L the top k of u',
    citation='T. Zhou, Z. Kuscsik, J.-G. Liu, M. Medo, J. R. Wakeling, Y.-C. Zhang. Solving the apparent '
             'diversity-accuracy dilemma of recommender systems. PNAS 107(10), 2010.',
    notes='Needs item popularity and the number of users it comes from (Items(popularity=..., users=...)). A '
          "recommended item of popularity 0 has no finite self-information: an error, unless unseen='once' counts "
          'it as seen once. 0 for an empty ranking.',
    bounds=None,
    items=('popularity', 'users'),
))

ILD = register(MeasureDef(
    name='ILD',
    params=(CUTOFF_REQUIRED,),
    summary='Intra-list diversity: the mean distance between two items recommended to the same user.',
    formula='ILD@k(u) = (2 / (|L| (|L| - 1))) sum_{i < j in L} d(i, j), L the top k of u; d the cosine distance '
            '1 - f_i.f_j / (|f_i| |f_j|) of the item features, or the given distances',
    citation='C.-N. Ziegler, S. M. McNee, J. A. Konstan, G. Lausen. Improving recommendation lists through topic '
             'diversification. WWW 2005; B. Smyth, P. McClave. Similarity vs. diversity. ICCBR 2001.',
    notes='Needs item features or distances (Items(features=...) or Items(distances=...)); a recommended item '
          'without them is an error. Undefined (left out of the mean) for a ranking of fewer than two items, '
          'a user missing from the run too.',
    bounds=None,
    skips_undefined=True,
    missing_value=COMPUTED,
    items=('features',),
))

TailShare = register(MeasureDef(
    name='TailShare',
    params=(CUTOFF_REQUIRED, HEAD),
    summary='Share of long-tail items among the recommended ones (APLT).',
    formula='TailShare@k(u) = |L ∩ tail| / |L|, L the top k of u; the head is the ceil(head * n) most popular of '
            'the n items the popularity lists, ties by item id descending as text (byte-wise: of items equally '
            'popular, the greater id, \'9\' before \'10\', is in the head first); the tail is every other item',
    citation='H. Abdollahpouri, R. Burke, B. Mobasher. Controlling popularity bias in learning-to-rank '
             'recommendation. RecSys 2017.',
    notes='Needs item popularity. An item listed with popularity 0 is one of the n and is in the head when fewer '
          'than ceil(head * n) items are more popular (by id among the ties); an item the popularity leaves out '
          'is not one of the n and is always in the tail. 0 for an empty ranking.',
    items=('popularity',),
))

def _split_recall(name: str, side: str) -> Measure:
    """The recall of the relevant items of one side (head or tail) of the popularity split."""
    return register(MeasureDef(
        name=name,
        params=(CUTOFF_REQUIRED, HEAD, REL),
        summary=f'Recall of the relevant {side} items: the popularity-bias split of recall, {side} side.',
        formula=f'{name}@k(u) = |top_k(u) ∩ R_u ∩ {side}| / |R_u ∩ {side}|, R_u the items judged >= rel',
        citation='H. Abdollahpouri, R. Burke, B. Mobasher. Managing popularity bias in recommender systems with '
                 'personalized re-ranking. FLAIRS 2019 (accuracy split by popularity).',
        notes=f'Needs item popularity; head and tail as for TailShare (an item listed with popularity 0 counts '
              f'towards the split, an item the popularity leaves out is in the tail). Undefined (left out of the '
              f'mean) for a user without a relevant {side} item; 0 for a user with one who is missing from the run.',
        skips_undefined=True,
        missing_value=COMPUTED,
        items=('popularity',),
    ))


HeadRecall = _split_recall('HeadRecall', 'head')
TailRecall = _split_recall('TailRecall', 'tail')
