"""A judge's qrels against people's (irmetrics.judge_agreement and the leaderboard agreement under it): the
coefficients against scipy.stats (kendalltau, spearmanr, pearsonr) and irmetrics.tau_ap on generated
leaderboards, the bootstrap intervals against a brute-force bootstrap of the same draws, hand-computed top-k
cases, which judgments count where, and every bad input one clear error or warning."""
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from repo_paths import EXAMPLES
from scipy.stats import kendalltau, pearsonr, spearmanr
from sklearn.metrics import cohen_kappa_score

import irmetrics as irm
from irmetrics.dialects import parse_measure
from irmetrics.errors import InputError, IrmetricsWarning, OptionError
from irmetrics.trust.leaderboard_agreement import leaderboard_agreement

QRELS, LLM = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'judges' / 'qrels_llm.txt')
RUNS = [str(EXAMPLES / 'run_bm25.txt'), str(EXAMPLES / 'run_dense.txt'),
        *(str(EXAMPLES / 'judges' / f'run_{n}.txt') for n in ('hybrid', 'rerank', 'title', 'bm25_top5'))]
NDCG = parse_measure('nDCG@10')


def leaderboards(seed, systems=8, topics=25, noise=0.1):
    """Per-topic values of ``systems`` under two sets of judgments: b is a noisy reading of a."""
    rng = np.random.default_rng(seed)
    a = np.clip(rng.random((systems, 1)) * 0.5 + rng.random((systems, topics)) * 0.5, 0, 1)
    return a, np.clip(a + rng.normal(0, noise, a.shape), 0, 1)


def agreement(values, **options):
    names = [f's{i}' for i in range(len(values[0]))]
    settings = dict(top=None, ci=0.95, n_resamples=500, seed=3, tie_variant='a', p=0.9) | options
    return leaderboard_agreement(names, values, NDCG, ('a', 'b'), **settings)


def by_name(result):
    return {c.statistic: c for c in result.correlations}


@pytest.mark.parametrize('seed', range(12))
def test_the_coefficients_are_scipys_and_tau_ap_irmetrics(seed):
    values = leaderboards(seed, systems=4 + seed)
    found = by_name(agreement(values))
    means_a, means_b = values[0].mean(axis=1), values[1].mean(axis=1)
    assert found["Kendall's tau-b"].value == pytest.approx(kendalltau(means_a, means_b).statistic, abs=1e-12)
    assert found["Spearman's rho"].value == pytest.approx(spearmanr(means_a, means_b).statistic, abs=1e-12)
    assert found["Pearson's r"].value == pytest.approx(pearsonr(means_a, means_b).statistic, abs=1e-12)
    names = [f's{i}' for i in range(len(means_a))]
    expected = irm.tau_ap(dict(zip(names, means_a, strict=True)), dict(zip(names, means_b, strict=True))).statistic
    assert found['tau_AP (a)'].value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize('seed', range(4))
def test_the_intervals_are_a_brute_force_bootstrap_of_the_same_draws(seed):
    """B resamples of the topics (one generator call, as the comparing room draws them), both leaderboards'
    means of each, scipy's coefficients of each, and numpy's inverted_cdf quantiles."""
    values = leaderboards(100 + seed, systems=7, topics=15, noise=0.2)
    result = agreement(values, n_resamples=300, seed=seed, top=3)
    drawn = np.random.default_rng(seed).integers(0, 15, size=(300, 15))
    rep_a, rep_b = values[0][:, drawn].mean(axis=2).T, values[1][:, drawn].mean(axis=2).T
    best = np.sort(np.argsort(-values[0].mean(axis=1), kind='stable')[:3])
    names = [f's{i}' for i in range(7)]
    references = {
        "Kendall's tau-b": [kendalltau(x, y).statistic for x, y in zip(rep_a, rep_b, strict=True)],
        "Spearman's rho": [spearmanr(x, y).statistic for x, y in zip(rep_a, rep_b, strict=True)],
        "Pearson's r": [pearsonr(x, y).statistic for x, y in zip(rep_a, rep_b, strict=True)],
        'tau_AP (a)': [irm.tau_ap(dict(zip(names, x, strict=True)), dict(zip(names, y, strict=True))).statistic
                       for x, y in zip(rep_a, rep_b, strict=True)],
        "Kendall's tau-b (top 3)": [kendalltau(x[best], y[best]).statistic
                                    for x, y in zip(rep_a, rep_b, strict=True)]}
    found = by_name(result)
    for name, replicates in references.items():
        low, high = np.quantile(replicates, [0.025, 0.975], method='inverted_cdf')
        assert (found[name].ci_low, found[name].ci_high) == pytest.approx((low, high), abs=1e-9), name
        assert found[name].ci_low <= found[name].value <= found[name].ci_high or name.endswith('(top 3)')


