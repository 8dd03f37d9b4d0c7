"""Catalogue coverage and the Gini index of exposure (irmetrics/measures/beyond_accuracy.py,
providers/native/beyond_accuracy.py): one value per run, hand-computed from the formulas."""
import numpy as np
import pytest
from cli_support import irmetrics

import irmetrics as irm
from irmetrics import Coverage, Gini
from irmetrics.errors import MeasureError

QRELS = {'u1': {'a': 1}, 'u2': {'b': 1}, 'u3': {'c': 1}}
# u3 is missing from the run, u4 is not in the qrels (its items do not count)
RUN = {'u1': {'a': 3.0, 'b': 2.0, 'c': 1.0}, 'u2': {'a': 3.0, 'd': 2.0}, 'u4': {'z': 1.0}}


def gini(slots, n):
    x = np.sort(np.concatenate((np.zeros(n - len(slots)), slots)))
    return sum((2 * i - n - 1) * v for i, v in enumerate(x, 1)) / (n * x.sum())


def test_hand_computed_values():
    got = irm.calc_aggregate([Coverage(catalogue=5) @ 2, Gini(catalogue=5) @ 2, Coverage(catalogue=4) @ 1], QRELS, RUN)
    # top 2: u1 a, b; u2 a, d -> a: 2 slots, b: 1, d: 1 of 5 items
    assert got[Coverage(catalogue=5) @ 2] == 3 / 5
    assert got[Gini(catalogue=5) @ 2] == pytest.approx(gini(np.array([2.0, 1.0, 1.0]), 5))
    assert got[Gini(catalogue=5) @ 2] == pytest.approx((-4 * 0 - 2 * 0 + 0 * 1 + 2 * 1 + 4 * 2) / (5 * 4))
    assert got[Coverage(catalogue=4) @ 1] == 1 / 4                       # top 1: a for both users


def test_equal_exposure_is_zero_and_nothing_recommended_is_zero():
    run = {'u1': {'a': 1.0}, 'u2': {'b': 1.0}}
    assert irm.calc_aggregate([Gini(catalogue=2) @ 1], QRELS, run)[Gini(catalogue=2) @ 1] == 0.0
    assert irm.calc_aggregate([Gini(catalogue=2) @ 1], QRELS, {'u4': {'a': 1.0}})[Gini(catalogue=2) @ 1] == 0.0


def test_the_order_of_the_run_lines_changes_nothing():
    shuffled = {q: dict(reversed(list(docs.items()))) for q, docs in reversed(list(RUN.items()))}
    measures = [Coverage(catalogue=6) @ 2, Gini(catalogue=6) @ 3]
    assert irm.calc_aggregate(measures, QRELS, shuffled) == irm.calc_aggregate(measures, QRELS, RUN)


def test_parameters_and_the_catalogue_are_checked():
    with pytest.raises(MeasureError, match='cutoff'):
        irm.parse_measure('Coverage(catalogue=5)')
    with pytest.raises(MeasureError, match='catalogue'):
        irm.parse_measure('Coverage@5')
    with pytest.raises(MeasureError, match='recommends 3 distinct items, more than the catalogue of 2'):
        irm.calc_aggregate([Coverage(catalogue=2) @ 2], QRELS, RUN)
    with pytest.raises(MeasureError, match='whole run'):
        irm.compare([Coverage(catalogue=5) @ 2], QRELS, {'a': RUN, 'b': RUN})


