"""irmetrics.fuse: hand-computed cases from the papers, trectools' RRF and CombSUM/CombMNZ, the fused run's
order, and each bad input as one clear error."""
import numpy as np
import pytest
from trectools import TrecRun, fusion

import irmetrics as irm
from irmetrics.errors import InputError, OptionError

#: two runs of one query: a, b, c and c, d (scores descending)
A = {'q': {'a': 3.0, 'b': 2.0, 'c': 1.0}}
B = {'q': {'c': 0.9, 'd': 0.5}}


def scores(run):
    return {d.doc_id: d.score for d in run}


def test_rrf_is_cormack_clarke_buettcher():
    """RRF(d) = sum over the runs ranking d of 1 / (k + r(d)) (Cormack et al. 2009, k = 60)."""
    assert scores(irm.fuse([A, B], method='rrf')) == pytest.approx(
        {'a': 1 / 61, 'b': 1 / 62, 'c': 1 / 63 + 1 / 61, 'd': 1 / 62}, abs=0)
    assert scores(irm.fuse([A, B], method='rrf', k=0)) == {'a': 1.0, 'b': 0.5, 'c': 1 / 3 + 1.0, 'd': 0.5}


def test_comb_sum_and_comb_mnz_are_fox_and_shaw():
    """CombSUM adds a document's scores; CombMNZ multiplies the sum by the number of runs ranking it."""
    assert scores(irm.fuse([A, B], method='comb_sum', norm=None)) == {'a': 3.0, 'b': 2.0, 'c': 1.9, 'd': 0.5}
    assert scores(irm.fuse([A, B], method='comb_mnz', norm=None)) == {'a': 3.0, 'b': 2.0, 'c': 3.8, 'd': 0.5}
    # min-max first: A becomes 1, 0.5, 0 and B 1, 0
    assert scores(irm.fuse([A, B], method='comb_mnz')) == {'a': 1.0, 'b': 0.5, 'c': 2.0, 'd': 0.0}


def test_rbc_is_bailey_et_al():
    """RBC(d) = sum over the runs of (1 - phi) phi^(r(d) - 1) (Bailey et al. 2017)."""
    got = scores(irm.fuse([A, B], method='rbc', phi=0.5))
    assert got == {'a': 0.5, 'b': 0.25, 'c': 0.125 + 0.5, 'd': 0.25}


def test_bordafuse_shares_the_points_left_over():
    """Four candidates: a run's first document gets 4 points; a run of two shares (4 - 2 + 1) / 2 among the
    documents it does not rank (Aslam & Montague 2001)."""
    assert scores(irm.fuse([A, B], method='bordafuse')) == {'a': 4 + 1.5, 'b': 3 + 1.5, 'c': 2 + 4, 'd': 1 + 3}


def test_weights_weigh_each_run():
    assert scores(irm.fuse([A, B], method='wsum', norm=None, weights=[1, 10])) == {'a': 3, 'b': 2, 'c': 10, 'd': 5}


def test_the_fused_run_is_ranked_by_trec_evals_rule_and_named():
    """Equal fused scores are ranked by document id descending, whatever order the runs give them in."""
    run = irm.fuse({'x': {'q': {'a': 1.0, 'b': 0.5}}, 'y': {'q': {'b': 1.0, 'a': 0.5}}}, method='rrf', name='hybrid')
    assert [d.doc_id for d in run] == ['b', 'a']
    assert run.source == 'hybrid'
    assert [d.doc_id for d in irm.fuse([A, B], method='rrf', depth=2)] == ['c', 'a']


def test_queries_of_one_run_only_are_fused_from_it():
    run = irm.fuse([A, {'other': {'z': 1.0}}], method='comb_sum', norm=None)
    assert {(d.query_id, d.doc_id): d.score for d in run} == {('q', 'a'): 3, ('q', 'b'): 2, ('q', 'c'): 1,
                                                               ('other', 'z'): 1}


def test_fused_runs_evaluate_and_write_like_any_run(tmp_path):
    qrels = {'q': {'c': 1, 'd': 1}}
    run = irm.fuse([A, B], method='rrf')
    run.to_trec(tmp_path / 'fused.txt')
    again = irm.read_trec_run(tmp_path / 'fused.txt')
    assert list(again) == list(run)
    assert irm.calc_aggregate(['RR'], qrels, run)['RR'] == 1.0


def random_runs(seed, n=3):
    rng = np.random.default_rng(seed)
    return [{f'q{q}': {f'd{d}': float(s) for d, s in zip(rng.choice(30, 15, replace=False), rng.random(15),
                                                          strict=True)} for q in range(5)} for _ in range(n)]


def trectools_run(run, path):
    irm.to_run(run).to_trec(path)
    return TrecRun(str(path))


@pytest.mark.parametrize('seed', range(3))
def test_rrf_comb_sum_and_comb_mnz_give_trectools_scores(seed, tmp_path):
    """Two runs: trectools' combos (pandas merges with one suffix) fails on three with pandas 2."""
    runs = random_runs(seed, 2)
    theirs = [trectools_run(r, tmp_path / f'{i}.txt') for i, r in enumerate(runs)]

    def as_dict(trec_run):
        columns = trec_run.run_data[['query', 'docid', 'score']]
        return {(str(q), str(d)): s for q, d, s in columns.itertuples(index=False)}

    def ours(**kw):
        return {(d.query_id, d.doc_id): d.score for d in irm.fuse(runs, **kw)}

    for got, expected in [(ours(method='rrf'), as_dict(fusion.reciprocal_rank_fusion(theirs))),
                          (ours(method='comb_sum', norm=None), as_dict(fusion.combos(theirs, strategy='sum'))),
                          (ours(method='comb_mnz', norm=None), as_dict(fusion.combos(theirs, strategy='mnz')))]:
        assert got.keys() == expected.keys()
        np.testing.assert_allclose([got[k] for k in expected], list(expected.values()), rtol=1e-12)


@pytest.mark.parametrize('call, message', [
    (lambda: irm.fuse([A, B], method='rrf', kk=3), "rrf has no parameter 'kk': it takes k=60.0"),
    (lambda: irm.fuse([A, B], method='rrf', k=-1), "invalid value -1 for parameter of rrf 'k'"),
    (lambda: irm.fuse([A, B], method='rff'), "method='rff' is no fusion method irmetrics knows (did you mean 'rrf'"),
    (lambda: irm.fuse([A, B], method='wsum', weights=[1]), 'weights: one number for each of the 2 runs; got 1'),
    (lambda: irm.fuse([A, B], method='wsum', weights=[1, -1]), 'weights: finite numbers >= 0, not all 0'),
    (lambda: irm.fuse([A, B], method='wsum', weights=[0, 0]), 'weights: finite numbers >= 0, not all 0'),
    (lambda: irm.fuse([A, B], method='rrf', weights=[1, 1]), 'rrf takes no weights; the weighted methods are'),
    (lambda: irm.fuse([A, B], norm='minmax2'), "norm='minmax2' is no normalisation irmetrics knows"),
    (lambda: irm.fuse([A, B], depth=0), "invalid value 0 for option 'depth'"),
    (lambda: irm.fuse([A]), 'fusing takes two runs or more; got 1'),
    (lambda: irm.fuse([A, {}]), "run 'run 2' ranks no document"),
    (lambda: irm.fuse([A, {'q': {'x': float('nan')}}]), 'score nan is not a finite number'),
    (lambda: irm.fuse('run.txt'), 'runs: a list of runs (or a dict of named runs) to fuse; got str'),
])
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises((InputError, OptionError)) as caught:
        call()
    assert message in str(caught.value)
