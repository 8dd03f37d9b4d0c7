"""irmetrics.compare end to end: hand-computed cases, agreement with calc, the pairing rule for
undefined queries, invariants (seed, a run against itself, both directions of a pair), the
corrections' families, errors, renderers and plots."""
import ast
import gzip
import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from repo_paths import ROOT
from scipy import stats

import irmetrics as irm
from irmetrics.comparing import ComparisonError, corrections
from irmetrics.comparing.comparison import COLUMNS

QRELS, BM25, DENSE = (str(ROOT / 'examples' / f) for f in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))
TOL = 1e-12

# Four queries; P@2 of run A is 1, 1/2, 0, 1/2 and of run B 1/2, 1/2, 1/2, 0.
HAND_QRELS = {'q1': {'d1': 1, 'd2': 1}, 'q2': {'d1': 1}, 'q3': {'d1': 1}, 'q4': {'d1': 1, 'd2': 1}}
HAND_A = {'q1': {'d1': 2, 'd2': 1}, 'q2': {'d1': 2, 'x': 1}, 'q3': {'x': 2, 'y': 1}, 'q4': {'d1': 2, 'x': 1}}
HAND_B = {'q1': {'d1': 2, 'x': 1}, 'q2': {'d1': 2, 'x': 1}, 'q3': {'d1': 2, 'x': 1}, 'q4': {'x': 2, 'y': 1}}


def hand():
    return irm.compare('P@2', HAND_QRELS, {'A': HAND_A, 'B': HAND_B}, baseline='B',
                       test=('t', 'wilcoxon', 'sign', 'randomization'))


def row(frame, run, test='t', measure=None):
    sel = (frame.run == run) & (frame.test == test)
    if measure is not None:
        sel &= frame.measure == measure
    (index,) = np.flatnonzero(sel.to_numpy())
    return frame.iloc[index]


def test_hand_computed_four_queries():
    """d = A - B = (1/2, 0, -1/2, 1/2): mean 1/8, variance 11/48, three non-zero differences."""
    frame = hand().to_dataframe()
    a, b = row(frame, 'A'), row(frame, 'B')
    t975 = stats.t.ppf(0.975, 3)
    assert a['mean'] == 0.5 and b['mean'] == 0.375
    half_a = t975 * math.sqrt(1 / 6) / 2                     # A: (1, 1/2, 0, 1/2), variance 1/6
    assert 0.5 - half_a < 0 and 0.5 + half_a > 1                 # t's interval passes P@2's bounds: clipped
    assert (a['ci_low'], a['ci_high']) == (0.0, 1.0)
    sd = math.sqrt(float(Fraction(11, 48)))
    assert a['delta'] == pytest.approx(0.125, abs=TOL)
    assert a['delta_ci_low'] == pytest.approx(0.125 - t975 * sd / 2, abs=TOL)
    assert a['delta_ci_high'] == pytest.approx(0.125 + t975 * sd / 2, abs=TOL)
    assert a['effect_size'] == pytest.approx(0.125 / sd, abs=TOL)
    assert (a['wins'], a['ties'], a['losses']) == (2, 1, 1)
    assert a['p_value'] == pytest.approx(2 * stats.t.sf(0.125 / (sd / 2), 3), abs=TOL)
    # Wilcoxon: ranks 2, 2, 2 (all tied), R+ = 4; exact given the ties: P(2R+ >= 8) = 1/2 -> p = 1.
    # Sign test: 2 of 3 positive -> p = 2 * P(B(3, 1/2) <= 1) = 1.  Randomisation: every |sum| >= 1/2.
    for test in ('wilcoxon', 'sign', 'randomization'):
        assert row(frame, 'A', test)['p_value'] == 1.0
    assert pd.isna(b['baseline']) and math.isnan(b['delta']) and pd.isna(b['wins']) and pd.isna(b['significant'])


