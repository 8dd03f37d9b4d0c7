"""``irmetrics fuse`` and ``irmetrics compare --fuse``: the written run is irm.fuse's to the last bit (TREC text,
Parquet, standard output), ``--list`` names every method and normalisation, bad input is one error line, and a
fusion compared beside its parts has the mean irm.calc_aggregate gives its run."""
import csv
import io
import shutil

import pytest
from cli_support import assert_user_error, irmetrics, run_ok
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.cli.fuse_command import norm_formulas
from irmetrics.cli.fusion_options import Fusion, fusion
from irmetrics.fusion.methods import ALIASES, METHODS
from irmetrics.fusion.normalise import NORMALISATIONS
from irmetrics.fusion.trained import TRAINED


@pytest.fixture
def examples(tmp_path):
    for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'):
        shutil.copy(ROOT / 'examples' / name, tmp_path / name)
    return tmp_path


RUNS = ['bm25=run_bm25.txt', 'dense=run_dense.txt']


def _rows(run):
    """(query, document, score) of every row in trec_eval's order: equal only when every score is the same double."""
    return [(d.query_id, d.doc_id, d.score) for d in run]


def _expected(directory, **options):
    return irm.fuse({'bm25': str(directory / 'run_bm25.txt'), 'dense': str(directory / 'run_dense.txt')}, **options)


@pytest.mark.parametrize('words, options, tag', [
    ([], {}, 'rrf(bm25,dense)'),
    (['--method', 'reciprocal_rank_fusion', '--param', 'k=20', '--depth', '7'], {'k': 20, 'depth': 7},
     'rrf(bm25,dense)'),
    (['--method', 'wsum', '--weights', '0.3,0.7', '--norm', 'zmuv'], {'method': 'wsum', 'weights': [0.3, 0.7],
                                                                       'norm': 'zmuv'}, 'wsum(bm25,dense)'),
    (['--method', 'comb_gmnz', '--param', 'gamma=0.5', '--name', 'mine'], {'method': 'comb_gmnz', 'gamma': 0.5},
     'mine'),
    (['--method', 'condorcet', '--norm', 'none'], {'method': 'condorcet', 'norm': None}, 'condorcet(bm25,dense)'),
])
def test_the_written_run_is_irm_fuse_to_the_last_bit(examples, words, options, tag):
    expected = _rows(_expected(examples, **options))
    for out in ('fused.txt', 'fused.parquet'):
        assert run_ok(examples, 'fuse', *RUNS, *words, '-o', out) == ''
        assert _rows(irm.to_run(str(examples / out))) == expected
    lines = (examples / 'fused.txt').read_text().splitlines()
    assert len(lines) == len(expected) and {line.split()[-1] for line in lines} == {tag}
    assert lines[0].split()[1:4:2] == ['Q0', '1']
    assert run_ok(examples, 'fuse', *RUNS, *words) == (examples / 'fused.txt').read_text()        # no -o: stdout
    assert run_ok(examples, 'fuse', *RUNS, *words, '-o', '-') == (examples / 'fused.txt').read_text()


def test_runs_named_by_their_stems_name_the_tag(examples):
    out = run_ok(examples, 'fuse', 'run_bm25.txt', 'run_dense.txt', '--method', 'sum')
    assert out.splitlines()[0].split()[-1] == 'comb_sum(run_bm25,run_dense)'


def test_list_names_every_method_alias_and_normalisation(examples):
    out = run_ok(examples, 'fuse', '--list')
    names = [line.split()[0] for line in out.splitlines()[3:3 + len(METHODS) + len(TRAINED)]]
    assert names == [*METHODS, *TRAINED]
    for method in [*METHODS.values(), *TRAINED.values()]:
        assert method.formula.split()[0] in out and method.citation.split(',')[0] in out
    rrf = next(line for line in out.splitlines() if line.startswith('rrf '))
    assert rrf.split() == ['rrf', 'k=60.0', 'no', 'none', 'no', 'reciprocal_rank_fusion']
    wsum = next(line for line in out.splitlines() if line.startswith('wsum '))
    assert wsum.split() == ['wsum', '-', 'yes', 'min-max', 'no', 'weighted_sum']
    assert all(alias in out for alias in ALIASES)
    formulas = norm_formulas()
    assert set(formulas) == set(NORMALISATIONS) and all(formulas.values())
    assert formulas['min-max'] == '(x - min) / (max - min)'
    assert all(f'{name}  ' in out for name in NORMALISATIONS)


