"""Two labellings on ordered levels (irmetrics.label_agreement): the kappas against scikit-learn's
cohen_kappa_score and confusion_matrix, alpha against the krippendorff package, on generated DataFrames of
(topic, item, label) with items only one side labels; hand-computed cases; which items are counted; every
bad input one clear error."""
import math
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score, confusion_matrix

import irmetrics as irm
from irmetrics.errors import InputError, IrmetricsWarning, OptionError

SUPPORT = ['not_support', 'partial_support', 'support']


def labellings(seed, n=200, levels=SUPPORT, topics=7, left_out=0.1):
    """Two labellings of ``n`` items, the second mostly agreeing, each missing some items the other has."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(levels), n)
    b = np.clip(a + rng.choice([-1, 0, 0, 0, 1, 2], n), 0, len(levels) - 1)
    topic = [f't{i % topics}' for i in range(n)]
    item = [f'n{i}' for i in range(n)]
    frame_a = pd.DataFrame({'topic': topic, 'item': item, 'label': [levels[g] for g in a]})
    frame_b = pd.DataFrame({'topic': topic, 'item': item, 'label': [levels[g] for g in b]})
    keep_a, keep_b = rng.random(n) >= left_out, rng.random(n) >= left_out
    return frame_a[keep_a], frame_b[keep_b], a, b, keep_a & keep_b


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 5), st.integers(0, 4))
def test_the_statistics_are_scikit_learns_and_krippendorffs(seed, size, threshold):
    levels = [f'level{k}' for k in range(size)]
    threshold = min(threshold, size - 1)
    frame_a, frame_b, a, b, both = labellings(seed, n=60, levels=levels)
    if both.sum() < 2 or len(set(a[both]) | set(b[both])) < 2:
        return                                                  # a single value: NaN here, refused by the package
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)        # a binary class may hold every item: NaN
        result = irm.label_agreement(frame_a, frame_b, levels=levels, threshold=levels[threshold])
    ga, gb = a[both], b[both]
    assert result.levels_kappa.statistic == pytest.approx(cohen_kappa_score(ga, gb), abs=1e-12)
    upper_a, upper_b = ga >= threshold, gb >= threshold
    binary = cohen_kappa_score(upper_a, upper_b) if len(set(upper_a) | set(upper_b)) > 1 else math.nan
    assert result.binary_kappa.statistic == pytest.approx(binary, abs=1e-12, nan_ok=True)
    seen = sorted(set(ga) | set(gb))
    assert result.levels == tuple(levels[g] for g in seen)
    assert result.counts.tolist() == confusion_matrix(ga, gb, labels=seen).tolist()
    assert result.binary_counts().tolist() == confusion_matrix(upper_a, upper_b, labels=[False, True]).tolist()
    for level, found in (('ordinal', result.alpha_ordinal), ('interval', result.alpha_interval)):
        expected = krippendorff.alpha(reliability_data=np.array([ga, gb], dtype=float), level_of_measurement=level)
        assert found.statistic == pytest.approx(expected, abs=1e-12)


def test_nugget_assignments_by_hand():
    """Four nuggets: labels (a, b) = (s, s), (n, n), (p, s), (s, p).  Levels: p_o = 2/4, each side's margins
    (1, 1, 2) of 4, p_e = (1 + 1 + 4) / 16 = 3/8, kappa = (1/2 - 3/8) / (5/8) = 0.2.  At 'support': p_o = 1/2,
    p_e = 1/2, kappa = 0.  At 'partial_support': a = (1, 0, 1, 1), b = (1, 0, 1, 1): kappa = 1."""
    manual = pd.DataFrame({'topic': ['t1'] * 4, 'item': ['n1', 'n2', 'n3', 'n4'],
                           'label': ['support', 'not_support', 'partial_support', 'support']})
    automatic = manual.assign(label=['support', 'not_support', 'support', 'partial_support'])
    result = irm.label_agreement(manual, automatic, levels=SUPPORT, threshold='support',
                                 names=('manual', 'automatic'))
    assert result.levels_kappa.statistic == pytest.approx(0.2)
    assert result.binary_kappa.statistic == pytest.approx(0.0, abs=1e-15)
    assert result.binary_kappa.method == "Cohen's kappa (binary: >= support)"
    assert result.counts.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    assert result.confusion.loc['partial_support', 'support'] == 1
    assert irm.label_agreement(manual, automatic, levels=SUPPORT,
                               threshold='partial_support').binary_kappa.statistic == 1.0
    # ordinal alpha: coincidences n: 2, p: 2, s: 4 (m = 8); D_o counts the p-s pairs (4 of them, in both orders),
    # delta(p, s) = (2 + 4 - (2 + 4) / 2)^2 / ... computed through the krippendorff package's definition:
    expected = krippendorff.alpha(reliability_data=[[2, 0, 1, 2], [2, 0, 2, 1]], level_of_measurement='ordinal')
    assert result.alpha_ordinal.statistic == pytest.approx(expected, abs=1e-12)
    assert 'manual \\ automatic' in result.render() and '4 items labelled by both (1 topic)' in result.render()


def test_only_the_items_both_label_are_compared_and_the_others_counted():
    a = pd.DataFrame({'topic': ['t1', 't1', 't1', 't2'], 'item': ['x', 'y', 'z', 'x'], 'label': [0, 1, 2, 2]})
    b = pd.DataFrame({'topic': ['t1', 't1', 't2', 't3'], 'item': ['y', 'z', 'y', 'x'], 'label': [1, 1, 0, 1]})
    result = irm.label_agreement(a, b, threshold=1)
    assert (result.levels_kappa.both, result.levels_kappa.only_a, result.levels_kappa.only_b) == (2, 2, 2)
    assert result.levels == ('1', '2') and result.counts.tolist() == [[1, 0], [1, 0]]
    frame = result.to_dataframe()
    assert frame.loc['t1', ['both', 'only_a', 'only_b']].tolist() == [2, 1, 0]
    assert frame.loc['t3', ['both', 'only_a', 'only_b']].tolist() == [0, 0, 1]


def test_numeric_labels_are_their_own_grades_and_tuples_are_accepted():
    a = [('t1', 'd1', 0), ('t1', 'd2', 3), ('t1', 'd3', 1), ('t2', 'd1', 3)]
    b = [('t1', 'd1', 0), ('t1', 'd2', 2), ('t1', 'd3', 1), ('t2', 'd1', 3)]
    result = irm.label_agreement(a, b, threshold=2)
    ga, gb = [0, 3, 1, 3], [0, 2, 1, 3]
    assert result.levels_kappa.statistic == pytest.approx(cohen_kappa_score(ga, gb))
    assert result.binary_kappa.method == "Cohen's kappa (relevant: grade >= 2)"
    assert result.binary_kappa.statistic == 1.0
    expected = krippendorff.alpha(reliability_data=[ga, gb], level_of_measurement='interval')
    assert result.alpha_interval.statistic == pytest.approx(expected, abs=1e-12)
    assert irm.label_agreement(a, b).binary_kappa is None and irm.label_agreement(a, b).binary_counts() is None


def test_the_same_as_the_qrels_agreement_on_qrels():
    """Labels that are grades give the statistics of cohen_kappa and krippendorff_alpha on the same qrels."""
    frame_a, frame_b, _, _, _ = labellings(3, levels=[0, 1, 2, 3])
    result = irm.label_agreement(frame_a, frame_b, threshold=2)
    qrels_a, qrels_b = (f.rename(columns={'topic': 'query_id', 'item': 'doc_id', 'label': 'relevance'})
                        for f in (frame_a, frame_b))
    assert result.binary_kappa.statistic == irm.cohen_kappa(qrels_a, qrels_b, rel=2).statistic
    assert result.alpha_ordinal.statistic == irm.krippendorff_alpha(qrels_a, qrels_b).statistic


def test_one_level_throughout_is_nan_with_a_warning():
    a = [('t1', 'n1', 'support'), ('t1', 'n2', 'support')]
    with pytest.warns(IrmetricsWarning, match='undefined'):
        result = irm.label_agreement(a, a, levels=SUPPORT)
    assert math.isnan(result.levels_kappa.statistic) and math.isnan(result.alpha_ordinal.statistic)


@pytest.mark.parametrize('labels, options, error, message', [
    (pd.DataFrame({'topic': ['t1'], 'item': ['n1']}), {}, InputError, "no column 'label'"),
    (pd.DataFrame({'topic': [], 'item': [], 'label': []}), {}, InputError, 'a: no labels'),
    ([('t1', 'n1', 'support'), ('t1', 'n2', 'supported')], {'levels': SUPPORT}, InputError,
     "row 2: label 'supported' is not one of the levels"),
    ([('t1', 'n1', 'support'), ('t1', 'n1', 'not_support')], {'levels': SUPPORT}, InputError,
     "item 'n1' of topic 't1' is labelled more than once, at rows 1, 2"),
    ([('t1', 'n1', 'support')], {}, InputError, "row 1: label 'support' is not an integer grade: give the levels"),
    ([('t1', 'n1', 1.5)], {}, InputError, 'row 1: label 1.5 is not an integer grade'),
    ([('t1', 'n1', None)], {}, InputError, 'row 1 has no label'),
    ([('t1', 'n1', 'support')], {'levels': SUPPORT, 'threshold': 'vital'}, OptionError,
     "threshold 'vital' is not one of the levels"),
    ([('t1', 'n1', 1)], {'threshold': 'high'}, OptionError, 'without levels the labels are grades'),
    ([('t1', 'n1', 'support')], {'levels': ['support']}, OptionError, 'two levels or more'),
    ([('t1', 'n1', 'support')], {'levels': ['support', 'support']}, OptionError, 'names a level twice'),
])
def test_bad_labels_are_one_clear_error(labels, options, error, message):
    good = [('t1', 'n1', 'support' if 'levels' in options else 1)]
    with pytest.raises(error, match=message.replace('(', r'\(').replace(')', r'\)')):
        irm.label_agreement(labels, good, **options)


def test_no_item_in_common_is_an_error_naming_both_sides():
    with pytest.raises(InputError, match='manual .* and automatic .* judge no .query, document. pair in common'):
        irm.label_agreement([('t1', 'n1', 1)], [('t2', 'n1', 1)], names=('manual', 'automatic'))


def test_every_format_renders_and_the_dict_holds_every_number():
    frame_a, frame_b, *_ = labellings(5)
    result = irm.label_agreement(frame_a, frame_b, levels=SUPPORT, threshold='support')
    for fmt in ('table', 'markdown', 'latex', 'html', 'csv', 'tsv', 'json', 'jsonl'):
        assert "kappa (3 levels)" in result.render(fmt)
    document = result.to_dict()
    assert document['levels'] == SUPPORT and sum(map(sum, document['binary_confusion'])) == document['both']
    assert sum(sum(row.values()) for row in document['confusion'].values()) == document['both']
    assert repr(result).startswith("<LabelAgreement Cohen's kappa (3 levels) = ")