def test_hand_computed_five_queries_exact_randomization():
    """d = (0.3, 0.1, 0.2, 0.1, -0.1) at 5 queries: 4 of 32 sign vectors reach |sum| >= 0.6."""
    qrels = {f'q{i}': {'r': 1} for i in range(5)}
    # AP of a run with the relevant document at rank k is 1/k: values below are 1/k differences
    ranks_a, ranks_b = [1, 2, 1, 2, 5], [2, 5, 2, 5, 2]
    def run(ranks):
        return {f'q{i}': {**{f'n{j}': 10 - j for j in range(k - 1)}, 'r': 10 - k + 1} for i, k in enumerate(ranks)}
    cmp = irm.compare('AP', qrels, {'a': run(ranks_a), 'b': run(ranks_b)}, baseline='b', test='randomization')
    d = np.array([1 / a - 1 / b for a, b in zip(ranks_a, ranks_b, strict=True)])
    signs = np.array(list(np.ndindex(*(2,) * 5))) * -2 + 1
    expected = np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-12)
    frame = cmp.to_dataframe()
    assert row(frame, 'a', 'randomization')['p_value'] == pytest.approx(expected, abs=TOL)
    assert cmp.enumerated == {'randomization': 32}


def test_means_and_per_query_values_equal_calc():
    measures = ['AP', 'nDCG@10', 'P(rel=2)@5', 'RR', 'Accuracy@3']
    cmp = irm.compare(measures, QRELS, [BM25, DENSE])
    frame = cmp.to_dataframe()
    per_query = cmp.per_query()
    for path, name in ((BM25, 'run_bm25'), (DENSE, 'run_dense')):
        results = irm.calc(measures, QRELS, path)
        for m, value in results.aggregated.by_measure().items():
            assert row(frame, name, measure=str(m))['mean'] == value          # exactly
            column = per_query[per_query.measure == str(m)][name].to_numpy()
            np.testing.assert_array_equal(column, results.values[:, results.measures.index(m)])


def without(path, queries):
    """The run at ``path`` without some queries (Accuracy is undefined on a query missing from a run)."""
    lines = Path(path).read_text().splitlines()
    return '\n'.join(line for line in lines if line.split()[0] not in queries) + '\n'


def test_undefined_queries_are_paired_where_both_runs_are_defined():
    runs = {'bm25': without(BM25, {'401', '402'}), 'dense': without(DENSE, {'402', '405'})}
    cmp = irm.compare('Accuracy@5 AP', QRELS, runs, baseline='bm25')
    v = cmp.values[:, :, 0]
    both = ~np.isnan(v[0]) & ~np.isnan(v[1])
    assert 2 <= both.sum() < len(cmp.query_ids) and np.isnan(v).any()      # the case is real
    d = v[1, both] - v[0, both]
    frame = cmp.to_dataframe()
    dense = row(frame, 'dense', measure='Accuracy@5')
    assert dense['delta'] == pytest.approx(d.mean(), abs=TOL)
    assert dense['wins'] + dense['ties'] + dense['losses'] == both.sum()
    assert dense['p_value'] == pytest.approx(stats.ttest_rel(v[1, both], v[0, both]).pvalue, abs=TOL)
    assert dense['mean'] == irm.calc_aggregate(['Accuracy@5'], QRELS, runs['dense'])[irm.Accuracy @ 5]
    ap = row(frame, 'dense', measure='AP')                                   # AP pairs every query
    assert ap['wins'] + ap['ties'] + ap['losses'] == len(cmp.query_ids)


def test_same_seed_same_result_and_tests_independent_of_each_other():
    kwargs = dict(test=('randomization', 'bootstrap'), n_resamples=300, ci_method='bca')
    a = irm.compare('AP nDCG@10', QRELS, [BM25, DENSE], seed=3, **kwargs).to_dataframe()
    b = irm.compare('AP nDCG@10', QRELS, [BM25, DENSE], seed=3, **kwargs).to_dataframe()
    c = irm.compare('AP nDCG@10', QRELS, [BM25, DENSE], seed=4, **kwargs).to_dataframe()
    assert a.equals(b) and not a.equals(c)
    alone = irm.compare('AP nDCG@10', QRELS, [BM25, DENSE], seed=3, test='randomization',
                        n_resamples=300).to_dataframe()
    np.testing.assert_array_equal(alone.p_value, a[a.test == 'randomization'].p_value)