@pytest.mark.parametrize('words, fragments', [
    (['--method', 'rfr'], ["method='rfr' is no fusion method", "did you mean 'rrf'", 'irmetrics fuse --list']),
    (['--method', 'wsum', '--weights', '0.3,0.3,0.4'], ['weights: one number for each of the 2 runs; got 3']),
    (['--method', 'wsum', '--weights', '-0.5,1.5'], ['weights: finite numbers >= 0', '[-0.5, 1.5]']),
    (['--method', 'wsum', '--weights', '0.5,x'], ["'0.5,x' is not numbers separated by commas"]),
    (['--weights', '0.5,0.5'], ['rrf takes no weights; the weighted methods are mixed, w_bordafuse']),
    (['--method', 'comb_sum', '--param', 'k=60'], ["comb_sum has no parameter 'k': it takes no parameter"]),
    (['--param', 'phi=0.5'], ["rrf has no parameter 'phi': it takes k=60.0"]),
    (['--param', 'k=-1'], ["invalid value -1 for parameter of rrf 'k'", '>= 0']),
    (['--param', 'k'], ["'k' is not NAME=VALUE"]),
    (['--norm', 'minmax2'], ["argument --norm: invalid choice: 'minmax2'"]),
    (['--depth', '0'], ["invalid value 0 for option 'depth'"]),
    (['-o', 'fused.txt.gz'], ['written uncompressed', '| gzip > fused.txt.gz']),
    (['--train-qrels', 'qrels.txt'], ['--train-qrels QRELS and --train-run RUN... together']),
    (['--train-qrels', 'qrels.txt', '--train-run', 'run_bm25.txt'], ['one training run for each of the 2 runs']),
])
def test_bad_input_is_one_error_line(examples, words, fragments):
    assert_user_error(irmetrics('fuse', *RUNS, *words, cwd=examples), *fragments)
    assert sorted(p.name for p in examples.iterdir()) == ['qrels.txt', 'run_bm25.txt', 'run_dense.txt']


def test_one_run_is_no_fusion(examples):
    assert_user_error(irmetrics('fuse', 'run_bm25.txt', cwd=examples), 'fusing takes two runs or more, got 1')


@pytest.mark.parametrize('output', ['run_dense.txt', './run_dense.txt', 'sub/../run_dense.txt', 'link.txt'])
def test_an_output_that_is_an_input_is_refused(examples, output):
    (examples / 'sub').mkdir(exist_ok=True)
    (examples / 'link.txt').unlink(missing_ok=True)
    (examples / 'link.txt').symlink_to(examples / 'run_dense.txt')
    before = (examples / 'run_dense.txt').read_bytes()
    assert_user_error(irmetrics('fuse', *RUNS, '-o', output, cwd=examples), f"-o {output!r} is one of the inputs")
    assert (examples / 'run_dense.txt').read_bytes() == before


def _csv_means(out):
    return {(row['run'], row['measure']): float(row['mean']) for row in csv.DictReader(io.StringIO(out))}