def test_the_command_line_prints_the_run_value(tmp_path):
    (tmp_path / 'qrels').write_text('u1 0 a 1\nu2 0 b 1\nu3 0 c 1\n')
    (tmp_path / 'run').write_text('u1 Q0 a 1 3 r\nu1 Q0 b 2 2 r\nu1 Q0 c 3 1 r\nu2 Q0 a 1 3 r\nu2 Q0 d 2 2 r\n')
    shown = irmetrics('qrels', 'run', 'AP', 'Coverage(catalogue=5)@2', '-f', 'tsv', cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[-1] == 'Coverage(catalogue=5)@2\t0.6000'


# --- popularity, novelty, diversity and the head/tail split: per user, from Items ---------------------------

TOP = np.array([[0, 1, 2], [3, 0, 5]])                         # users 0 and 1, items in rank order
GRADES = np.zeros((2, 6), dtype=int)
GRADES[0, [1, 4]] = [1, 2]                                      # user 0: items 1 and 4 relevant (both tail)
GRADES[1, [3, 5]] = [1, 1]                                      # user 1: item 3 (head) and item 5 (tail)
POPULARITY = np.array([10, 5, 1, 8, 2, 4])                      # head (20% of 6 -> 2 items): items 0 and 3
FEATURES = np.array([[1, 0], [0, 1], [1, 1], [1, 0], [-1, 0], [0, 2]], dtype=float)
ITEMS = irm.Items(POPULARITY, users=20, features=FEATURES)


def per_user(name, items=ITEMS, run=TOP):
    results = irm.calc([name], GRADES, run, items=items)
    return {q: float(v) for q, v in zip(results.query_ids, results.values[:, 0], strict=True)}, \
        results.aggregated[irm.parse_measure(name)]


def test_popularity_and_novelty_hand_computed():
    assert per_user('ARP@3') == ({'0': 16 / 3, '1': 22 / 3}, pytest.approx(19 / 3))
    users, mean = per_user('Novelty@3')
    assert users['0'] == pytest.approx((1 + 2 + np.log2(20)) / 3)                # -log2(10/20), (5/20), (1/20)
    assert users['1'] == pytest.approx((np.log2(20 / 8) + 1 + np.log2(5)) / 3)
    assert mean == pytest.approx((users['0'] + users['1']) / 2)
    assert per_user('ARP@1')[0] == {'0': 10.0, '1': 8.0}


def test_intra_list_diversity_hand_computed_from_features_and_from_distances():
    users, mean = per_user('ILD@3')
    assert users['0'] == pytest.approx((1 + 2 * (1 - 1 / np.sqrt(2))) / 3)     # (1,0) (0,1) (1,1): 1, 1-1/sqrt2 twice
    assert users['1'] == pytest.approx(2 / 3)                                   # (1,0) (1,0) (0,2): 0, 1, 1
    unit = FEATURES / np.linalg.norm(FEATURES, axis=1, keepdims=True)
    distances = irm.Items(distances=1 - unit @ unit.T)
    assert per_user('ILD@3', distances)[0] == pytest.approx(users)
    one = per_user('ILD@1')                                                     # a single item: undefined
    assert np.isnan(list(one[0].values())).all() and np.isnan(one[1])


def test_head_and_tail_hand_computed():
    assert per_user('TailShare@3')[0] == pytest.approx({'0': 2 / 3, '1': 1 / 3})
    users, mean = per_user('HeadRecall@3')
    assert np.isnan(users['0']) and users['1'] == 1.0 and mean == 1.0         # user 0 has no relevant head item
    assert per_user('TailRecall@3') == ({'0': 0.5, '1': 1.0}, 0.75)
    assert per_user('TailRecall(head=0.5)@3')[0]['1'] == 1.0                   # head: items 0, 3, 1 -> tail 5
    assert per_user('HeadRecall(head=0.5)@3')[0]['0'] == 1.0                   # user 0's item 1 is now head


def test_an_item_listed_with_popularity_0_counts_in_the_split_an_item_left_out_is_tail():
    qrels = {'u': {'2': 1, '6': 1}}
    run = {'u': {'5': 3.0, '2': 2.0, '6': 1.0}}
    listed = {'1': 3, '2': 0, '3': 0, '4': 0, '5': 0}
    # n = 5 listed items, head=0.5 -> 3: item 1, then two of the four of popularity 0 by id descending: 5, 4
    measures = ['TailShare(head=0.5)@3', 'HeadRecall(head=0.5)@3', 'TailRecall(head=0.5)@3', 'ARP@3']
    got = irm.calc_aggregate(measures, qrels, run, items=irm.Items(listed))
    assert got['TailShare(head=0.5)@3'] == 2 / 3                     # 5 is head (popularity 0), 2 and 6 tail
    assert np.isnan(got['HeadRecall(head=0.5)@3']) and got['TailRecall(head=0.5)@3'] == 1.0
    # item 6 listed with popularity 0: n = 6, the head is 1, 6, 5 (as text '6' > '5' > '4'), so 6 leaves the tail
    got = irm.calc_aggregate(measures, qrels, run, items=irm.Items({**listed, '6': 0}))
    assert got['TailShare(head=0.5)@3'] == 1 / 3
    assert got['HeadRecall(head=0.5)@3'] == 1.0 and got['TailRecall(head=0.5)@3'] == 1.0
    assert got['ARP@3'] == 0.0                                       # ARP reads both as 0


def test_tail_share_breaks_ties_by_item_id_descending_as_text():
    # items 9 and 10 equally popular, one head place: '9' > '10' as text, so 9 is head and 10 tail
    items = irm.Items({'9': 4, '10': 4})
    qrels = {'a': {'9': 1}, 'b': {'10': 1}}
    run = {'a': {'9': 1.0}, 'b': {'10': 1.0}}
    got = irm.calc(['TailShare(head=0.5)@1'], qrels, run, items=items)
    assert dict(zip(got.query_ids, got.values[:, 0].tolist(), strict=True)) == {'a': 0.0, 'b': 1.0}
    text = irmetrics('measures', 'TailShare').stdout
    assert 'ties by item id descending as text' in ' '.join(text.split())


def brute_force(name, k, top, grades, popularity, users, features):
    """Each measure of one user straight from its formula, item by item (the reference of the kernels)."""
    n = len(popularity)
    by_id = sorted(range(n), key=str, reverse=True)                   # ties: id descending as text
    head = set(sorted(by_id, key=lambda i: -popularity[i])[:int(np.ceil(0.2 * n))])
    out = {}
    for u in range(len(top)):
        if not grades[u].any():
            continue
        ranked = list(top[u][:k])
        relevant = set(np.flatnonzero(grades[u] >= 1).tolist())
        if name == 'ARP':
            out[u] = np.mean([popularity[i] for i in ranked])
        elif name == 'Novelty':
            out[u] = np.mean([-np.log2(popularity[i] / users) for i in ranked])
        elif name == 'ILD':
            pairs = [(a, b) for x, a in enumerate(ranked) for b in ranked[x + 1:]]
            cos = [features[a] @ features[b] / np.linalg.norm(features[a]) / np.linalg.norm(features[b])
                   for a, b in pairs]
            out[u] = np.mean([1 - c for c in cos]) if pairs else np.nan
        elif name == 'TailShare':
            out[u] = np.mean([i not in head for i in ranked])
        else:
            group = {i for i in relevant if (i in head) == (name == 'HeadRecall')}
            out[u] = len(group & set(ranked)) / len(group) if group else np.nan
    return out


@pytest.mark.parametrize('name', ['ARP', 'Novelty', 'ILD', 'TailShare', 'HeadRecall', 'TailRecall'])
@pytest.mark.parametrize('seed', range(3))
def test_the_kernels_agree_with_the_formulas_item_by_item(name, seed):
    rng = np.random.default_rng(seed)
    catalogue, k = 30, 7
    top = np.stack([rng.permutation(catalogue)[:12] for _ in range(25)])
    grades = rng.choice([0, 0, 0, 1, 2], size=(25, catalogue))
    popularity = rng.integers(1, 9, catalogue)                              # ties at the head's edge
    features = rng.normal(size=(catalogue, 5))
    items = irm.Items(popularity, users=40, features=features)
    results = irm.calc([f'{name}@{k}'], grades, top, items=items)
    got = {int(q): v for q, v in zip(results.query_ids, results.values[:, 0], strict=True)}
    expected = brute_force(name, k, top, grades, popularity, 40, features)
    assert got.keys() == expected.keys()
    for u, value in expected.items():
        assert got[u] == pytest.approx(value, nan_ok=True, abs=1e-12)


def test_what_the_items_lack_is_an_error_naming_it():
    with pytest.raises(MeasureError, match=r'Novelty@3 reads item users: give them as items=irmetrics.Items\(users'):
        irm.calc(['Novelty@3'], GRADES, TOP, items=irm.Items(POPULARITY))
    with pytest.raises(MeasureError, match=r'ARP@3 reads item popularity'):
        irm.calc(['ARP@3'], GRADES, TOP)
    sparse = irm.Items({'0': 3, '1': 3, '3': 1, '5': 1}, users=4)
    with pytest.raises(MeasureError, match=r"item '2', recommended to '0', has popularity 0.*unseen='once'"):
        irm.calc(['Novelty@3'], GRADES, TOP, items=sparse)
    once = irm.calc(["Novelty(unseen='once')@3"], GRADES, TOP, items=sparse).values[:, 0]
    assert once.tolist() == pytest.approx([(np.log2(4 / 3) * 2 + 2) / 3, (2 + np.log2(4 / 3) + 2) / 3])   # '2' once
    with pytest.raises(MeasureError, match=r"item '5' has no features"):
        irm.calc(['ILD@3'], GRADES, TOP, items=irm.Items(features=dict(enumerate(FEATURES[:5]))))
    with pytest.raises(irm.InputError, match=r'features: an array of 5 items, and the qrels array 6 items'):
        irm.calc(['ILD@3'], GRADES, TOP, items=irm.Items(features=FEATURES[:5]))
    with pytest.raises(MeasureError, match=r"item '3' has a zero feature vector"):
        irm.calc(['ILD@3'], GRADES, TOP, items=irm.Items(features=FEATURES * [[1], [1], [1], [0], [1], [1]]))
    for bad, message in [(dict(popularity=[1, -2]), 'one count of interactions'),
                         (dict(popularity=[1, 30], users=20), 'more than the 20 users'),
                         (dict(features=[[1.0, np.nan]]), "features: the value of item '0' is not a finite"),
                         (dict(distances=np.ones((2, 3))), 'a square array'),
                         (dict(features=[[1.0]], distances=[[0.0]]), 'not both'),
                         (dict(popularity=[]), r'popularity: no item has a value \(an empty list\)'),
                         (dict(popularity={}), r'popularity: no item has a value \(an empty dict\)'),
                         (dict(distances=-np.ones((2, 2))), r"the distance -1 between items '0' and '0' is negative"),
                         (dict(distances={'a': [0.0, 0.5], 'b': [-0.5, 0.0]}),
                          r"the distance -0.5 between items 'b' and 'a' is negative: distances are >= 0")]:
        with pytest.raises(irm.InputError, match=message):
            irm.Items(**bad)


def test_items_named_by_id_meet_a_trec_run():
    run = 'u 0 b 1 3 r\nu 0 a 2 2 r\nv 0 c 1 1 r\n'.replace(' 0 ', ' Q0 ')
    qrels = 'u 0 a 1\nv 0 c 1\n'
    items = irm.Items({'a': 4, 'b': 2, 'c': 1}, users=8)
    got = irm.calc_aggregate(['ARP@2', 'Novelty@1'], qrels, run, items=items)
    assert got[irm.parse_measure('ARP@2')] == pytest.approx(((2 + 4) / 2 + 1) / 2)
    assert got[irm.parse_measure('Novelty@1')] == pytest.approx((np.log2(8 / 2) + np.log2(8)) / 2)


def test_runs_are_compared_on_the_measures_beyond_accuracy_given_the_items():
    other = TOP[:, ::-1].copy()
    cmp = irm.compare(['ARP@2', 'TailShare@2'], GRADES, {'a': TOP, 'b': other}, items=ITEMS, test='sign')
    frame = cmp.to_dataframe()
    assert {(r, m): v for r, m, v in zip(frame['run'], frame['measure'], frame['mean'], strict=True)} == {
        ('a', 'ARP@2'): 8.25, ('a', 'TailShare@2'): 0.25, ('b', 'ARP@2'): 5.0, ('b', 'TailShare@2'): 0.75}
    assert irm.calc_aggregate(['ARP@2'], GRADES, other, items=ITEMS)[irm.parse_measure('ARP@2')] == \
        pytest.approx((1 + 5 + 4 + 10) / 4)                        # b: items 2, 1 and 5, 0
    with pytest.raises(MeasureError, match='reads item popularity'):
        irm.compare(['ARP@2'], GRADES, {'a': TOP, 'b': other})


def test_the_head_is_ceil_of_its_share_of_the_items_without_rounding_errors():
    """0.2 * 30 is 6.000000000000001 in floating point: the head is still 6 items, not 7."""
    popularity = np.arange(30, 0, -1)                                     # item j has 30 - j interactions
    top = irm.TopK(np.arange(30)[None, :])
    share = irm.calc(['TailShare@30'], np.ones((1, 30), dtype=int), top, items=irm.Items(popularity)).values[0, 0]
    assert share == 24 / 30


def test_a_user_missing_from_the_run_is_undefined_where_the_measure_is():
    """ILD is undefined without two items, HeadRecall/TailRecall without a relevant item of their side: a user
    missing from the run is left out of the mean as when ranked with nothing, not counted as 0."""
    grades = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
    items = irm.Items([9, 5, 1, 0], features=np.eye(4) + 0.5)
    run = {'0': {'0': 2.0, '1': 1.0, '2': 0.5}, '1': {'1': 1.0, '3': 0.5}}            # user 2 missing
    results = irm.calc(['ILD@3', 'HeadRecall(head=0.25)@3', 'TailRecall(head=0.25)@3'], grades, run, items=items)
    assert np.isnan(results.values[2]).tolist() == [True, False, False]
    assert results.values[2, 1:].tolist() == [0.0, 0.0]                  # item 0 (head) and 1 (tail) relevant
    ranked = irm.calc(['ILD@3'], grades, {**run, '2': {'0': 1.0}}, items=items)            # one item: undefined
    assert np.isnan(ranked.values[2, 0])
    assert results.aggregated['ILD@3'] == ranked.aggregated['ILD@3']
    none_of_head = irm.calc(['HeadRecall(head=0.25)@3'], grades, run, items=items)
    assert np.isnan(none_of_head.values[1, 0])                          # user 1 has no relevant head item


@pytest.mark.parametrize('catalogue', [5, 10 ** 12, 2 ** 63 - 1])
def test_a_catalogue_of_any_size_costs_the_recommended_items_only(catalogue):
    """The items never recommended are not held: a catalogue of 2**63 - 1 items (what the parameter takes) is
    evaluated at once (before: an array of that size, a traceback), with the formula's exact value: slots
    2, 1, 1 of 3 items, the others 0."""
    got = irm.calc_aggregate([Coverage(catalogue=catalogue) @ 2, Gini(catalogue=catalogue) @ 2], QRELS, RUN)
    n, m, total, weighted = catalogue, 3, 4, 1 * 1 + 2 * 1 + 3 * 2              # ascending slots 1, 1, 2
    assert got[Coverage(catalogue=catalogue) @ 2] == 3 / n
    assert got[Gini(catalogue=catalogue) @ 2] == ((n - 2 * m - 1) * total + 2 * weighted) / (n * total)
    if catalogue == 5:
        assert got[Gini(catalogue=5) @ 2] == pytest.approx(gini(np.array([2.0, 1.0, 1.0]), 5), abs=1e-15)
