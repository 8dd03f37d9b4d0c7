"""Two nugget assignments of the same answers compared (automatic against manual): the labels' statistics against
scikit-learn and krippendorff on generated files, the runs' leaderboards against scipy and against the trust room's
own leaderboard agreement, a case computed by hand, bad input, the command line; and the mends of the RAG room:
comparison reports over topics, no ``ties`` parameter."""
import json
import math
import random

import krippendorff
import numpy as np
import pytest
from cli_support import irmetrics
from repo_paths import ROOT
from scipy.stats import kendalltau, pearsonr, spearmanr
from sklearn.metrics import cohen_kappa_score, confusion_matrix

import irmetrics as irm
from irmetrics import InputError, MeasureError, OptionError, rag
from irmetrics.trust.leaderboard_agreement import leaderboard_agreement

EXAMPLE = ROOT / 'examples' / 'rag'
NUGGETS = str(EXAMPLE / 'nuggets.jsonl')
AUTOMATIC, MANUAL = (str(EXAMPLE / 'agreement' / f) for f in ('automatic.jsonl', 'manual.jsonl'))
LEVELS = ['not_support', 'partial_support', 'support']


def _rows(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def _write(path, rows):
    path.write_text(''.join(json.dumps(r) + '\n' for r in rows))
    return str(path)


def _generated(tmp_path, topics=40, runs=6, seed=11):
    """Nuggets, an automatic assignment and a manual one that changes about a quarter of its labels."""
    rng = random.Random(seed)
    nuggets, automatic, manual = [], [], []
    for t in range(topics):
        ns = [{'text': f'fact {t}.{i}', 'importance': rng.choice(['vital', 'okay'])} for i in range(rng.randint(1, 9))]
        nuggets.append({'qid': f'T{t}', 'query': 'q', 'nuggets': ns})
        for r in range(runs):
            labels = [rng.choices(LEVELS, weights=(3, 1, r + 1))[0] for _ in ns]     # runs of different quality
            changed = [rng.choice(LEVELS) if rng.random() < 0.25 else a for a in labels]
            automatic.append({'qid': f'T{t}', 'run_id': f'run{r}',
                              'nuggets': [{**n, 'assignment': a} for n, a in zip(ns, labels, strict=True)]})
            manual.append({'qid': f'T{t}', 'run_id': f'run{r}',
                           'nuggets': [{**n, 'assignment': a} for n, a in zip(ns, changed, strict=True)]})
    rng.shuffle(manual)                                       # the records' order is not the items' order
    return (_write(tmp_path / 'nuggets.jsonl', nuggets), _write(tmp_path / 'automatic.jsonl', automatic),
            _write(tmp_path / 'manual.jsonl', manual), automatic, manual)


def _items(records):
    """{(run, topic, nugget): label} and {run: [mean 'all' of each topic in topic order]} written out plainly."""
    labels = {(r['run_id'], r['qid'], n['text']): n['assignment'] for r in records for n in r['nuggets']}
    per_topic = {}
    for r in sorted(records, key=lambda r: int(r['qid'][1:])):
        weights = [{'support': 1.0, 'partial_support': 0.5}.get(n['assignment'], 0.0) for n in r['nuggets']]
        per_topic.setdefault(r['run_id'], []).append(sum(weights) / len(weights))
    return labels, per_topic


def test_the_labels_against_scikit_learn_and_krippendorff(tmp_path):
    nuggets, automatic, manual, auto_records, manual_records = _generated(tmp_path)
    found = rag.assignment_agreement(nuggets, automatic, manual, n_resamples=200)
    a, b = _items(manual_records)[0], _items(auto_records)[0]
    keys = sorted(a)
    assert sorted(b) == keys and found.judgments.levels_kappa.both == len(keys) > 1000
    ga = np.array([LEVELS.index(a[k]) for k in keys])
    gb = np.array([LEVELS.index(b[k]) for k in keys])
    j = found.judgments
    assert j.names == ('manual', 'automatic') and j.levels == tuple(LEVELS)
    assert j.levels_kappa.statistic == pytest.approx(cohen_kappa_score(ga, gb), abs=1e-12)
    assert j.binary_kappa.statistic == pytest.approx(cohen_kappa_score(ga >= 2, gb >= 2), abs=1e-12)
    np.testing.assert_array_equal(j.counts, confusion_matrix(ga, gb, labels=[0, 1, 2]))
    for level, result in (('ordinal', j.alpha_ordinal), ('interval', j.alpha_interval)):
        expected = krippendorff.alpha(reliability_data=np.array([ga, gb], dtype=float), level_of_measurement=level)
        assert result.statistic == pytest.approx(expected, abs=1e-12)
    partial = rag.assignment_agreement(nuggets, automatic, manual, threshold='partial_support', n_resamples=200)
    assert partial.judgments.binary_kappa.statistic == pytest.approx(cohen_kappa_score(ga >= 1, gb >= 1), abs=1e-12)


@pytest.mark.parametrize('measure', ['all', 'strict_vital'])
def test_the_leaderboards_against_scipy_and_the_trust_rooms_code(tmp_path, measure):
    nuggets, automatic, manual, auto_records, manual_records = _generated(tmp_path)
    found = rag.assignment_agreement(nuggets, automatic, manual, measure=measure, n_resamples=300, seed=5)
    evaluated = [rag.evaluate(measure, nuggets, f) for f in (manual, automatic)]
    values = [np.ascontiguousarray(e.values[[e.runs.index(f'run{r}') for r in range(6)], :, 0])   # run0 ... run5
              for e in evaluated]
    if measure == 'all':                                       # the nugget scores written out plainly
        for records, got in ((manual_records, values[0]), (auto_records, values[1])):
            per_topic = _items(records)[1]
            np.testing.assert_allclose(got, [per_topic[f'run{r}'] for r in range(6)], rtol=0, atol=1e-15)
    means = [v.mean(axis=1) for v in values]
    board = found.leaderboard
    assert board.topics == 40 and board.top == 3 and board.n_resamples == 300 and board.seed == 5
    order = [int(run[3:]) for run in board.systems.systems]             # the manual file's order (shuffled)
    for file, got in ((manual, board.systems.values_a), (automatic, board.systems.values_b)):   # calc's means, exactly
        results = rag.calc(measure, nuggets, file)
        assert got.tolist() == [results[run].aggregated[measure] for run in board.systems.systems]
    coefficients = {c.statistic: c for c in board.correlations}
    assert coefficients["Kendall's tau-b"].value == pytest.approx(kendalltau(*means).statistic, abs=1e-12)
    assert coefficients["Spearman's rho"].value == pytest.approx(spearmanr(*means).statistic, abs=1e-12)
    assert coefficients["Pearson's r"].value == pytest.approx(pearsonr(*means).statistic, abs=1e-12)
    # the same code as judge_agreement's leaderboards: every coefficient and interval the same
    same = leaderboard_agreement(list(board.systems.systems), (values[0][order], values[1][order]),
                                 rag.parse_rag_measures(measure)[0], (f'{measure} (manual)', f'{measure} (automatic)'),
                                 top=None, ci=0.95, n_resamples=300, seed=5, tie_variant='a', p=0.9)
    assert board.to_dict() == same.to_dict()


def test_a_small_case_by_hand(tmp_path):
    nuggets = [{'qid': t, 'query': 'q', 'nuggets': [{'text': f'{t}1', 'importance': 'vital'},
                                                     {'text': f'{t}2', 'importance': 'okay'}]} for t in 'AB']
    S, P, N = 'support', 'partial_support', 'not_support'
    manual = {'r1': ([S, S], [S, N]), 'r2': ([S, N], [P, N]), 'r3': ([N, N], [N, P])}
    automatic = {'r1': ([S, S], [S, P]), 'r2': ([S, N], [S, N]), 'r3': ([N, N], [N, P])}

    def records(labels):
        return [{'qid': t, 'run_id': run, 'nuggets': [{'text': f'{t}{i + 1}', 'importance': ('vital', 'okay')[i],
                                                       'assignment': a} for i, a in enumerate(per[k])]}
                for run, per in labels.items() for k, t in enumerate('AB')]
    found = rag.assignment_agreement(nuggets, records(automatic), records(manual), labels=('manual', 'automatic'))
    # the 12 (run, topic, nugget) pairs: rows manual, columns automatic (not, partial, support)
    assert found.judgments.counts.tolist() == [[5, 1, 0], [0, 1, 1], [0, 0, 4]]
    # agreement 10/12 = 120/144, chance (6*5 + 2*2 + 4*5)/144 = 54/144: kappa = 66/90
    assert found.judgments.levels_kappa.statistic == pytest.approx(11 / 15, abs=1e-15)
    # at support (partial counts as not supported): 11/12 agree, chance (4*5 + 8*7)/144 = 76/144: kappa 56/68
    assert found.judgments.binary_kappa.statistic == pytest.approx(14 / 17, abs=1e-15)
    # 'all' per topic (A, B): manual r1 1, 1/2; r2 1/2, 1/4; r3 0, 1/4 -> means 18/24, 9/24, 3/24;
    # automatic r1 1, 3/4; r2 1/2, 1/2; r3 0, 1/4 -> 21/24, 12/24, 3/24: the same order
    rows = found.leaderboard.systems.table(systems=True).rows
    assert [row[:3] for row in rows] == [['r1', 0.75, 0.875], ['r2', 0.375, 0.5], ['r3', 0.125, 0.125]]
    coefficients = {c.statistic: c.value for c in found.leaderboard.correlations}
    assert coefficients["Kendall's tau-b"] == 1.0 and coefficients["Spearman's rho"] == pytest.approx(1.0, abs=1e-15)
    # deviations (8, -1, -7) and (9, 0, -9) in 24ths: r = 135 / sqrt(114 * 162)
    assert coefficients["Pearson's r"] == pytest.approx(135 / math.sqrt(114 * 162), abs=1e-14)


def test_the_shipped_example():
    found = rag.assignment_agreement(NUGGETS, AUTOMATIC, MANUAL)
    assert found.judgments.names == ('manual', 'automatic') and found.measure == 'all'
    assert found.judgments.counts.tolist() == [[12, 4, 0], [0, 3, 3], [0, 2, 16]]
    assert round(found.judgments.levels_kappa.statistic, 4) == 0.6443
    assert [row[0] for row in found.leaderboard.systems.table(systems=True).rows] == [
        'hybrid_llm', 'dense_llm', 'bm25_llm', 'title_llm']
    assert any('fewer than the 7 the bootstrap' in w for w in found.warnings)
    assert isinstance(found, irm.JudgeAgreement)          # one report, the judges' renderer
    assert found.table().rows[0][0] == 'assignments' and found.to_dict()['against'] == 'manual'


def test_a_record_in_one_file_only_is_one_error_naming_file_and_line(tmp_path):
    rows = _rows(MANUAL)
    fewer = _write(tmp_path / 'fewer.jsonl', rows[:5] + rows[6:])
    with pytest.raises(InputError) as ex:
        rag.assignment_agreement(NUGGETS, AUTOMATIC, fewer)
    assert str(ex.value) == (f"{AUTOMATIC}:6: run 'dense_llm' is assigned for topic 't3' here but not in {fewer}: "
                             f'both assignments must assess the same (run, topic) answers')
    more = _write(tmp_path / 'more.jsonl', rows + [{**rows[0], 'run_id': 'other'}])
    with pytest.raises(InputError, match=r'more\.jsonl:13: run .other. is assigned for topic .t1. here but not in'):
        rag.assignment_agreement(NUGGETS, AUTOMATIC, more)


def test_assignments_made_on_other_nuggets_are_one_error(tmp_path):
    rows = _rows(MANUAL)
    rows[2]['nuggets'][0]['text'] = 'Auroras come from the solar wind'     # another nuggets file's wording
    other = _write(tmp_path / 'other.jsonl', rows)
    with pytest.raises(InputError) as ex:
        rag.assignment_agreement(NUGGETS, AUTOMATIC, other)
    assert str(ex.value) == (f"{other}:3: the nugget 'Auroras come from the solar wind' is not one of topic "
                             f"'t3''s nuggets")


def test_bad_options(tmp_path):
    with pytest.raises(MeasureError, match='ranked by one nugget score'):
        rag.assignment_agreement(NUGGETS, AUTOMATIC, MANUAL, measure='support_precision')
    with pytest.raises(MeasureError, match='ranked by one nugget score'):
        rag.assignment_agreement(NUGGETS, AUTOMATIC, MANUAL, measure='all vital')
    with pytest.raises(OptionError, match="threshold 'full_support' is not one of the levels"):
        rag.assignment_agreement(NUGGETS, AUTOMATIC, MANUAL, threshold='full_support')
    two = _rows(MANUAL)[:6]
    with pytest.raises(InputError, match='2 runs: comparing leaderboards needs 3 runs or more'):
        rag.assignment_agreement(NUGGETS, _write(tmp_path / 'a.jsonl', two), _write(tmp_path / 'b.jsonl', two))


def test_the_command_line():
    done = irmetrics('rag', NUGGETS, AUTOMATIC, '--against', MANUAL, '-m', 'all', '-f', 'json')
    assert done.returncode == 0 and done.stderr == ''
    got = json.loads(done.stdout)
    expected = rag.assignment_agreement(NUGGETS, AUTOMATIC, MANUAL)
    assert got['labels']['statistics'] == expected.judgments.to_dict()['statistics']
    assert got['leaderboards']['correlations'] == expected.leaderboard.to_dict()['correlations']
    assert got['leaderboards']['n_resamples'] == 1000 and len(got['warnings']) == 2
    csv = irmetrics('rag', NUGGETS, AUTOMATIC, '--against', MANUAL, '-m', 'vital', '--threshold', 'partial_support',
                    '--resamples', '50', '-f', 'csv')
    assert csv.returncode == 0 and "assignments,Cohen's kappa (binary: >= partial_support)," in csv.stdout
    both = irmetrics('rag', NUGGETS, AUTOMATIC, '--against', MANUAL, '-m', 'all', '--compare')
    assert both.returncode == 2 and '--compare and --against: choose one report' in both.stderr
    answers = irmetrics('rag', NUGGETS, AUTOMATIC, str(EXAMPLE / 'answers.jsonl'), '--against', MANUAL, '-m', 'all')
    assert answers.returncode == 2 and 'give no ANSWERS' in answers.stderr


def test_the_comparison_of_rag_runs_is_over_topics():
    comparison = rag.compare('all vital', NUGGETS, str(EXAMPLE / 'assignments.jsonl'))
    report = comparison.render('table')
    assert 'means over 3 topics.' in report and 'quer' not in report
    assert 'rest on fewer than 6 topics with a difference' in report
    html = comparison.render('html')
    assert 'over the paired topics' in html and 'distribution over 3 topics' in html and 'quer' not in html
    assert rag.compare('all', NUGGETS, str(EXAMPLE / 'assignments.jsonl')).unit == ('topic', 'topics')


def test_the_rag_measures_take_no_ties_parameter():
    for measure in rag.RAG_MEASURES.definitions():
        assert not measure.has_param('ties')
        with pytest.raises(MeasureError, match=f"{measure.name} has no parameter 'ties'"):
            rag.parse_rag_measures(f"{measure.name}(ties='expected')")
    assert irm.parse_measures('nDCG@10')[0].definition.has_param('ties')      # measures of rankings keep it
