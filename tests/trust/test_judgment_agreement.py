"""Agreement between two qrels: Cohen's kappa and the weighted kappas against scikit-learn's
cohen_kappa_score, Krippendorff's alpha against the krippendorff package and Krippendorff's own worked
example, overlap counts and per-query values against brute force, and the edge cases."""
import math
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import irmetrics as irm
from irmetrics.errors import DuplicateError, InputError, IrmetricsWarning, OptionError


def paired_qrels(grades_a, grades_b, queries=3):
    """Two qrels judging the same pairs: pair i is document d<i> of query q<i % queries>."""
    a = {f'q{i % queries}': {} for i in range(len(grades_a))}
    b = {f'q{i % queries}': {} for i in range(len(grades_b))}
    for i, (ga, gb) in enumerate(zip(grades_a, grades_b, strict=True)):
        a[f'q{i % queries}'][f'd{i}'] = int(ga)
        b[f'q{i % queries}'][f'd{i}'] = int(gb)
    return a, b


grade_pairs = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=60)


@given(grade_pairs, st.integers(1, 3))
def test_binary_kappa_is_scikit_learns(pairs, rel):
    ga, gb = np.array(pairs).T
    a, b = paired_qrels(ga, gb)
    expected = cohen_kappa_score(ga >= rel, gb >= rel) if len(set(ga >= rel) | set(gb >= rel)) > 1 else math.nan
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = irm.cohen_kappa(a, b, rel=rel).statistic
    assert got == pytest.approx(expected, abs=1e-12, nan_ok=True)


@given(grade_pairs, st.sampled_from(['linear', 'quadratic']))
def test_weighted_kappa_is_scikit_learns_over_the_grade_range(pairs, weights):
    ga, gb = np.array(pairs).T
    a, b = paired_qrels(ga, gb)
    labels = list(range(min(ga.min(), gb.min()), max(ga.max(), gb.max()) + 1))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        expected = cohen_kappa_score(ga, gb, weights=weights, labels=labels)
        got = irm.cohen_kappa(a, b, weights=weights).statistic
    assert got == pytest.approx(expected, abs=1e-12, nan_ok=True)


def test_a_grade_nobody_uses_still_counts_in_the_weighted_distance():
    """Grades 0 and 3 only: their linear distance is 3 (the grades' difference), not 1 (adjacent labels)."""
    ga, gb = np.array([0, 0, 3, 3, 0, 3]), np.array([0, 3, 3, 0, 0, 3])
    a, b = paired_qrels(ga, gb)
    kappa = irm.cohen_kappa(a, b, weights='quadratic').statistic
    assert kappa == pytest.approx(cohen_kappa_score(ga, gb, weights='quadratic', labels=[0, 1, 2, 3]))
    # with two categories any weights give the plain kappa: observed 4/6 agree, expected 1/2 -> 1/3
    assert kappa == pytest.approx(1 / 3)


@given(grade_pairs, st.sampled_from(['nominal', 'ordinal', 'interval']))
def test_alpha_is_the_krippendorff_packages(pairs, level):
    ga, gb = np.array(pairs).T
    a, b = paired_qrels(ga, gb)
    if len(set(ga) | set(gb)) < 2:
        return                                          # the package refuses one value; irmetrics gives NaN
    expected = krippendorff.alpha(reliability_data=np.array([ga, gb], dtype=float), level_of_measurement=level)
    assert irm.krippendorff_alpha(a, b, level=level).statistic == pytest.approx(expected, abs=1e-12)


def test_alpha_of_krippendorffs_worked_example():
    """Krippendorff (2011), Computing Krippendorff's alpha-reliability, section A: two observers, binary
    data, ten units; alpha = 1 - 19 * 8 / (2 * 14 * 6) = 0.095."""
    a, b = paired_qrels([0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0])
    alpha = irm.krippendorff_alpha(a, b, level='nominal').statistic
    assert alpha == pytest.approx(1 - 19 * 8 / (2 * 14 * 6)) and round(alpha, 3) == 0.095


def test_kappa_of_a_hand_computed_table():
    """20 both relevant, 15 both not, 5 a-only relevant, 10 b-only relevant: p_o = 0.7, p_e = (25 * 30 +
    25 * 20) / 50**2 = 0.5, kappa = 0.2 / 0.5 = 0.4."""
    ga = [1] * 20 + [0] * 15 + [1] * 5 + [0] * 10
    gb = [1] * 20 + [0] * 15 + [0] * 5 + [1] * 10
    result = irm.cohen_kappa(*paired_qrels(ga, gb, queries=1))
    assert result.statistic == pytest.approx(0.4)
    assert result.counts.tolist() == [[15, 10], [5, 20]] and result.grades == (0, 1)