def test_compare_fuse_compares_the_fusions_beside_their_parts(examples):
    out = run_ok(examples, 'compare', 'qrels.txt', *RUNS, '-m', 'AP nDCG@10', '--fuse', 'rrf', '--fuse',
                 'wsum:0.3,0.7', '--fuse', 'hybrid=wsum:0.3,0.7,norm=zmuv', '--fuse', 'rrf:k=20', '-f', 'csv',
                 '--baseline', 'bm25')
    means = _csv_means(out)
    fused = {'rrf': {}, 'wsum:0.3,0.7': {'method': 'wsum', 'weights': [0.3, 0.7]},
             'hybrid': {'method': 'wsum', 'weights': [0.3, 0.7], 'norm': 'zmuv'}, 'rrf:k=20': {'k': 20}}
    assert {run for run, _ in means} == {'bm25', 'dense', *fused}
    for name, options in fused.items():
        expected = irm.calc_aggregate(['AP', 'nDCG@10'], str(examples / 'qrels.txt'), _expected(examples, **options))
        assert [means[name, m] for m in ('AP', 'nDCG@10')] == list(expected.values()), name
    table = run_ok(examples, 'compare', 'qrels.txt', *RUNS, '-m', 'AP', '--fuse', 'rrf', '--baseline', 'bm25')
    assert table.splitlines()[3].split() == ['(c)', 'rrf', f'{means["rrf", "AP"]:.4f}', 'a']


def test_compare_fuse_may_be_the_baseline(examples):
    out = run_ok(examples, 'compare', 'qrels.txt', *RUNS, '-m', 'AP', '--fuse', 'rrf', '--baseline', 'rrf',
                 '-f', 'csv')
    assert {(row['run'], row['baseline']) for row in csv.DictReader(io.StringIO(out))} == {
        ('bm25', 'rrf'), ('dense', 'rrf'), ('rrf', '')}


@pytest.mark.parametrize('words, fragments', [
    (['--fuse', 'rrf', '--fuse', 'rrf'], ["two runs are named 'rrf'", '--fuse NAME=METHOD']),
    (['--fuse', 'bm25=rrf'], ["two runs are named 'bm25'"]),
    (['--fuse', 'rfr'], ["method='rfr' is no fusion method", "did you mean 'rrf'"]),
    (['--fuse', 'wsum:0.3,0.3,0.4'], ['weights: one number for each of the 2 runs; got 3']),
    (['--fuse', 'wsum:-1,2'], ['weights: finite numbers >= 0']),
    (['--fuse', 'comb_sum:k=60'], ["comb_sum has no parameter 'k'"]),
    (['--fuse', ':0.5'], ["':0.5' names no method"]),
])
def test_compare_fuse_errors_are_one_line(examples, words, fragments):
    assert_user_error(irmetrics('compare', 'qrels.txt', *RUNS, '-m', 'AP', '--quiet', *words, cwd=examples),
                      *fragments)


def test_a_fusion_is_read_from_its_words():
    assert fusion('rrf') == Fusion('rrf', 'rrf')
    assert fusion('rrf:k=20') == Fusion('rrf:k=20', 'rrf', params={'k': 20})
    assert fusion('hybrid=wsum:0.3,0.7,norm=zmuv') == Fusion('hybrid', 'wsum', [0.3, 0.7], {}, 'zmuv')
    assert fusion('rbc:phi=0.9,norm=rank') == Fusion('rbc:phi=0.9,norm=rank', 'rbc', None, {'phi': 0.9}, 'rank')


def test_a_trained_method_fuses_its_training_queries_only_with_in_sample(examples):
    """The example runs as their own training data: refused (the scores would be fitted to the judgments they are
    evaluated on), unless --in-sample says so; then the run is irm.fuse's with in_sample=True."""
    training = ['--train-qrels', 'qrels.txt', '--train-run', 'run_bm25.txt', 'run_dense.txt']
    assert_user_error(irmetrics('fuse', *RUNS, '--method', 'probfuse', '--param', 'n_segments=5', *training,
                                cwd=examples), 'in_sample=True')
    assert run_ok(examples, 'fuse', *RUNS, '--method', 'probfuse', '--param', 'n_segments=5', *training,
                  '--in-sample', '-o', 'fused.txt') == ''
    train = (str(examples / 'qrels.txt'), [str(examples / 'run_bm25.txt'), str(examples / 'run_dense.txt')])
    assert _rows(irm.to_run(str(examples / 'fused.txt'))) == _rows(
        _expected(examples, method='probfuse', n_segments=5, train=train, in_sample=True))