def test_the_top_agreement_by_hand():
    """Means a = 6 > 5 > 4 > 3 > 2 > 1 (systems s0..s5), b swaps s0 and s1 and puts s3 above s2: the top 3 of
    a (s0, s1, s2) are ordered s1 > s0 > s2 by b: one discordant pair of three, tau = 1/3; b's top 3 is
    (s1, s0, s3): 2 of a's 3.  Every topic alike: every resample gives the same values, a zero-width interval."""
    a = np.repeat(np.array([[6.0], [5], [4], [3], [2], [1]]) / 10, 10, axis=1)
    b = np.repeat(np.array([[5.0], [6], [3], [4], [2], [1]]) / 10, 10, axis=1)
    result = agreement((a, b))
    assert result.top == 3 and result.top_overlap == pytest.approx(2 / 3)
    top = by_name(result)["Kendall's tau-b (top 3)"]
    assert (top.value, top.ci_low, top.ci_high) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    whole = by_name(result)["Kendall's tau-b"]               # 2 discordant pairs of 15
    assert (whole.value, whole.ci_low, whole.ci_high) == pytest.approx((11 / 15,) * 3)
    assert agreement((a, b), top=4).top_overlap == 1.0
    assert agreement((a[:5], b[:5])).top is None              # fewer than 6 systems: no top by default


def test_a_top_that_ends_in_a_tie_warns():
    a = np.repeat(np.array([[6.0], [5], [4], [4], [2], [1]]) / 10, 10, axis=1)
    with pytest.warns(IrmetricsWarning, match='the systems ranked 3 and 4 tie'):
        agreement((a, a[::-1].copy()), tie_variant='b')


def test_resamples_that_leave_tau_ap_undefined_are_counted_and_left_out():
    """s0 and s1 differ on topic 0 only: a resample without topic 0 ties them in the reference, where tau_AP_a
    is undefined; the interval is over the other resamples and a warning counts them."""
    a, b = leaderboards(9, systems=5, topics=12)
    a[1] = a[0]
    a[1, 0] = a[0, 0] + 0.3
    drawn = np.random.default_rng(3).integers(0, 12, size=(500, 12))
    without = int((~(drawn == 0).any(axis=1)).sum())
    with pytest.warns(IrmetricsWarning, match=f'tau_AP .a. is undefined in {without} of 500 resamples'):
        result = agreement((a, b))
    assert 0 < without < 500 and not math.isnan(by_name(result)['tau_AP (a)'].ci_low)


def test_the_example_by_the_public_call():
    found = irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS)
    people, judge = irm.read_trec_qrels(QRELS), irm.read_trec_qrels(LLM)
    grades_b = {(q.query_id, q.doc_id): q.relevance for q in judge}
    shared = [(q.relevance, grades_b[q.query_id, q.doc_id]) for q in people if (q.query_id, q.doc_id) in grades_b]
    ga, gb = np.array(shared).T
    assert found.judgments.levels_kappa.statistic == pytest.approx(cohen_kappa_score(ga, gb), abs=1e-12)
    assert found.judgments.binary_kappa.statistic == pytest.approx(cohen_kappa_score(ga >= 2, gb >= 2), abs=1e-12)
    assert (found.judgments.levels_kappa.both, found.judgments.levels_kappa.only_a,
            found.judgments.levels_kappa.only_b) == (len(shared), len(people) - len(shared), len(judge) - len(shared))
    # the leaderboards: each qrels whole (the documents only the judge graded count in its own), as system_agreement
    means = [[irm.calc_aggregate([NDCG], q, run)[NDCG] for run in RUNS] for q in (QRELS, LLM)]
    systems = found.leaderboard.systems
    assert systems.values_a == pytest.approx(means[0], abs=1e-12) and systems.values_b == pytest.approx(means[1])
    reference = irm.system_agreement('nDCG@10', QRELS, RUNS, qrels_b=LLM)
    assert systems.tau.statistic == reference.tau.statistic and systems.rbo == reference.rbo
    assert by_name(found.leaderboard)["Kendall's tau-b"].value == reference.tau.statistic
    assert found.warnings == () and found.leaderboard.top == 3 and found.leaderboard.topics == 10