def test_overlap_counts_and_per_query_values_by_brute_force():
    a = {'q1': {'d1': 1, 'd2': 0, 'd3': 2, 'd7': 1}, 'q2': {'d1': 0, 'd2': 1, 'd3': 1}, 'qa': {'d1': 1}}
    b = {'q1': {'d2': 0, 'd3': 1, 'd4': 1, 'd7': 0}, 'q2': {'d1': 0, 'd2': 1, 'd3': 0}, 'qb': {'d9': 2}}
    result = irm.cohen_kappa(a, b)
    assert (result.both, result.only_a, result.only_b) == (6, 2, 2)
    frame = result.to_dataframe()
    assert frame.index.tolist() == ['q1', 'q2', 'qa', 'qb']
    assert frame[['both', 'only_a', 'only_b']].to_numpy().tolist() == [[3, 1, 1], [3, 0, 0], [0, 1, 0], [0, 0, 1]]
    for query in ('q1', 'q2'):
        shared = sorted(set(a[query]) & set(b[query]))
        ya, yb = [a[query][d] >= 1 for d in shared], [b[query][d] >= 1 for d in shared]
        assert frame.loc[query, 'statistic'] == pytest.approx(cohen_kappa_score(ya, yb))
    assert np.isnan(frame.loc['qa', 'statistic']) and np.isnan(frame.loc['qb', 'statistic'])
    shared = [(q, d) for q in a for d in a[q] if d in b.get(q, {})]
    assert result.statistic == pytest.approx(cohen_kappa_score([a[q][d] >= 1 for q, d in shared],
                                                               [b[q][d] >= 1 for q, d in shared]))
    confusion = result.confusion
    assert confusion.index.tolist() == [0, 1, 2] and confusion.columns.tolist() == [0, 1, 2]
    assert confusion.to_numpy().sum() == 6 and confusion.loc[2, 1] == 1 and confusion.loc[1, 0] == 2


def test_every_qrels_input_gives_the_same_result(tmp_path):
    a, b = paired_qrels([0, 1, 2, 1, 0, 2, 2], [0, 1, 1, 1, 2, 2, 0])
    path = tmp_path / 'a.txt'
    path.write_text(''.join(f'{q} 0 {d} {g}\n' for q, docs in a.items() for d, g in docs.items()))
    frame = pd.DataFrame([(q, d, g) for q, docs in b.items() for d, g in docs.items()],
                         columns=['query_id', 'doc_id', 'relevance'])
    from_inputs = irm.cohen_kappa(str(path), frame, weights='linear')
    assert from_inputs.statistic == irm.cohen_kappa(a, b, weights='linear').statistic
    assert from_inputs.to_dict()['confusion'] == irm.cohen_kappa(a, b).to_dict()['confusion']


def test_qrels_with_no_pair_in_common_are_an_error():
    with pytest.raises(InputError, match='no .query, document. pair in common'):
        irm.cohen_kappa({'q1': {'d1': 1}}, {'Q1': {'d1': 1}})
    with pytest.raises(InputError):
        irm.krippendorff_alpha({'q1': {'d1': 1}}, {'q1': {'d2': 1}})


def test_one_label_throughout_is_nan_with_a_warning():
    a, b = paired_qrels([0, 0, 0], [0, 0, 0])
    with pytest.warns(IrmetricsWarning, match='undefined'):
        assert math.isnan(irm.cohen_kappa(a, b).statistic)
    with pytest.warns(IrmetricsWarning, match='undefined'):
        assert math.isnan(irm.krippendorff_alpha(a, b).statistic)


def test_perfect_and_reversed_agreement():
    a, b = paired_qrels([0, 1, 0, 1], [0, 1, 0, 1])
    assert irm.cohen_kappa(a, b).statistic == 1.0
    a, b = paired_qrels([0, 1, 0, 1], [1, 0, 1, 0])
    assert irm.cohen_kappa(a, b).statistic == -1.0


def test_a_document_judged_under_several_iterations_is_refused():
    twice = 'q1 0 d1 1\nq1 1 d1 0\nq1 0 d2 1\n'
    with pytest.raises(DuplicateError, match='qrels_a'):
        irm.cohen_kappa(twice, 'q1 0 d1 1\nq1 0 d2 1\n')
    resolved = irm.read_trec_qrels(twice, duplicates='max')
    assert irm.cohen_kappa(resolved, 'q1 0 d1 1\nq1 0 d2 0\n').both == 2


def test_options_are_checked():
    a, b = paired_qrels([0, 1], [1, 1])
    with pytest.raises(OptionError, match="'weights'"):
        irm.cohen_kappa(a, b, weights='cubic')
    with pytest.raises(OptionError, match='rel=2 applies to the binary kappa'):
        irm.cohen_kappa(a, b, rel=2, weights='linear')
    with pytest.raises(OptionError, match="'level'"):
        irm.krippendorff_alpha(a, b, level='ratio')
    with pytest.raises(OptionError, match="'rel'"):
        irm.cohen_kappa(a, b, rel=math.nan)


def test_repr_and_dict_are_readable():
    a, b = paired_qrels([0, 1, 2, 1], [0, 1, 1, 1])
    result = irm.cohen_kappa(a, b)
    assert repr(result).startswith("<JudgmentAgreement Cohen's kappa (relevant: grade >= 1) = 1.0000 on 4 pairs")
    assert result.to_dict()['both'] == 4 and result.to_dict()['confusion'][2] == {0: 0, 1: 1, 2: 0}


@pytest.mark.parametrize('level', ['nominal', 'ordinal', 'interval'])
def test_each_querys_alpha_is_the_krippendorff_packages(level):
    rng = np.random.default_rng(7)
    ga = rng.integers(0, 4, 90)
    gb = np.clip(ga + rng.integers(-1, 2, 90), 0, 3)
    result = irm.krippendorff_alpha(*paired_qrels(ga, gb, queries=3), level=level)
    for i, query in enumerate(result.query_ids):
        pairs = np.arange(int(query[1:]), 90, 3)
        expected = krippendorff.alpha(reliability_data=np.array([ga[pairs], gb[pairs]], dtype=float),
                                      level_of_measurement=level)
        assert result.query_statistic[i] == pytest.approx(expected, abs=1e-12)


def test_the_result_cannot_be_changed():
    result = irm.cohen_kappa(*paired_qrels([0, 1, 1], [0, 1, 0]))
    with pytest.raises(ValueError, match='read-only'):
        result.counts[0, 0] = 9
    with pytest.raises(AttributeError):
        result.statistic = 1.0