def test_seed_none_is_recorded_so_the_result_can_be_reproduced():
    first = irm.compare('AP', QRELS, [BM25, DENSE], test='randomization', n_resamples=200, seed=None)
    again = irm.compare('AP', QRELS, [BM25, DENSE], test='randomization', n_resamples=200, seed=first.settings.seed)
    assert first.to_dataframe().equals(again.to_dataframe())


@pytest.mark.parametrize('test', ['t', 'wilcoxon', 'sign', 'randomization', 'bootstrap', 'tukey'])
def test_a_run_against_itself_differs_by_nothing(test):
    cmp = irm.compare('AP P@10', QRELS, {'x': BM25, 'y': BM25}, baseline='x', test=test, n_resamples=500,
                      ci_method='bootstrap')
    y = cmp.to_dataframe()
    y = y[y.run == 'y']
    assert (y.delta == 0).all() and (y.p_value == 1).all() and (y.effect_size == 0).all()
    assert (y.delta_ci_low == 0).all() and (y.delta_ci_high == 0).all()
    assert (y.ties == len(cmp.query_ids)).all() and not y.significant.any()


def test_all_pairs_gives_each_pair_once():
    """Without a baseline each pair is one row, on its later run (not listed both ways)."""
    cmp = irm.compare('AP RR', QRELS, {'a': BM25, 'b': DENSE, 'c': {'401': {'D401-022': 1}}}, test=('t', 'sign'))
    frame = cmp.to_dataframe()
    assert len(frame) == 2 * 4 * 2                      # tests x (a alone, b-a, c-a, c-b) x measures
    for test in ('t', 'sign'):
        for m in ('AP', 'RR'):
            sel = frame[(frame.test == test) & (frame.measure == m)]
            assert list(zip(sel.run, sel.baseline.fillna(''), strict=True)) == [('a', ''), ('b', 'a'), ('c', 'a'),
                                                                                  ('c', 'b')]
            for _, r in sel.iloc[1:].iterrows():
                other = sel[sel.run == r.baseline].iloc[0]
                assert r.delta == pytest.approx(r['mean'] - other['mean'], abs=1e-12)


@pytest.mark.parametrize('scope', ['measure', 'all'])
def test_correction_families(scope):
    runs = {'a': BM25, 'b': DENSE, 'c': {'401': {'D401-022': 1}, '402': {'D402-001': 1}}}
    cmp = irm.compare('AP RR P@10', QRELS, runs, correction='holm', correction_scope=scope, test=('t', 'tukey'),
                      n_resamples=300)
    raw, adjusted = cmp.pvalue['t'], cmp.p_adjusted['t']
    assert raw.shape == (3, 3)
    if scope == 'measure':
        expected = np.stack([corrections.adjust_pvalues(raw[:, j], 'holm') for j in range(3)], axis=1)
    else:
        expected = corrections.adjust_pvalues(raw, 'holm')
    np.testing.assert_array_equal(adjusted, expected)
    assert cmp.family_size == (3 if scope == 'measure' else 9)
    np.testing.assert_array_equal(cmp.p_adjusted['tukey'], cmp.pvalue['tukey'])     # no further correction
    assert (cmp.significant['t'] == (adjusted <= 0.05)).all()


def test_runs_named_by_stem_or_position(tmp_path):
    frame = irm.compare('AP', QRELS, [BM25, irm.read_trec_run(DENSE)]).to_dataframe()
    assert set(frame.run) == {'run_bm25', 'run2'}
    (tmp_path / 'run_bm25.txt.gz').write_bytes(gzip.compress(Path(BM25).read_bytes()))
    frame = irm.compare('AP', QRELS, [BM25, str(tmp_path / 'run_bm25.txt.gz')]).to_dataframe()
    assert set(frame.run) == {BM25, str(tmp_path / 'run_bm25.txt.gz')}       # the same stem: the paths
    cmp = irm.compare('AP', QRELS, [BM25, DENSE], baseline=BM25)
    assert cmp.baseline == 'run_bm25' == irm.compare('AP', QRELS, [BM25, DENSE], baseline='run_bm25.txt').baseline


