"""The ``irmetrics compare`` command: the default table, every format, --output, and its errors
(one line on stderr, exit status 2)."""
import json

import pytest
from cli_support import assert_user_error, irmetrics, run_ok
from repo_paths import ROOT

EXAMPLES = ['examples/qrels.txt', 'examples/run_bm25.txt', 'examples/run_dense.txt']


@pytest.fixture
def root():
    return ROOT


def test_default_table_with_letters_and_legend(root):
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP nDCG@10 RR', '--baseline', 'run_bm25',
                 '--correction', 'holm')
    lines = out.splitlines()
    assert lines[0].split() == ['run', 'AP', 'nDCG@10', 'RR']
    assert lines[2].split() == ['(b)', 'run_dense', '0.5396', 'a', '0.6324', 'a', '0.9000']
    assert lines[4] == 'A letter after a value: significantly better than the run of that letter on that measure.'
    assert 'paired t-test (two-sided), alpha = 0.05; p-values Holm-corrected within each measure' in out
    assert 'Baseline: (a) run_bm25' in out


def test_baseline_by_path_name_or_stem_is_the_same(root):
    outs = {run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--baseline', b)
            for b in ('examples/run_bm25.txt', './examples/run_bm25.txt', 'run_bm25.txt', 'run_bm25')}
    assert len(outs) == 1


@pytest.mark.parametrize('fmt, check', [
    ('markdown', lambda out: out.startswith('| run | AP | P@10 |') and '<sup>a</sup>' in out),
    ('latex', lambda out: (out.startswith('\\begin{table}[t]') and '\\bottomrule' in out
                           and '$\\alpha = 0.01$' in out)),
    ('html', lambda out: out.startswith('<!DOCTYPE html>') and out.count('<svg') == 2),
    ('json', lambda out: json.loads(out)['alpha'] == 0.01 and len(json.loads(out)['rows']) == 2 * 2 * 2),
    ('csv', lambda out: out.splitlines()[0] == ('run,measure,mean,ci_low,ci_high,baseline,delta,delta_ci_low,'
                                                'delta_ci_high,effect_size,wins,ties,losses,test,p_value,'
                                                'p_adjusted,significant,note') and len(out.splitlines()) == 9),
    ('tsv', lambda out: out.splitlines()[0].startswith('run\tmeasure\tmean\t') and len(out.splitlines()) == 9),
    ('jsonl', lambda out: ([json.loads(line)['test'] for line in out.splitlines()]
                           == ['randomization'] * 4 + ['sign'] * 4)),
])
def test_formats(root, fmt, check):
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP P@10', '--alpha', '0.01', '--test', 'randomization',
                 '--test', 'sign', '-f', fmt, '--resamples', '500')
    assert check(out), out[:400]


def test_output_file_and_options(root, tmp_path):
    target = tmp_path / 'report.tex'
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--format', 'latex', '--output', str(target),
                 '--seed', '3', '--test', 'bootstrap', '--resamples', '200', '--ci-method', 'bca', '-p', '3')
    assert out == '' and '0.409' in target.read_text() and '200 resamples, seed 3' in target.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ['report.tex']                  # no temporary file left


def test_a_report_replaces_the_old_file_whole_and_an_unwritable_path_leaves_nothing(root, tmp_path):
    target = tmp_path / 'report.md'
    target.write_text('the old report\n')
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--format', 'markdown', '--output', str(target))
    assert out == '' and target.read_text().startswith('|')
    missing = tmp_path / 'no-such-directory' / 'report.md'
    assert_user_error(irmetrics('compare', *EXAMPLES, '-m', 'AP', '--output', str(missing), cwd=root))
    assert sorted(p.name for p in tmp_path.iterdir()) == ['report.md']


