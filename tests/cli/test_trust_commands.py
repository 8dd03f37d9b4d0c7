"""``irmetrics discriminate``, ``irmetrics swap-rates`` and ``irmetrics reproduce``: the same numbers as the
Python functions, every output format, and user errors as one line with exit status 2."""
import csv
import io
import json

import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

import irmetrics as irm

QRELS, BM25, DENSE = 'examples/qrels.txt', 'examples/run_bm25.txt', 'examples/run_dense.txt'


def at_root(*args):
    return irmetrics(*args, cwd=ROOT)


def test_discriminate_prints_the_functions_numbers():
    proc = at_root('discriminate', QRELS, BM25, DENSE, '-m', 'AP nDCG@10', '--test', 'bootstrap', '--seed', '3',
                   '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    dp = irm.discriminative_power('AP nDCG@10', str(ROOT / QRELS), [str(ROOT / BM25), str(ROOT / DENSE)],
                                  test='bootstrap', seed=3)
    assert [r['measure'] for r in rows] == ['AP', 'nDCG@10']
    assert [r['power'] for r in rows] == dp.power.tolist()
    assert [r['required_difference'] for r in rows] == dp.required_difference.tolist()


def test_discriminate_table_and_by_pair():
    proc = at_root('discriminate', QRELS, f'bm25={BM25}', f'dense={DENSE}', '-m', 'AP', '--by-pair')
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ['measure', 'run', 'other', 'difference', 'critical_difference', 'p_value',
                                'significant']
    assert lines[1].split()[:4] == ['AP', 'bm25', 'dense', '0.1309']
    assert lines[2].startswith('randomised Tukey HSD, alpha = 0.05, 1,000 resamples, seed 0; 2 runs (1 pair)')


@pytest.mark.parametrize('fmt', ['table', 'tsv', 'csv', 'json', 'markdown'])
def test_every_format(fmt):
    for command in (['discriminate', QRELS, BM25, DENSE], ['swap-rates', QRELS, BM25, DENSE, '--trials', '20'],
                    ['reproduce', QRELS, '--original', BM25, DENSE, '--reproduced', DENSE, BM25]):
        proc = at_root(*command, '-m', 'AP', '-f', fmt)
        assert proc.returncode == 0, proc.stderr
        first = proc.stdout.splitlines()[0]
        if fmt == 'json':
            assert json.loads(proc.stdout)[0]['measure'] == 'AP'
        elif fmt == 'csv':
            assert next(csv.reader(io.StringIO(proc.stdout)))[0] == 'measure'
        else:
            assert first.lstrip('| ').startswith('measure')


def test_swap_rates_prints_the_functions_numbers():
    proc = at_root('swap-rates', QRELS, BM25, DENSE, '-m', 'P@5', '--trials', '200', '--bin-width', '0.1',
                   '--seed', '2', '-f', 'csv')
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    result = irm.swap_rates('P@5', str(ROOT / QRELS), [str(ROOT / BM25), str(ROOT / DENSE)], trials=200,
                            bin_width=0.1, seed=2)
    assert [(float(r['low']), int(r['pairs']), int(r['swaps'])) for r in rows] == \
        [(row[1], row[3], row[4]) for row in result.table().rows]


def test_reproduce_prints_the_functions_numbers(tmp_path):
    proc = at_root('reproduce', QRELS, '--original', BM25, DENSE, '--reproduced', DENSE, BM25, '-m', 'AP P@5',
                   '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    result = irm.reproducibility('AP P@5', str(ROOT / QRELS), *(str(ROOT / r) for r in (BM25, DENSE, DENSE, BM25)))
    assert rows == [{k: v for k, v in zip(['measure', *r.keys()], [m, *r.values()], strict=True)}
                    for m, r in result.to_dict().items()]
    other = tmp_path / 'other.txt'
    other.write_text(''.join(line for line in (ROOT / QRELS).read_text().splitlines(keepends=True)
                             if line.startswith('401 ')))
    proc = at_root('reproduce', QRELS, '--original', BM25, DENSE, '--reproduced', DENSE, BM25, '-m', 'AP',
                   '--reproduced-qrels', str(other), '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row['rmse_baseline'] is None and row['effect_ratio'] is not None


def test_reproduce_gives_nan_and_the_warning_for_an_improvement_of_0_in_tenths(tmp_path):
    # P@10 in tenths: the original improvements -0.1, -0.1, +0.2 add up to 0 (9.3e-18 in floating point)
    levels = {'ob': [10, 1, 2], 'oa': [9, 0, 4], 'rb': [1, 2, 3], 'ra': [2, 3, 4]}
    (tmp_path / 'qrels').write_text(''.join(f'q{q} 0 {d}{i} {int(d == "r")}\n' for q in range(3) for d in 'rn'
                                            for i in range(10)))
    for name, row in levels.items():
        (tmp_path / name).write_text(''.join(
            f'q{q} Q0 {doc} {rank + 1} {20 - rank} {name}\n' for q, k in enumerate(row)
            for rank, doc in enumerate([f'r{i}' for i in range(k)] + [f'n{i}' for i in range(10 - k)])))
    proc = irmetrics('reproduce', 'qrels', '--original', 'ob', 'oa', '--reproduced', 'rb', 'ra', '-m', 'P@10',
                     '-f', 'json', cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row['effect_ratio'] is None and row['ri_original'] == 0.0
    assert 'P@10: the original runs improve by 0 on average: the effect ratio is undefined (NaN)' in proc.stderr
    with pytest.warns(irm.IrmetricsWarning, match='improve by 0'):
        found = irm.reproducibility('P@10', *(str(tmp_path / n) for n in ('qrels', 'ob', 'oa', 'rb', 'ra')))
    assert [row[k] for k in ('original_baseline', 'ri_reproduced')] == \
        [found.original_baseline[0], found.ri_reproduced[0]]


def test_user_errors():
    assert_user_error(at_root('discriminate', QRELS, BM25, '-m', 'AP'), 'two runs or more')
    assert_user_error(at_root('discriminate', QRELS, BM25, DENSE), '-m/--measure')
    assert_user_error(at_root('discriminate', QRELS, BM25, DENSE, '-m', 'AP', '--test', 't'), "invalid choice: 't'")
    assert_user_error(at_root('discriminate', QRELS, BM25, DENSE, '-m', 'AP', '--alpha', '2'), 'alpha')
    assert_user_error(at_root('swap-rates', QRELS, BM25, DENSE, '-m', 'AP', '--size', '6'), 'size=6')
    assert_user_error(at_root('swap-rates', QRELS, BM25, DENSE, '-m', 'NumRet'), 'summed over queries')
    assert_user_error(at_root('reproduce', QRELS, '--original', BM25, DENSE, '-m', 'AP'), '--reproduced')
    assert_user_error(at_root('reproduce', QRELS, '--original', BM25, DENSE, '--reproduced', DENSE, 'nothere.txt',
                              '-m', 'AP'), 'nothere.txt')


def test_help():
    for command in ('discriminate', 'swap-rates', 'reproduce'):
        proc = at_root(command, '--help')
        assert proc.returncode == 0 and proc.stdout.startswith(f'usage: irmetrics {command} QRELS')
