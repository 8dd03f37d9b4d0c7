"""The trained fusion methods against ranx's ``<method>_train`` and ``fuse``, and their rules on training data.

Random runs without tied scores (ranx ranks tied scores in the order it read them), trained on other
queries than those fused: the fused scores agree to 1e-12.  The fused runs reach deeper than the training
runs, so that the ranks no training query reaches are compared too.  Where ranx's numbers are no definition
(BayesFuse past rank 1000, where ranx reads past its array), the value is tested by hand.
"""
import numpy as np
import pytest
from ranx import Qrels as RanxQrels
from ranx import Run as RanxRun
from ranx import fuse as ranx_fuse
from ranx import fusion as ranx_fusion
from test_fuse_against_ranx import as_dict, assert_same_scores

import irmetrics as irm
from irmetrics.fusion.trained import TRAINED

TRAINING = [f't{q}' for q in range(15)]
FUSED = [f'q{q}' for q in range(10)]
#: each method's parameters, and how ranx trains it and names what it learnt
PARAMS = {'probfuse': {'n_segments': 4}, 'slidefuse': {'w': 3}}
RANX_TRAINED = {
    'posfuse': lambda qrels, runs, p: {'probs': ranx_fusion.posfuse_train(qrels, runs)},
    'probfuse': lambda qrels, runs, p: {'probs': ranx_fusion.probfuse_train(qrels, runs, p['n_segments'])},
    'segfuse': lambda qrels, runs, p: {'probs': ranx_fusion.segfuse_train(qrels, runs)},
    'slidefuse': lambda qrels, runs, p: {'probs': ranx_fusion.slidefuse_train(qrels, runs), 'w': p['w']},
    'bayesfuse': lambda qrels, runs, p: {'log_odds': ranx_fusion.bayesfuse_train(qrels, runs)},
    'mapfuse': lambda qrels, runs, p: {'map_scores': ranx_fusion.mapfuse_train(qrels, runs)},
}


def runs_of(rng, queries, n_runs=3, depth=25, pool=50):
    """Runs ranking 1 to ``depth`` documents of a pool for each query, without ties."""
    runs = []
    for _ in range(n_runs):
        run = {}
        for q in queries:
            docs = rng.choice(pool, size=int(rng.integers(1, depth + 1)), replace=False)
            run[q] = {f'd{d}': float(s) for d, s in zip(docs, rng.normal(5, 3, len(docs)), strict=True)}
        runs.append(run)
    return runs


def qrels_of(rng, queries, pool=50):
    """Grades 0 to 2 for 20 documents of the pool of each query (grade 0: judged, not relevant)."""
    return {q: {f'd{d}': int(g) for d, g in zip(rng.choice(pool, 20, replace=False), rng.integers(0, 3, 20),
                                                 strict=True)} for q in queries}


def data(seed):
    rng = np.random.default_rng(seed)
    return runs_of(rng, FUSED, depth=30), qrels_of(rng, TRAINING), runs_of(rng, TRAINING, depth=20)


def ranx_fused(method, runs, qrels, train_runs, norm, params):
    trained = RANX_TRAINED[method](RanxQrels(qrels), [RanxRun(r) for r in train_runs], params)
    fused = ranx_fuse([RanxRun(r) for r in runs], norm=norm, method=method, params=trained)
    return {q: dict(docs) for q, docs in fused.to_dict().items() if docs}


def test_the_six_trained_methods_of_ranx():
    assert sorted(TRAINED) == sorted(RANX_TRAINED)
    assert all(m.trained for m in TRAINED.values())


@pytest.mark.parametrize('norm', ['min-max', 'zmuv', 'rank', None])
@pytest.mark.parametrize('method', sorted(RANX_TRAINED))
def test_every_trained_method_gives_ranx_scores(method, norm):
    runs, qrels, train_runs = data(5)
    ours = irm.fuse(runs, method=method, norm=norm, train=(qrels, train_runs), **PARAMS.get(method, {}))
    assert_same_scores(as_dict(ours), ranx_fused(method, runs, qrels, train_runs, norm, PARAMS.get(method, {})))


@pytest.mark.parametrize('params', [{'n_segments': 1}, {'n_segments': 7}, {'n_segments': 40}])
def test_probfuse_gives_ranx_scores_whatever_the_segments(params):
    runs, qrels, train_runs = data(9)
    ours = irm.fuse(runs, method='probfuse', train=(qrels, train_runs), **params)
    assert_same_scores(as_dict(ours), ranx_fused('probfuse', runs, qrels, train_runs, None, params))


@pytest.mark.parametrize('w', [0, 1, 10, 100])
def test_slidefuse_gives_ranx_scores_whatever_the_window(w):
    runs, qrels, train_runs = data(13)
    ours = irm.fuse(runs, method='slidefuse', train=(qrels, train_runs), w=w)
    assert_same_scores(as_dict(ours), ranx_fused('slidefuse', runs, qrels, train_runs, None, {'w': w}))


