"""irmetrics.optimize_fusion: the in-sample search gives ranx's choice; the cross-validated run is each query fused
with the setting chosen without it; bad grids and folds are clear errors."""
import numpy as np
import pytest
from ranx import Qrels as RanxQrels
from ranx import Run as RanxRun
from ranx import optimize_fusion as ranx_optimize

import irmetrics as irm
from irmetrics.errors import OptionError
from irmetrics.fusion.optimize import weight_grid


def collection(seed, queries=15):
    """Three runs ranking the same 20 documents of each query (no tied fused scores), graded judgments."""
    rng = np.random.default_rng(seed)
    docs = {f'q{q}': [f'd{d}' for d in rng.choice(40, 20, replace=False)] for q in range(queries)}
    runs = [{q: {d: float(rng.normal()) for d in ds} for q, ds in docs.items()} for _ in range(3)]
    qrels = {q: {d: int(rng.integers(0, 3)) for d in ds[:12]} for q, ds in docs.items()}
    return qrels, runs


@pytest.mark.parametrize('method, metric, measure', [('wsum', 'ndcg@10', 'nDCG@10'), ('rrf', 'map@100', 'AP@100'),
                                                     ('mixed', 'precision@5', 'P@5')])
@pytest.mark.parametrize('seed', range(5))
def test_the_in_sample_search_chooses_ranx_setting(method, metric, measure, seed):
    qrels, runs = collection(seed)
    ours = irm.optimize_fusion(measure, qrels, runs, method=method, norm='min-max', folds=None)
    best = np.sort(ours.in_sample_scores)[-2:]
    if best[1] - best[0] < 1e-9:
        pytest.skip('two settings of equal mean: which one is kept depends on the last bit of each tool\'s mean')
    theirs = ranx_optimize(RanxQrels(qrels), [RanxRun(r) for r in runs], norm='min-max', method=method,
                           metric=metric, show_progress=False)
    assert {k: (tuple(float(x) for x in v) if k == 'weights' else float(v)) for k, v in theirs.items()} \
        == ours.in_sample_setting


def test_the_weight_grid_is_ranx_grid():
    grid = weight_grid(3, 0.1)
    assert (0.0, 0.0, 1.0) in grid and (0.2, 0.3, 0.5) in grid and all(sum(w) == 1.0 for w in grid)
    assert weight_grid(2, 0.5) == [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)]


def test_each_query_is_fused_with_the_setting_chosen_without_it():
    qrels, runs = collection(3, queries=20)
    tuning = irm.optimize_fusion('nDCG@10', qrels, runs, method='rrf', grid={'k': [1, 10, 100]}, folds=4, seed=1)
    assert len(tuning.folds) == 4 and sorted(q for f in tuning.folds for q in f.query_ids) == sorted(qrels)
    for fold in tuning.folds:
        held = set(fold.query_ids)
        alone = irm.fuse(runs, method='rrf', k=fold.setting['k'])
        expected = irm.calc(['nDCG@10'], {q: qrels[q] for q in held}, alone).to_dataframe()
        got = irm.calc(['nDCG@10'], {q: qrels[q] for q in held}, tuning.run).to_dataframe()
        assert got.equals(expected)
    per_query = dict(zip(tuning.results.query_ids, tuning.results.values[:, 0], strict=True))
    assert per_query == {m.query_id: m.value for m in irm.iter_calc(['nDCG@10'], qrels, tuning.run)}
    assert tuning.score == pytest.approx(irm.calc_aggregate(['nDCG@10'], qrels, tuning.run)['nDCG@10'], abs=1e-15)
    assert tuning.in_sample_score == max(tuning.in_sample_scores)
    assert 'in-sample (chosen on the queries it is scored on, optimistic)' in repr(tuning)
    assert list(tuning.to_dataframe()['fold']) == [0, 1, 2, 3, 'in-sample']


def test_the_cross_validated_run_goes_into_compare_beside_its_parts():
    qrels, runs = collection(4, queries=20)
    tuning = irm.optimize_fusion('nDCG@10', qrels, runs, method='wsum', grid=0.5, folds=5)
    comparison = irm.compare(['nDCG@10'], qrels, {'a': runs[0], 'b': runs[1], 'c': runs[2], 'fused': tuning.run},
                             baseline='a')
    assert 'fused' in comparison.render('table')


@pytest.mark.parametrize('call, message', [
    (lambda q, r: irm.optimize_fusion('AP', q, r, method='wsum', folds=1), "invalid value 1 for option 'folds'"),
    (lambda q, r: irm.optimize_fusion('AP', q, r, method='wsum', folds=99), 'more folds than the 15 queries'),
    (lambda q, r: irm.optimize_fusion('AP', q, r, method='rrf', grid={'phi': [0.5]}), "rrf has no 'phi' to tune"),
    (lambda q, r: irm.optimize_fusion('AP', q, r, method='comb_sum'), 'comb_sum has no weights or parameters'),
    (lambda q, r: irm.optimize_fusion('Coverage(catalogue=50)@10', q, r), 'is a measure of a whole run'),
])
def test_bad_settings_are_clear_errors(call, message):
    qrels, runs = collection(0)
    with pytest.raises(OptionError) as caught:
        call(qrels, runs)
    assert message in str(caught.value)