def test_dataframe_columns_and_wide_layout():
    cmp = irm.compare('AP nDCG@10', QRELS, {'bm25': BM25, 'dense': DENSE}, baseline='bm25')
    assert list(cmp.to_dataframe().columns) == COLUMNS == [
        'run', 'measure', 'mean', 'ci_low', 'ci_high', 'baseline', 'delta', 'delta_ci_low', 'delta_ci_high',
        'effect_size', 'wins', 'ties', 'losses', 'test', 'p_value', 'p_adjusted', 'significant', 'note']
    wide = cmp.to_dataframe(wide=True)
    assert wide.shape == (2, 2) and list(wide.index) == ['bm25', 'dense']
    assert list(wide.columns) == ['AP', 'nDCG@10']
    assert wide.loc['dense', 'AP'] == irm.calc_aggregate(['AP'], QRELS, DENSE)[irm.AP]


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(runs=[BM25]), ComparisonError, 'two runs or more, got 1'),
    (dict(baseline='nope'), ComparisonError, "unknown baseline 'nope'"),
    (dict(test='ttest'), irm.OptionError, "invalid value 'ttest' for option 'test'"),
    (dict(test=()), ComparisonError, 'no test given'),
    (dict(correction='BH'), irm.OptionError, "invalid value 'BH' for option 'correction'"),
    (dict(correction_scope='run'), irm.OptionError, "invalid value 'run' for option 'correction_scope'"),
    (dict(ci_method='normal'), irm.OptionError, "invalid value 'normal' for option 'ci_method'"),
    (dict(alpha=1.5), irm.OptionError, "option 'alpha'"),
    (dict(ci=0), irm.OptionError, "option 'ci'"),
    (dict(n_resamples=0), irm.OptionError, "option 'n_resamples'"),
    (dict(seed=-1), irm.OptionError, "option 'seed'"),
    (dict(duplicates='some'), irm.OptionError, "option 'duplicates'"),
    (dict(runs={'a': BM25, 'a ': BM25} and [BM25, BM25]), ComparisonError, "two runs are named"),
    (dict(runs=BM25), ComparisonError, 'runs must be a dict'),
])
def test_a_comparison_that_cannot_be_made_and_bad_options_are_one_error_each(kwargs, error, message):
    """A comparison that cannot be made is a ComparisonError; a bad option value, as everywhere, an OptionError."""
    args = dict(runs={'bm25': BM25, 'dense': DENSE}, qrels=QRELS, measures='AP', **{})
    args.update(kwargs)
    with pytest.raises(error, match=message):
        irm.compare(args.pop('measures'), args.pop('qrels'), args.pop('runs'), **args)


def test_counts_cannot_be_compared_and_one_query_is_too_few():
    with pytest.raises(irm.MeasureError, match='NumRet is a count'):
        irm.compare('AP NumRet', QRELS, [BM25, DENSE])
    with pytest.raises(ComparisonError, match='needs two or more'):
        irm.compare('AP', {'401': {'D401-022': 2}}, [BM25, DENSE])


def test_error_types_are_irmetrics_errors():
    assert issubclass(ComparisonError, irm.IrmetricsError) and issubclass(ComparisonError, ValueError)


# --- renderers ------------------------------------------------------------------------------------
@pytest.fixture(scope='module')
def example():
    return irm.compare('AP nDCG@10 RR', QRELS, {'bm25': BM25, 'dense': DENSE}, baseline='bm25', correction='holm')


def test_text_table_has_letters_and_legend(example):
    text = str(example)
    lines = text.splitlines()
    assert lines[0].split() == ['run', 'AP', 'nDCG@10', 'RR']
    assert lines[1].startswith('(a) bm25') and lines[2].startswith('(b) dense')
    assert lines[2].split()[2:] == ['0.5396', 'a', '0.6324', 'a', '0.9000']     # RR is not significant
    assert 'Test: paired t-test (two-sided), alpha = 0.05; p-values Holm-corrected within each measure' in text
    assert 'Baseline: (a) bm25' in text


def test_a_run_significantly_worse_than_the_baseline_marks_the_baseline(example):
    cmp = irm.compare('AP', QRELS, {'dense': DENSE, 'bm25': BM25}, baseline='bm25')
    assert str(cmp).splitlines()[1].split() == ['(a)', 'dense', '0.5396', 'b']