def test_probfuse_by_hand():
    """Lillis et al.'s definition: P(k) = (1/|Q|) sum over q of the share of relevant documents in segment k
    of the system's ranking of q; a document in segment k scores P(k) / k, summed over the systems."""
    qrels = {'t1': {'a1': 1, 'a2': 0, 'a4': 2, 'c1': 1, 'c2': 1}, 't2': {'b2': 1, 'b3': 1},
             'q1': {'x': 1}}                 # judged, but no training run ranks q1: no training query
    train_a = {'t1': {'a1': 4, 'a2': 3, 'a3': 2, 'a4': 1}, 't2': {'b1': 3, 'b2': 2, 'b3': 1}}
    train_b = {'t1': {'c1': 2, 'c2': 1}}     # t2 is a training query b does not rank: it adds 0 to b's shares
    # n_segments=2.  a: t1 hits 1 0 | 0 1 (shares 1/2, 1/2); t2 (segments of ceil(3/2) = 2) 0 1 | 1 (1/2, 1)
    # P_a = (1/2, 3/4).  b: t1 hits 1 | 1 (1, 1); t2 none: P_b = (1/2, 1/2)
    runs = [{'q1': {'x': 3, 'y': 2, 'z': 1}}, {'q1': {'y': 2, 'w': 1}}]
    # a: x, y in segment 1 (1/2 each), z in segment 2 (3/4 / 2); b: y in segment 1 (1/2), w in 2 (1/2 / 2)
    fused = as_dict(irm.fuse(runs, method='probfuse', n_segments=2, train=(qrels, [train_a, train_b])))
    assert fused == {'q1': {'x': 0.5, 'y': 1.0, 'z': 0.375, 'w': 0.25}}


def test_bayesfuse_past_the_last_band_by_hand():
    """A rank past 1000 reads as a rank the run does not give (ranx reads past its array there); a band where
    every document is relevant has precision 1, floored at 0.001 from 1: log(1 / 0.001)."""
    qrels = {'t1': {f'd{i}': 1 for i in range(5)}}
    train = [{'t1': {f'd{i}': float(10 - i) for i in range(5)}}, {'t1': {'e': 1.0}}]
    runs = [{'q1': {f'd{i}': float(2000 - i) for i in range(1001)}}, {'q1': {'e': 1.0}}]
    fused = as_dict(irm.fuse(runs, method='bayesfuse', train=(qrels, train)))['q1']
    unranked = np.log(0.001 / 0.999)
    assert fused['d0'] == np.log(1 / 0.001) + unranked
    assert fused['d5'] == 2 * unranked                      # band 6-10: no relevant document in training
    assert fused['d1000'] == 2 * unranked                   # rank 1001
    assert fused['e'] == 2 * unranked                       # b's first band: no relevant document


def test_training_queries_are_not_fused_unless_told():
    runs, qrels, train_runs = data(3)
    with pytest.raises(irm.InputError, match=r"1 of the 10 queries to fuse \('q4'\) are training queries.*"
                                             r"in_sample=True"):
        irm.fuse(runs, method='posfuse', train=({**qrels, 'q4': {'d1': 1}},
                                                [{**r, 'q4': {'d1': 1.0}} for r in train_runs]))
    in_qrels = qrels_of(np.random.default_rng(0), FUSED)
    with pytest.raises(irm.InputError, match='10 of the 10 queries to fuse'):
        irm.fuse(runs, method='posfuse', train=(in_qrels, runs))
    ours = irm.fuse(runs, method='posfuse', train=(in_qrels, runs), in_sample=True)
    assert_same_scores(as_dict(ours), ranx_fused('posfuse', runs, in_qrels, runs, None, {}))


def test_the_qrels_of_every_query_may_be_given():
    """A judged query no training run ranks is no training query: qrels of the fused queries too change
    nothing and are no reason to refuse."""
    runs, qrels, train_runs = data(4)
    every = {**qrels, **qrels_of(np.random.default_rng(1), FUSED)}
    assert as_dict(irm.fuse(runs, method='probfuse', n_segments=3, train=(every, train_runs))) == \
        as_dict(irm.fuse(runs, method='probfuse', n_segments=3, train=(qrels, train_runs)))


def test_training_runs_are_matched_by_order_or_by_name():
    runs, qrels, train_runs = data(6)
    names = ['bm25', 'dense', 'splade']
    by_order = as_dict(irm.fuse(runs, method='mapfuse', train=(qrels, train_runs)))
    by_name = irm.fuse(dict(zip(names, runs, strict=True)), method='mapfuse',
                       train=(qrels, {n: train_runs[i] for i, n in reversed(list(enumerate(names)))}))
    assert as_dict(by_name) == by_order


def test_wrong_training_data_are_clear_errors():
    runs, qrels, train_runs = data(8)
    with pytest.raises(irm.OptionError, match=r'posfuse is trained on judged queries: give train=\(qrels, runs\)'):
        irm.fuse(runs, method='posfuse')
    with pytest.raises(irm.InputError, match='2 training runs for 3 runs to fuse'):
        irm.fuse(runs, method='posfuse', train=(qrels, train_runs[:2]))
    with pytest.raises(irm.InputError, match=r"training runs are named 'a', 'b', 'c' and the runs to fuse 'x', "):
        irm.fuse(dict(zip('xyz', runs, strict=True)), method='posfuse',
                 train=(qrels, dict(zip('abc', train_runs, strict=True))))
    with pytest.raises(irm.OptionError, match=r'train: \(qrels, runs\).*got tuple of 3'):
        irm.fuse(runs, method='posfuse', train=(qrels, train_runs, train_runs))
    with pytest.raises(irm.InputError, match="the training qrels judge none of the training runs' queries"):
        irm.fuse(runs, method='posfuse', train=({'x': {'d1': 1}}, train_runs))
    with pytest.raises(irm.OptionError, match='probfuse needs n_segments=: an integer >= 1'):
        irm.fuse(runs, method='probfuse', train=(qrels, train_runs))
    with pytest.raises(irm.OptionError, match="value -1 for parameter of slidefuse 'w': expected an integer >= 0"):
        irm.fuse(runs, method='slidefuse', w=-1, train=(qrels, train_runs))
    with pytest.raises(irm.OptionError, match='rrf needs no training'):
        irm.fuse(runs, method='rrf', train=(qrels, train_runs))
    with pytest.raises(irm.OptionError, match="invalid value 'yes' for option 'in_sample'"):
        irm.fuse(runs, method='posfuse', train=(qrels, train_runs), in_sample='yes')
