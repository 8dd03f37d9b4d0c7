"""``Measure.depth``: a measure that says it reads only its first k documents gives, on every built-in
family, the value of the whole ranking when the ranking is cut at k (score matrices are ranked only
that deep, so a wrong declaration would be a wrong number)."""
import warnings

import numpy as np
import pytest

import irmetrics as irm
from irmetrics.algebra.measure import REGISTRY, REQUIRED
from irmetrics.api.custom import undefine

#: a value for each required parameter other than the cutoff
REQUIRED_VALUES = {'catalogue': 300, 'max_rel': 3}
_RNG = np.random.default_rng(7)
#: what the measures beyond accuracy read of the documents of _data
ITEMS = irm.Items({f'd{x}': int(_RNG.integers(1, 50)) for x in range(200)}, users=60,
                  features={f'd{x}': _RNG.random(4) + 0.01 for x in range(200)})
CUTOFF_FAMILIES = [d for d in REGISTRY.definitions() if d.has_param('cutoff') and d.reads_to_cutoff]


def _data(seed: int):
    """A run with many tied scores and rankings of every length, and qrels with subtopics and -1 grades."""
    rng = np.random.default_rng(seed)
    q, d, s = [], [], []
    for query in range(30):
        n = int(rng.integers(0, 60))
        q += [str(query)] * n
        d += [f'd{x}' for x in rng.choice(200, n, replace=False)]
        s += rng.integers(0, 8, n).astype(float).tolist()
    qq, qd, qr, qi = [], [], [], []
    for query in range(33):
        for doc in rng.choice(200, int(rng.integers(1, 40)), replace=False):
            for iteration in range(int(rng.integers(1, 3))):
                qq.append(str(query))
                qd.append(f'd{doc}')
                qr.append(int(rng.integers(-1, 4)))
                qi.append(str(iteration))
    return (irm.Qrels.from_columns(qq, qd, qr, qi, duplicates='max'), irm.Run.from_columns(q, d, s))


def _complete(measure):
    for param in measure.definition.params:
        if param.default is REQUIRED and param.name != 'cutoff':
            measure = measure(**{param.name: REQUIRED_VALUES[param.name]})
    return measure


@pytest.mark.parametrize('family', CUTOFF_FAMILIES, ids=lambda d: d.name)
@pytest.mark.parametrize('seed', range(2))
def test_a_ranking_cut_at_the_depth_gives_the_same_value(family, seed):
    qrels, run = _data(seed)
    for cutoff in (1, 3, 10):
        measure = _complete(family.bare(cutoff=cutoff))
        assert measure.depth == cutoff
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            evaluator = irm.evaluator([measure], qrels, items=ITEMS)
            whole, cut = evaluator.calc(run), evaluator.calc(run.top(cutoff))
        np.testing.assert_array_equal(np.asarray(cut.values), np.asarray(whole.values))
        assert dict(cut.run_values) == dict(whole.run_values)


def test_what_reads_the_whole_ranking_has_no_depth():
    assert irm.AP.depth is None                                     # no cutoff
    assert (irm.nDCG(judged_only=True) @ 10).depth is None         # ranks among judged documents only
    assert irm.parse_measure('NumRet').depth is None
    custom = irm.define(lambda qrels, run, cutoff: 0.0, name='DepthProbe', params=['cutoff'])
    try:
        assert (custom @ 5).depth is None                           # nothing is known of what it reads
    finally:
        undefine('DepthProbe')