def test_markdown(example):
    md = example.render('markdown')
    assert '| run | AP | nDCG@10 | RR |' in md and '|:---|---:|---:|---:|' in md
    assert '| (b) dense | **0.5396**<sup>a</sup> | **0.6324**<sup>a</sup> | **0.9000** |' in md
    assert 'Holm-corrected' in md


def test_latex_booktabs_bold_superscripts_caption(example):
    tex = example.render('latex')
    for piece in (r'\toprule', r'\midrule', r'\bottomrule', r'\begin{tabular}{llrrr}', r'\caption{',
                  r'paired t-test', r'$\alpha = 0.05$', 'Holm-corrected', r'\label{tab:comparison}',
                  r'b & dense & \textbf{0.5396}$^{a}$ & \textbf{0.6324}$^{a}$ & \textbf{0.9000} \\'):
        assert piece in tex, piece
    odd = irm.compare('AP', QRELS, {'run_1 & 50%': BM25, 'b': DENSE}).render('latex')
    assert r'run\_1 \& 50\%' in odd


def test_html_is_one_self_contained_page_with_inline_svg(example):
    page = example.render('html')
    assert page.startswith('<!DOCTYPE html>') and page.rstrip().endswith('</html>')
    assert '<sup>a</sup>' in page and 'Holm-corrected' in page and 'Every comparison' in page
    assert page.count('<svg') == 2 * 3                     # a distribution and a delta plot per measure
    assert 'src="http' not in page and '<link' not in page