@pytest.mark.parametrize('args, fragments', [
    (['compare', 'examples/qrels.txt', 'examples/run_bm25.txt', '-m', 'AP'], ['two runs or more, got 1']),
    (['compare', *EXAMPLES, '-m', 'AP', '--baseline', 'bm26'], ["unknown baseline 'bm26'"]),
    (['compare', *EXAMPLES, '-m', 'AP NumRet'], ['NumRet is a count', 'cannot be compared']),
    (['compare', *EXAMPLES], ['no measures given']),
    (['compare', *EXAMPLES, '-m', 'AP', '--test', 'z'], ["invalid choice: 'z'"]),
    (['compare', *EXAMPLES, '-m', 'AP', '--correction', 'bh'], ["invalid choice: 'bh'"]),
    (['compare', *EXAMPLES, '-m', 'AP', '--alpha', '0'], ["option 'alpha': expected a number > 0 and < 1"]),
    (['compare', *EXAMPLES, '-m', 'AP', '--resamples', '0'], ["option 'n_resamples': expected an integer >= 1"]),
    (['compare', *EXAMPLES, '-m', 'APX'], ["unknown measure 'APX'"]),
    (['compare', 'examples/qrels.txt', 'examples/run_bm25.txt', 'missing.txt', '-m', 'AP'], ['missing.txt']),
    (['compare', 'examples/qrels.txt', 'examples/run_bm25.txt', 'examples/run_bm25.txt', '-m', 'AP'],
     ['two runs are named']),
    (['compare', *EXAMPLES, '-m', 'AP', '--output', 'examples/run_bm25.txt'],
     ["--output 'examples/run_bm25.txt' is one of the inputs", 'would destroy that input']),
    (['compare', *EXAMPLES, '-m', 'AP', '--output', './examples/../examples/qrels.txt'], ['is one of the inputs']),
    (['compare', *EXAMPLES, '-m', 'AP', '--output', ''], ['--output needs a file name']),
])
def test_errors_are_one_line_and_exit_2(root, args, fragments):
    assert_user_error(irmetrics(*args, cwd=root), *fragments)


def test_show_puts_deltas_and_p_values_in_the_table(root):
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP nDCG@10', '--baseline', 'run_bm25', '--correction', 'holm',
                 '--show', 'delta,p')
    lines = out.splitlines()
    assert lines[2].split() == ['(b)', 'run_dense', '0.5396', 'a', '(+0.1309,', 'p=0.00502)', '0.6324', 'a',
                                '(+0.1962,', 'p=0.00453)']
    assert lines[1].split() == ['(a)', 'run_bm25', '0.4087', '0.4361']
    assert 'In parentheses: the difference from the baseline and the p-value after correction.' in out
    markdown = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', '--show', 'p', '-f', 'markdown')
    assert '| (b) run\\_dense | **0.5396**<sup>a</sup> (p=0.00502) |' in markdown


@pytest.mark.parametrize('args, message', [
    (['--show', 'p'], 'showing delta or p in the table needs one baseline'),
    (['--baseline', 'run_bm25', '--show', 'effect'], "cannot show 'effect'"),
])
def test_show_errors(root, args, message):
    assert_user_error(irmetrics('compare', *EXAMPLES, '-m', 'AP', *args, cwd=root), message)


def test_show_works_in_every_format(root):
    """LaTeX and HTML put the difference and the p-value beside each mean; the formats programs read hold
    them in their columns already, so --show leaves them as they are."""
    def compare(*args):
        return run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', *args)

    latex = compare('--show', 'delta,p', '-f', 'latex')
    assert r'\textbf{0.5396}$^{a}$ (+0.1309, p=0.00502) \\' in latex
    assert 'In parentheses: the difference from the baseline and the p-value after correction.' in latex
    assert '<b>0.5396</b><sup>a</sup> (p=0.00502)' in compare('--show', 'p', '-f', 'html')
    for fmt in ('csv', 'tsv', 'json', 'jsonl'):
        assert compare('--show', 'delta,p', '-f', fmt) == compare('-f', fmt)