def test_the_report_in_every_format():
    found = irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS[:4], labels=('people', 'llm'))
    text = found.render()
    for part in ("Cohen's kappa (4 levels)", "Cohen's kappa (relevant: grade >= 2)", 'people \\ llm',
                 "Kendall's tau-b", 'tau_AP (a)', "Spearman's rho", "Pearson's r", 'RBO_EXT', 'rank_a'):
        assert part in text
    assert found.render('html').startswith('<!DOCTYPE html>') and 'irmetrics judges: llm against people' in \
        found.render('html')
    assert found.render('latex').count(r'\begin{tabular}') == 4 and found.render('markdown').count('|:---') == 4
    rows = found.render('csv').splitlines()
    assert rows[0] == 'compared,statistic,value,ci_low,ci_high' and len(rows) == 1 + 4 + 5
    document = json.loads(found.render('json'))
    assert document['grades']['statistics']["Cohen's kappa (4 levels)"] == found.judgments.levels_kappa.statistic
    assert document['leaderboards']['correlations']["Pearson's r"]['ci_low'] == \
        by_name(found.leaderboard)["Pearson's r"].ci_low
    assert json.loads(found.render('json', places=2))['leaderboards']['topics'] == 10
    assert repr(found).startswith("<JudgeAgreement llm against people: Cohen's kappa (4 levels) = 0.5596")


def test_topics_one_qrels_judges_alone_are_left_out_with_a_warning(tmp_path):
    extra = tmp_path / 'llm.txt'
    extra.write_text(Path(LLM).read_text() + '411 0 D411-001 2\n')
    with pytest.warns(IrmetricsWarning, match='0 topics judged in qrels only and 1 in llm only are left out'):
        found = irm.judge_agreement('nDCG@10', QRELS, str(extra), RUNS[:3])
    assert found.leaderboard.topics == 10 and any('left out of the leaderboards' in w for w in found.warnings)


def test_few_topics_warn_and_one_topic_is_refused():
    people = {f'q{i}': {'d1': 1, 'd2': 0} for i in range(4)}
    runs = {name: {f'q{i}': {'d1': s, 'd2': 1 - s + i / 10} for i in range(4)} for name, s in
            (('x', 0.9), ('y', 0.5), ('z', 0.2))}
    with pytest.warns(IrmetricsWarning, match='from 4 topics, fewer than the 7 the bootstrap of 1,000'):
        irm.judge_agreement('P@1', people, people, runs)
    with pytest.raises(InputError, match='over 1 topic: intervals over the topics need two or more'):
        irm.judge_agreement('P@1', {'q0': people['q0']}, {'q0': people['q0']}, runs)


@pytest.mark.parametrize('call, error, message', [
    (lambda: irm.judge_agreement('nDCG@10', QRELS, {'X': {'d': 1}}, RUNS), InputError,
     'judge no .query, document. pair in common'),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS[:1]), InputError,
     '1 run: comparing leaderboards needs 3 runs or more'),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS[:2]), InputError, '2 runs: comparing leaderboards'),
    (lambda: irm.judge_agreement('nDCG@10 AP', QRELS, LLM, RUNS), InputError, 'names 2 measures'),
    (lambda: irm.judge_agreement('NumRet', QRELS, LLM, RUNS), InputError, 'NumRet is not averaged over the topics'),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, top=2), OptionError, "'top'"),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, top=6), OptionError, 'top=6: the top runs must be '
                                                                                    'fewer than the 6 runs'),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, ci=1.5), OptionError, "'ci'"),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, n_resamples=0), OptionError, "'n_resamples'"),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, threshold=1.5), OptionError, "'threshold'"),
    (lambda: irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS, tie_variant='c'), OptionError, "'tie_variant'"),
])
def test_bad_input_is_one_clear_error(call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with pytest.raises(error, match=message):
            call()


def test_the_topics_are_paired_whatever_order_each_qrels_lists_them():
    lines = Path(LLM).read_text().splitlines()
    shuffled = sorted(lines, key=lambda line: (-int(line.split()[0]), line))          # topics 410 down to 401
    found = irm.judge_agreement('nDCG@10', QRELS, '\n'.join(shuffled) + '\n', RUNS[:4])
    expected = irm.judge_agreement('nDCG@10', QRELS, LLM, RUNS[:4])
    assert found.leaderboard.correlations == expected.leaderboard.correlations
    assert found.judgments.to_dict() == expected.judgments.to_dict()