class _Cells(__import__('html.parser').parser.HTMLParser):
    """The rows of each table of a page, as lists of cell texts."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == 'table':
            self.tables.append([])
        elif tag == 'tr':
            self.tables[-1].append([])
        elif tag in ('td', 'th'):
            self.cell = ''

    def handle_endtag(self, tag):
        if tag in ('td', 'th'):
            self.tables[-1][-1].append(' '.join(self.cell.split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def tables_of(page: str) -> list[list[list[str]]]:
    parser = _Cells()
    parser.feed(page)
    return parser.tables


def test_the_html_report_lists_each_pair_once_in_columns_that_fit():
    """Three runs, no baseline: 3 pairs x 2 measures = 6 rows (not 12, each pair both ways), eleven
    columns (the last a note saying why a small p-value is not significant), each value with its interval
    in one cell; the plots in a grid.  (Looked at in headless Chromium at 1,280 and 1,920 px: every column
    visible, no horizontal scrolling.)"""
    cmp = irm.compare('AP RR', QRELS, {'a': BM25, 'b': DENSE, 'c': {'401': {'D401-022': 1}}})
    page = cmp.render('html')
    summary, detail = tables_of(page)
    assert [row[0] for row in summary[1:]] == ['(a) a', '(b) b', '(c) c']
    assert len(detail[0]) == 11 and detail[0][3] == 'mean[95% CI]' and detail[0][8] == 'p-value(adjusted)'
    pairs = [(row[0], row[1], row[2]) for row in detail[1:]]
    assert pairs == [('b', 'a', 'AP'), ('b', 'a', 'RR'), ('c', 'a', 'AP'), ('c', 'a', 'RR'), ('c', 'b', 'AP'),
                     ('c', 'b', 'RR')]
    assert re.fullmatch(r'[0-9.]+\[[0-9.]+, [0-9.]+\]', detail[1][3])           # the value, then its interval
    assert '<div class="plots">' in page and page.count('<figure>') == 2


def test_the_html_report_says_why_plots_are_missing(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith('matplotlib'):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, '__import__', no_matplotlib)
    page = irm.compare('AP', QRELS, {'a': BM25, 'b': DENSE}).render('html')
    assert '<svg' not in page and 'The plots are left out: matplotlib is not installed' in page


def test_a_comparison_shows_itself_in_a_notebook(example):
    shown = example._repr_html_()
    assert shown.count('<table>') == 1 and '<sup>a</sup>' in shown and 'Every comparison' not in shown


def test_json_holds_settings_and_every_row(example):
    doc = json.loads(example.render('json'))
    assert doc['tests'] == ['t'] and doc['correction'] == 'holm' and doc['alpha'] == 0.05
    assert len(doc['rows']) == len(example.to_dataframe())
    base = next(r for r in doc['rows'] if r['run'] == 'bm25')
    assert base['delta'] is None and base['baseline'] is None


def test_several_tests_give_one_table_each(example):
    cmp = irm.compare('AP', QRELS, {'bm25': BM25, 'dense': DENSE}, test=('t', 'sign'))
    text = str(cmp)
    assert 'Test: paired t-test' in text and 'Test: sign test' in text
    assert cmp.render('latex').count(r'\begin{table}') == 2


# --- plots ----------------------------------------------------------------------------------------
def test_plots_return_figures(example):
    from matplotlib.figure import Figure
    deltas = example.plot_deltas('AP')
    dist = example.plot_distribution('nDCG@10', kind='violin')
    pr = irm.plot_pr_curve(QRELS, {'bm25': BM25, 'dense': DENSE})
    assert all(isinstance(f, Figure) for f in (deltas, dist, pr))
    (ax,) = pr.axes
    assert ax.get_xlabel() == 'recall' and ax.get_ylabel() == 'interpolated precision'
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ['bm25', 'dense']
    expected = irm.calc_aggregate([f'IPrec@{r / 10:.1f}' for r in range(11)], QRELS, DENSE)
    np.testing.assert_array_equal(lines[1].get_ydata(), list(expected.values()))
    bars = deltas.axes[0].patches
    heights = [b.get_height() for b in bars]
    assert len(bars) == 10 and heights == sorted(heights, reverse=True)


def test_plot_errors(example):
    with pytest.raises(irm.MeasureError, match='not one of the compared measures'):
        example.plot_deltas('P@5')
    no_baseline = irm.compare('AP', QRELS, [BM25, DENSE])
    with pytest.raises(ComparisonError, match='needs a baseline'):
        no_baseline.plot_deltas('AP')
    assert no_baseline.plot_deltas('AP', baseline=BM25) is not None


# --- structure ------------------------------------------------------------------------------------
def test_import_irmetrics_stays_light():
    code = ('import sys, irmetrics; heavy = [m for m in sys.modules if m.split(".")[0] in '
            '("scipy", "matplotlib", "pandas", "statsmodels")]; print(heavy)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == '[]'


ALLOWED_CORE = {'irmetrics.api.evaluator', 'irmetrics.api.calc', 'irmetrics.api.results', 'irmetrics.api.run_names',
                'irmetrics.api.options', 'irmetrics.api.argument_order', 'irmetrics.rendering.result',
                'irmetrics.dialects', 'irmetrics.algebra.measure', 'irmetrics.constraints', 'irmetrics.errors',
                'irmetrics.data.budget', 'irmetrics.data.inputs', 'irmetrics.data.items',
                'irmetrics.rendering.figures', 'irmetrics.rendering.formats', 'irmetrics.rendering.markup',
                'irmetrics.rendering.records', 'irmetrics.rendering.text', 'irmetrics.rendering.values'}


def imports_of(path):
    """Absolute names of the irmetrics modules a module imports (top level or inside functions)."""
    tree = ast.parse(path.read_text())
    package = '.'.join(path.relative_to(ROOT).parent.parts)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split('.')[:len(package.split('.')) - node.level + 1]
                base = '.'.join(parts + ([node.module] if node.module else []))
            else:
                base = node.module
            if base.startswith('irmetrics'):
                out.add(base)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith('irmetrics')}
    return out


def test_compare_sits_on_the_public_core_only_and_core_never_imports_it():
    modules = sorted((ROOT / 'irmetrics' / 'comparing').glob('*.py'))
    gateways = set()
    for path in modules:
        for name in imports_of(path):
            if name.startswith('irmetrics.comparing'):
                continue
            assert name in ALLOWED_CORE, (path.name, name)
            gateways.add(path.name)
    assert gateways == {'base.py'}
    below = [p for room in ('algebra', 'api', 'data', 'dialects', 'measures', 'providers', 'rendering')
             for p in (ROOT / 'irmetrics' / room).rglob('*.py')]
    assert len(below) > 50
    for path in below:
        assert not [n for n in imports_of(path) if n.startswith('irmetrics.comparing')], path


def test_a_comparisons_digits_do_not_depend_on_what_else_is_compared():
    """AP's row is the same to the last bit whether AP is compared alone or with other measures/runs."""
    alone = irm.compare('AP', QRELS, {'b': BM25, 'd': DENSE}, baseline='b').to_dataframe()
    more = irm.compare('nDCG@10 AP RR P@5', QRELS, {'b': BM25, 'd': DENSE, 'x': {'401': {'D401-022': 1}}},
                       baseline='b').to_dataframe()
    a = alone[(alone.run == 'd')].drop(columns='p_adjusted').reset_index(drop=True)
    b = more[(more.run == 'd') & (more.measure == 'AP')].drop(columns='p_adjusted').reset_index(drop=True)
    assert a.equals(b)


