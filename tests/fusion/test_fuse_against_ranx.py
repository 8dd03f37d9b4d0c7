"""Every fusion method that needs no training and every normalisation against ranx's ``fuse``.

Random runs whose documents overlap in part (each run draws its documents of a query from one pool, so some
are shared and some ranked by one run only), queries missing from a run's neighbours' pools, and no tied
scores (ranx ranks tied scores in the order it read them; irmetrics by trec_eval's rule): the fused scores
agree to 1e-12 and the documents of each query are the same.

Two places where ranx's numbers are not a definition, and are left out: a method that reads ranks after
``borda`` normalisation (ranx ranks the normalised run in the order of a Python set of document ids, while
irmetrics ranks it by the normalised scores), and ``condorcet`` where the majorities form a cycle (the order
then depends on the sort and its starting order; tested on majorities without cycles below).
"""
import numpy as np
import pytest
from ranx import Run as RanxRun
from ranx import fuse as ranx_fuse

import irmetrics as irm
from irmetrics.fusion.methods import METHODS

NORMS = ['min-max', 'max', 'sum', 'zmuv', 'rank', 'borda', None]
#: ranx's names for irmetrics' methods, where they differ, and the parameters each test gives
RANX_NAME = {'comb_sum': 'sum', 'comb_mnz': 'mnz', 'comb_max': 'max', 'comb_min': 'min', 'comb_med': 'med',
             'comb_anz': 'anz', 'comb_gmnz': 'gmnz'}
PARAMS = {'comb_gmnz': {'gamma': 0.5}, 'logn_isr': {'sigma': 0.05}, 'rbc': {'phi': 0.9}, 'rrf': {'k': 20}}
WEIGHTS = [0.2, 0.3, 0.5]


def random_runs(seed, n_runs=3, queries=12, depth=25, pool=50):
    rng = np.random.default_rng(seed)
    runs = []
    for _ in range(n_runs):
        run = {}
        for q in range(queries):
            docs = rng.choice(pool, size=int(rng.integers(1, depth + 1)), replace=False)
            run[f'q{q}'] = {f'd{d}': float(s) for d, s in zip(docs, rng.normal(5, 3, len(docs)), strict=True)}
        runs.append(run)
    return runs


def as_dict(run):
    out = {}
    for doc in run:
        out.setdefault(doc.query_id, {})[doc.doc_id] = doc.score
    return out


def ranx_fused(runs, method, norm, weights=None, **params):
    if weights is not None:
        params['weights'] = weights
    fused = ranx_fuse([RanxRun(r) for r in runs], norm=norm, method=RANX_NAME.get(method, method),
                      params=params or None)
    return {q: dict(docs) for q, docs in fused.to_dict().items() if docs}


def assert_same_scores(ours, theirs):
    assert ours.keys() == theirs.keys()
    for q in theirs:
        assert ours[q].keys() == theirs[q].keys(), q
        got = np.array([ours[q][d] for d in theirs[q]])
        np.testing.assert_allclose(got, np.array(list(theirs[q].values())), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('norm', NORMS)
@pytest.mark.parametrize('method', [m for m in METHODS if 'condorcet' not in m])
def test_every_method_and_normalisation_gives_ranx_scores(method, norm):
    m = METHODS[method]
    if m.by_rank and norm == 'borda':
        pytest.skip('ranx ranks a Borda-normalised run in the order of a Python set (module docstring)')
    runs = random_runs(7)
    weights = WEIGHTS if m.weighted else None
    ours = as_dict(irm.fuse(runs, method=method, norm=norm, weights=weights, **PARAMS.get(method, {})))
    assert_same_scores(ours, ranx_fused(runs, method, norm, weights, **PARAMS.get(method, {})))


def test_rank_methods_read_the_same_ranks_whatever_the_normalisation():
    """Min-max, max, sum, z-scores and rank normalisation keep each run's order: RRF is the same after each."""
    runs = random_runs(11)
    plain = as_dict(irm.fuse(runs, method='rrf', norm=None))
    for norm in ['min-max', 'max', 'sum', 'zmuv', 'rank']:
        assert as_dict(irm.fuse(runs, method='rrf', norm=norm)) == plain


def transitive_runs(seed):
    """Three runs of the same eight documents, each the same order with one neighbouring pair swapped: the
    pairwise majorities are an order without cycles."""
    rng = np.random.default_rng(seed)
    base = rng.permutation(8)
    runs = []
    for _ in range(3):
        p = base.copy()
        i = int(rng.integers(0, 7))
        p[i], p[i + 1] = p[i + 1], p[i]
        runs.append({'q1': {f'd{x}': float(8 - r) for r, x in enumerate(p)}})
    return runs


@pytest.mark.parametrize('seed', range(20))
def test_condorcet_gives_ranx_order_where_the_majorities_are_an_order(seed):
    runs = transitive_runs(seed)
    assert as_dict(irm.fuse(runs, method='condorcet')) == ranx_fused(runs, 'condorcet', None)
    ours = as_dict(irm.fuse(runs, method='w_condorcet', weights=[0.45, 0.35, 0.2]))   # no two sides of equal weight
    assert ours == ranx_fused(runs, 'w_condorcet', None, [0.45, 0.35, 0.2])
