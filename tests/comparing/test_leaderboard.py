"""Leaderboard rank intervals: each run's rank with a bootstrap interval over queries, and
which neighbours are separable."""
import numpy as np
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.comparing import leaderboard

QRELS = str(ROOT / 'examples' / 'qrels.txt')
RUNS = {'bm25': str(ROOT / 'examples' / 'run_bm25.txt'), 'dense': str(ROOT / 'examples' / 'run_dense.txt')}


def test_a_run_better_on_every_query_is_first_for_sure():
    """Three runs, 12 queries, each query's values ordered the same way: every resample ranks them alike."""
    values = np.array([[0.2 + 0.01 * q for q in range(12)], [0.5 + 0.01 * q for q in range(12)],
                       [0.1 + 0.01 * q for q in range(12)]])
    table = leaderboard.rank_table(('a', 'b', 'c'), values, True, 2000, 0.95, np.random.default_rng(0), 'AP')
    assert table.run.tolist() == ['b', 'a', 'c'] and table['rank'].tolist() == [1, 2, 3]
    assert table.rank_low.tolist() == [1, 2, 3] and table.rank_high.tolist() == [1, 2, 3]
    assert table.separable_from_next.tolist()[:2] == [True, True] and table.ahead_of_next.tolist()[:2] == [1.0, 1.0]


def test_equal_runs_share_a_rank_and_are_not_separable():
    values = np.tile(np.linspace(0, 1, 12), (2, 1))
    table = leaderboard.rank_table(('a', 'b'), values, True, 500, 0.95, np.random.default_rng(0), 'AP')
    assert table['rank'].tolist() == [1, 1] and table.rank_high.tolist() == [1, 1]
    assert table.ahead_of_next[0] == 0.0 and not table.separable_from_next[0]


def test_lower_is_better_ranks_the_lowest_first():
    values = np.array([[3.0] * 10, [1.0] * 10])
    table = leaderboard.rank_table(('a', 'b'), values, False, 200, 0.95, np.random.default_rng(0), 'LAG')
    assert table.run.tolist() == ['b', 'a']


def test_ranks_of_a_comparison_are_reproducible_and_cover_the_observed_rank(monkeypatch):
    runs = {**RUNS, 'one': {'401': {'D401-022': 1}}}
    with pytest.warns(irm.IrmetricsWarning):                      # 'one' leaves 9 queries out
        cmp = irm.compare('AP nDCG@10', QRELS, runs, seed=3)
    first = cmp.ranks('AP')
    assert first.equals(cmp.ranks('AP'))
    assert ((first.rank_low <= first['rank']) & (first['rank'] <= first.rank_high)).all()
    monkeypatch.setattr(leaderboard, 'BLOCK', 64)                 # many small blocks: bounded memory
    small = cmp.ranks('AP')
    assert small.run.tolist() == first.run.tolist() and ((small.rank_low <= small['rank'])
                                                         & (small['rank'] <= small.rank_high)).all()


def test_too_few_queries_warn():
    values = np.array([[0.1, 0.9, 0.5], [0.2, 0.8, 0.4]])
    with pytest.warns(irm.IrmetricsWarning, match='rank intervals from 3 queries, fewer than the 9'):
        leaderboard.rank_table(('a', 'b'), values, True, 10_000, 0.95, np.random.default_rng(0), 'AP')