def test_several_baselines_on_the_command_line(root, tmp_path):
    copy = tmp_path / 'run_copy.txt'
    copy.write_bytes((root / 'examples' / 'run_dense.txt').read_bytes())
    out = run_ok(root, 'compare', *EXAMPLES, str(copy), '-m', 'AP', '--baseline', 'run_bm25', '--baseline',
                 'run_dense', '-f', 'csv')
    pairs = [tuple(line.split(',')[i] for i in (0, 5)) for line in out.splitlines()[1:]]
    assert pairs == [('run_bm25', ''), ('run_dense', 'run_bm25'), ('run_copy', 'run_bm25'), ('run_copy', 'run_dense')]


def test_ranks_and_slices_on_the_command_line(root, tmp_path):
    out = run_ok(root, 'compare', *EXAMPLES, '-m', 'AP', '--ranks')
    ranks = out.split('Ranks by AP:')[1].splitlines()
    assert ranks[1].split() == ['rank', 'run', 'AP', '95%', 'interval', 'ahead', 'of', 'next', 'separable']
    assert ranks[2].split()[:4] == ['1', 'run_dense', '0.5396', '1-1'] and ranks[3].split()[:4] == ['2', 'run_bm25',
                                                                                                    '0.4087', '2-2']
    (tmp_path / 'slices').write_text(''.join(f'{q} {"a" if q < 406 else "b"}\n' for q in range(401, 411)))
    proc = irmetrics('compare', *EXAMPLES, '-m', 'AP', '--slices', str(tmp_path / 'slices'), '--correction', 'holm',
                     '-f', 'csv', cwd=root)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith('slice,run,measure')
    assert [line.split(',')[0] for line in lines[1:]] == ['a', 'a', 'b', 'b']
    assert_user_error(irmetrics('compare', *EXAMPLES, '-m', 'AP', '--ranks', '-f', 'csv', cwd=root),
                      '--ranks prints with the table format')
    (tmp_path / 'bad').write_text('401 a extra\n')
    assert_user_error(irmetrics('compare', *EXAMPLES, '-m', 'AP', '--slices', str(tmp_path / 'bad'), cwd=root),
                      'bad:1: expected QUERY_ID SLICE, found 3 fields')


def test_warnings_print_once_in_the_report_or_on_stderr(root, tmp_path):
    """RR differs on 3 queries only: the warning is in the report printed (once, not also on stderr), on stderr
    when the report goes to a file or has no place for it (CSV)."""
    args = ['compare', *EXAMPLES, '-m', 'RR', '--baseline', 'run_bm25']
    shown = irmetrics(*args, cwd=root)
    assert shown.returncode == 0 and shown.stderr == '' and 'Warning: paired t-test: 1 of 1 comparisons' in shown.stdout
    for extra in (['-f', 'csv'], ['--output', str(tmp_path / 'report.txt')]):
        proc = irmetrics(*args, *extra, cwd=root)
        assert proc.returncode == 0 and proc.stderr.count('irmetrics: warning: paired t-test') == 1, extra
    assert 'Warning: paired t-test' in (tmp_path / 'report.txt').read_text()


def test_slices_print_in_every_format(root, tmp_path):
    (tmp_path / 'slices').write_text(''.join(f'{q} {"a" if q < 406 else "b"}\n' for q in range(401, 411)))
    args = ['compare', *EXAMPLES, '-m', 'AP', '--slices', str(tmp_path / 'slices'), '--baseline', 'run_bm25']
    latex = run_ok(root, *args, '-f', 'latex', '--show', 'delta')
    assert latex.count(r'\begin{table}') == 2 and "Slice 'b' (5 queries)." in latex and '(+0.' in latex
    assert list(json.loads(run_ok(root, *args, '-f', 'json'))['slices']) == ['a', 'b']
    assert run_ok(root, *args, '-f', 'html').count('<h2>Slice') == 2
