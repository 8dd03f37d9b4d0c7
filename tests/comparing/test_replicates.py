"""comparing/replicates.py: resamples held whole when they fit the memory budget, else drawn again block by
block; every statistic the same to the last bit either way (order statistics by radix selection, sums of
counts), and every command that resamples bounded by its memory limit."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.comparing import replicates as R
from irmetrics.comparing.leaderboard import ranked_quantile
from irmetrics.errors import IrmetricsWarning, OptionError

pytestmark = pytest.mark.slow          # millions of resamples, some in new interpreters


def drawn(values: np.ndarray, block: int):
    """Draws giving ``values`` (rows x columns) in blocks of ``block`` rows, the columns in two groups drawn one
    after the other (as the bootstrap draws columns with different valid queries)."""
    half = values.shape[1] // 2
    groups = [np.arange(half), np.arange(half, values.shape[1])]

    def draws(rng):
        for columns in groups:
            for start in range(0, len(values), block):
                rng.random(3)                                       # a generator is used between blocks
                yield start, min(start + block, len(values)), columns, values[start:start + block][:, columns]
    return draws


@pytest.mark.parametrize('gathered', [R.GATHERED, 7])
@pytest.mark.parametrize('ranked', [False, True])
def test_order_statistics_of_streamed_resamples_are_those_of_held_ones(monkeypatch, gathered, ranked):
    """Ties, negative values, zeros and values a few units apart in the last place: each rank's value, by
    radix selection in passes over blocks drawn again (gathering a small bin, or reading all 64 bits; the
    first pass counted while the resamples were drawn, when ``ranked``), is the one a sort of the held
    resamples gives; sums of counts too; the generator ends where one drawing leaves it."""
    monkeypatch.setattr(R, 'GATHERED', gathered)
    rng = np.random.default_rng(4)
    rows = 60_000
    values = np.concatenate([np.round(rng.normal(0, 1, (rows, 4)), 2), rng.normal(0, 1e-300, (rows, 4)),
                             1 + np.arange(rows)[:, None] * np.finfo(float).eps * np.ones((1, 4))], axis=1)
    values[::7, 0] = 0.0
    ranks = np.stack([np.zeros(12, int), np.full(12, rows - 1), rng.integers(0, rows, 12), rng.integers(0, rows, 12)])
    first, second = np.random.default_rng(9), np.random.default_rng(9)
    held = R.Replicates(rows, 12, drawn(values, 20_000), first, budget=1 << 30)
    streamed = R.Replicates(rows, 12, drawn(values, 20_000), second, budget=16 << 20, ranked=ranked)
    assert held.held is not None and streamed.held is None and (streamed._top is not None) == ranked
    assert first.random() == second.random()
    for part in (slice(None), slice(3, 9)):
        a, b = held.part(part), streamed.part(part)
        chosen = ranks[:, part]
        np.testing.assert_array_equal(a.smallest(chosen), np.sort(values[:, part], axis=0)[chosen, np.arange(a.width)])
        np.testing.assert_array_equal(b.smallest(chosen), a.smallest(chosen))
        shift = np.linspace(-1, 1, a.width)
        distance = lambda x, c, shift=shift: np.abs(x - shift[c])      # noqa: E731
        below = lambda x, c, shift=shift: (x < shift[c]).sum(axis=0)   # noqa: E731
        np.testing.assert_array_equal(b.smallest(chosen, distance), a.smallest(chosen, distance))
        np.testing.assert_array_equal(b.total(below), a.total(below))


def test_a_rank_quantile_from_counts_is_numpys_inverted_cdf():
    rng = np.random.default_rng(1)
    for total in (1, 2, 3, 10, 999, 1000, 10_000):
        ranks = rng.integers(1, 6, (total, 4))
        count = np.stack([np.bincount(ranks[:, r], minlength=6) for r in range(4)])
        for q in (0.0, 0.025, 0.05, 0.1, 0.5, 0.95, 0.975, 0.999, 1.0, 1 / 3):
            np.testing.assert_array_equal(ranked_quantile(count, q),
                                          np.quantile(ranks, q, axis=0, method='inverted_cdf'))


def runs_and_qrels(seed: int, n_runs: int = 3, n_queries: int = 12):
    rng = np.random.default_rng(seed)
    qrels = {f'q{q}': {f'd{d}': int(rng.integers(0, 3)) for d in range(10)} for q in range(n_queries)}
    runs = {f'r{r}': {f'q{q}': {f'd{d}': float(rng.random()) for d in range(10)} for q in range(n_queries)}
            for r in range(n_runs)}
    return qrels, runs


#: 300,000 resamples of 12 means (3 runs, 3 pairs, 2 measures) take 29 MB: 3 copies fit 1 GB, not 170 MB
#: (just above the block's 160 MiB), so the same comparison is made held and streamed
RESAMPLES, HOLDS, STREAMS = 300_000, '1G', '170M'


@pytest.mark.parametrize('ci_method', ['bootstrap', 'bca'])
def test_a_comparison_within_a_small_memory_limit_gives_the_same_numbers(ci_method):
    qrels, runs = runs_and_qrels(3)
    made = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        for limit in (HOLDS, STREAMS):
            made[limit] = irm.compare(['AP', 'P@5'], qrels, runs, test=['bootstrap', 'randomization', 'tukey'],
                                      ci_method=ci_method, n_resamples=RESAMPLES, seed=5, memory_limit=limit)
    held, streamed = made[HOLDS], made[STREAMS]
    for name in ('mean_ci', 'delta_ci'):
        np.testing.assert_array_equal(getattr(streamed, name), getattr(held, name))
    for test in ('bootstrap', 'randomization', 'tukey'):
        np.testing.assert_array_equal(streamed.pvalue[test], held.pvalue[test])
    assert streamed.render('csv') == held.render('csv')
    assert streamed.ranks('AP').equals(held.ranks('AP'))


@pytest.mark.parametrize('test', ['bootstrap', 'tukey'])
def test_discriminative_power_within_a_small_memory_limit_gives_the_same_numbers(test):
    qrels, runs = runs_and_qrels(8, n_runs=4, n_queries=10)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        found = [irm.discriminative_power(['AP', 'P@5'], qrels, runs, test=test, n_resamples=RESAMPLES,
                                          memory_limit=limit) for limit in ('2G', STREAMS)]
    np.testing.assert_array_equal(found[1].critical_difference, found[0].critical_difference)
    np.testing.assert_array_equal(found[1].pvalue, found[0].pvalue)


def test_a_memory_limit_below_one_block_is_refused_at_once():
    qrels, runs = runs_and_qrels(1)
    for call in (lambda: irm.compare('AP', qrels, runs, test='bootstrap', memory_limit='64M'),
                 lambda: irm.compare('AP', qrels, runs, ci_method='bca', memory_limit='64M'),
                 lambda: irm.discriminative_power('AP', qrels, runs, memory_limit='64M'),
                 lambda: irm.swap_rates('AP', qrels, runs, memory_limit='64M')):
        with pytest.raises(OptionError, match=r'a memory limit of 64.0 MiB holds no block of resamples \(one takes '
                                              r'about 160 MiB, whatever their number\): give 160 MiB or more'):
            call()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        made = irm.compare('AP', qrels, runs, memory_limit='64M')       # Student's t resamples nothing
    with pytest.raises(OptionError, match='ranks: a memory limit of 64.0 MiB holds no block'):
        made.ranks('AP')


def test_the_commands_that_resample_take_a_memory_limit_and_stay_within_it(tmp_path):
    """compare --test bootstrap of 8,000,000 resamples on 10 queries: held whole, the replicates peak at
    about 390 MB; within --memory-limit 200M they are drawn again for the test, and the peak stays within the
    limit above the interpreter's own (the same command with a thousand resamples: about 135 MB), with the
    same output."""
    qrels, runs = runs_and_qrels(2, n_runs=2, n_queries=10)
    (tmp_path / 'qrels.txt').write_text(''.join(f'{q} 0 {d} {g}\n' for q, docs in qrels.items()
                                                for d, g in docs.items()))
    for name, run in runs.items():
        (tmp_path / f'{name}.txt').write_text(''.join(f'{q} Q0 {d} 0 {s} {name}\n' for q, docs in run.items()
                                                      for d, s in docs.items()))
    measure = ('import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, '
               'stderr=subprocess.DEVNULL); out = p.stdout.read(); _, s, u = os.wait4(p.pid, 0); '
               'import hashlib; print(os.waitstatus_to_exitcode(s), u.ru_maxrss, hashlib.sha256(out).hexdigest())')

    def peak(resamples: int, *limit: str) -> tuple[int, float, str]:
        done = subprocess.run([sys.executable, '-c', measure, sys.executable, '-m', 'irmetrics', 'compare',
                               'qrels.txt', 'r0.txt', 'r1.txt', '-m', 'AP', '--test', 'bootstrap', '--resamples',
                               str(resamples), '-f', 'csv', *limit],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        status, kb, *output = done.stdout.split()
        return int(status), int(kb) / 1024, ' '.join(output)
    status, baseline, _ = peak(1000)
    assert status == 0
    status, bounded, within = peak(8_000_000, '--memory-limit', '200M')
    assert status == 0 and bounded < baseline + 200, (bounded, baseline)
    status, whole, held = peak(8_000_000, '--memory-limit', '4G')
    assert status == 0 and held == within and whole > bounded + 100, (whole, bounded)