def test_the_comparison_package_loads_on_first_use():
    code = ('import sys, irmetrics as irm; before = "irmetrics.comparing" in sys.modules; f = irm.compare; '
            'print(before, "irmetrics.comparing" in sys.modules, f.__module__, irm.Comparison.__name__)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ['False', 'True', 'irmetrics.comparing.comparison', 'Comparison']


HOSTILE = '<script>alert(1)</script> | *x* _y_ [z](u) `c` & $ % # { } ~ ^ \\ <b>'


def test_a_hostile_run_name_stays_text_in_every_report():
    """Every place a run name appears, in every format: rendered by a real Markdown library it stays
    text (no live tag), in LaTeX each special character is a command that prints it, in HTML escaped."""
    from markdown_it import MarkdownIt
    cmp = irm.compare('AP', QRELS, {HOSTILE: BM25, 'dense': DENSE}, baseline=HOSTILE)
    rendered = MarkdownIt().enable('table').render(cmp.render('markdown'))
    assert '<script>' not in rendered and '<b>' not in rendered
    assert '&lt;script&gt;alert(1)&lt;/script&gt;' in rendered
    assert rendered.count('&lt;script&gt;') == 2                          # the table's row and the legend
    escaped = (r'\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{} \textbar{} *x* \_y\_ '
               r'[z](u) `c` \& \$ \% \# \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{} '
               r'\textless{}b\textgreater{}')
    row = [line for line in cmp.render('latex').splitlines() if line.startswith('    a & ')][0]
    assert row.startswith(f'    a & {escaped} & ')
    assert '<script>' not in cmp.render('html')


def test_several_baselines_compare_every_run_with_each_and_each_other():
    from irmetrics.comparing.statistics import pairs_of
    assert pairs_of(['a', 'b', 'c', 'd'], ('b', 'd')) == [(1, 0), (1, 2), (1, 3), (3, 0), (3, 2)]
    assert pairs_of(['a', 'b', 'c'], 'b') == [(1, 0), (1, 2)]
    runs = {'a': BM25, 'b': DENSE, 'c': {'401': {'D401-022': 1}}}
    cmp = irm.compare('AP', QRELS, runs, baseline=['a', 'b'])
    assert cmp.baselines == ('a', 'b') and cmp.pairs == ((0, 1), (0, 2), (1, 2))
    frame = cmp.to_dataframe()
    assert list(zip(frame.run, frame.baseline.fillna(''), strict=True)) == [('a', ''), ('b', 'a'), ('c', 'a'),
                                                                             ('c', 'b')]
    assert 'Baselines: (a) a, (b) b (compared with every other run and with each other)' in str(cmp)
    assert '<Comparison: 3 runs x 1 measures' in repr(cmp) and "against 'a', 'b'" in repr(cmp)
    with pytest.raises(ComparisonError, match='several baselines'):
        cmp.plot_deltas('AP')
    with pytest.raises(ComparisonError, match='needs one baseline'):
        cmp.render(show=('p',))
    with pytest.raises(ComparisonError, match='name each baseline once'):
        irm.compare('AP', QRELS, runs, baseline=['a', 'a'])
