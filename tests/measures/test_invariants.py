"""Invariants generated from the measure definitions, for every measure of the registry and a
parameterisation per parameter, on random qrels and runs:

* every per-query value lies within the definition's declared bounds;
* the order of the lines of a run changes nothing;
* queries that are only in the run change nothing;
* documents appended below every ranking change nothing for a measure whose cutoff they fall below;
* unjudged documents inserted anywhere change nothing under ``judged_only=True``;
* an evaluator reused over 100 runs gives the numbers of fresh evaluations, in flat memory;
* evaluation never mutates its inputs.
"""
from __future__ import annotations

import contextlib
import copy
import gc
import math
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import irmetrics as irm
from irmetrics import measures as defined
from irmetrics.algebra.params import REQUIRED
from irmetrics.constraints import Bool, Choice, Float, FloatList, GainMap, Int, IntOrChoice, Level

DEPTH = 20               # every ranking of the run is at least this deep ...
CUTOFFS = (1, 5)         # ... so documents appended below it fall below every sampled cutoff


def samples(param) -> list:
    """A few valid values of a parameter, read from its constraint."""
    c = param.constraint
    if isinstance(c, Bool):
        return [True, False]
    if isinstance(c, Choice):
        return list(c.choices)
    if isinstance(c, GainMap):
        return [{0: 0, 1: 2, 2: 5, 3: 9}]
    if isinstance(c, FloatList):
        return [(0.0, 0.5, 1.0)]
    if isinstance(c, IntOrChoice):
        return [3, *c.choices]
    if isinstance(c, Level):                        # a grade threshold: whole, and real (between two grades)
        return [1, 2, 1.5]
    if isinstance(c, Int):
        if param.name == 'cutoff':
            return list(CUTOFFS)
        low = c.minimum if c.minimum is not None else 0
        return [max(low, 1), max(low, 1) + 1] if param.name != 'min_rel' else [0, 1]
    if isinstance(c, Float):
        low = c.low if c.low is not None else 0.0
        high = c.high if c.high is not None else low + 2.0
        return [low + (high - low) * 0.3, low + (high - low) * 0.8]
    raise AssertionError(f'no samples for {param}')


def parameterisations() -> list[irm.Measure]:
    """Every shipped measure with its required parameters set, and one variant per value of each parameter."""
    out: dict[irm.Measure, None] = {}
    for name in defined.__all__:
        definition = getattr(defined, name).definition
        if definition.scope != 'query':
            continue                     # one value per run: tests/measures/test_beyond_accuracy.py
        required = {p.name: samples(p)[-1] for p in definition.params if p.default is REQUIRED}
        if 'max_rel' in required:
            required['max_rel'] = 3
        base = definition.bare(**required)
        out[base] = None
        for p in definition.params:
            for value in samples(p):
                with contextlib.suppress(irm.MeasureError):     # a combination refused (min_rel >= max_rel)
                    out[base(**{p.name: value})] = None
    return list(out)


MEASURES = parameterisations()

_ITEM_RNG = np.random.default_rng(99)
_DOCS = [f'd{q}-{i}' for q in range(8) for i in range(40)]
#: what the measures beyond accuracy read of the documents of random_case (popularity >= 1: finite novelty)
ITEMS = irm.Items({d: int(p) for d, p in zip(_DOCS, _ITEM_RNG.integers(1, 90, len(_DOCS)), strict=True)},
                  users=100, features={d: _ITEM_RNG.random(3) + 0.01 for d in _DOCS})


def random_case(seed: int) -> tuple[dict, list[tuple[str, str, float]]]:
    """Qrels with graded and negative grades (one query missing from the run), a run with ties whose
    rankings are all at least DEPTH deep."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: list[tuple[str, str, float]] = []
    for q in range(6):
        docs = [f'd{q}-{i}' for i in range(40)]
        judged = rng.choice(40, size=rng.integers(1, 25), replace=False)
        qrels[f'q{q}'] = {docs[i]: int(rng.choice([-1, 0, 0, 1, 1, 2, 3])) for i in judged}
        if q == 5:
            continue                                   # in the qrels, not in the run
        depth = int(rng.integers(DEPTH, 35))
        scores = np.round(rng.normal(size=depth), 1)   # rounded: ties
        run += [(f'q{q}', docs[i], float(s)) for i, s in zip(rng.permutation(40)[:depth], scores, strict=True)]
    return qrels, run


def values(measures, qrels, run) -> dict:
    results = irm.calc(measures, qrels, run, items=ITEMS)
    return {(q, m): results.values[i, j] for i, q in enumerate(results.query_ids)
            for j, m in enumerate(results.measures)}


def same(a: dict, b: dict, measures) -> list:
    keep = set(measures)
    return [k for k in a if k[1] in keep and not (a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])))]


SEEDS = range(4)


def test_every_shipped_measure_is_covered():
    names = {m.name for m in MEASURES}
    shipped = [getattr(defined, n).definition for n in defined.__all__]
    assert names == {d.name for d in shipped if d.scope == 'query'}
    assert {d.name for d in shipped if d.scope != 'query'} == {'Coverage', 'Gini'}    # test_beyond_accuracy.py
    assert len(MEASURES) > 3 * len(names)


@pytest.mark.parametrize('seed', SEEDS)
def test_values_lie_within_the_declared_bounds(seed):
    qrels, run = random_case(seed)
    results = irm.calc(MEASURES, qrels, run, items=ITEMS)
    for j, m in enumerate(results.measures):
        column = results.values[:, j]
        if m.definition.skips_undefined:
            column = column[~np.isnan(column)]
        assert not np.isnan(column).any(), m
        if m.definition.bounds is not None:
            low, high = m.definition.bounds
            assert (column >= low - 1e-12).all() and (column <= high + 1e-12).all(), (m, column)


@pytest.mark.parametrize('seed', SEEDS)
def test_the_order_of_the_lines_changes_nothing(seed):
    qrels, run = random_case(seed)
    shuffled = [run[i] for i in np.random.default_rng(seed + 100).permutation(len(run))]
    assert same(values(MEASURES, qrels, run), values(MEASURES, qrels, shuffled), MEASURES) == []


@pytest.mark.parametrize('seed', SEEDS)
def test_queries_only_in_the_run_change_nothing(seed):
    qrels, run = random_case(seed)
    extra = run + [('only-in-run', f'x{i}', float(i)) for i in range(30)]
    assert same(values(MEASURES, qrels, run), values(MEASURES, qrels, extra), MEASURES) == []


@pytest.mark.parametrize('seed', SEEDS)
def test_documents_below_a_cutoff_change_nothing(seed):
    qrels, run = random_case(seed)
    lowest = min(s for _, _, s in run)
    # judged documents too (the first ones of each query's qrels), well below every retrieved one
    below = [(q, d, lowest - 10.0 - i) for q in {q for q, _, _ in run}
             for i, d in enumerate([d for d in qrels[q] if (q, d) not in {(r[0], r[1]) for r in run}][:5])]
    # (judged_only measures cut the ranking of judged documents, which can be shorter than the cutoff: the
    # appended judged documents may then fall inside it, as they should)
    cut = [m for m in MEASURES if m.definition.at_param == 'cutoff' and isinstance(m['cutoff'], int)
           and not ('judged_only' in m.definition._index and m['judged_only'] is True)]
    assert len(cut) > 50
    assert same(values(cut, qrels, run), values(cut, qrels, run + below), cut) == []


@pytest.mark.parametrize('seed', SEEDS)
def test_unjudged_documents_change_nothing_under_judged_only(seed):
    qrels, run = random_case(seed)
    rng = np.random.default_rng(seed + 200)
    unjudged = [(q, f'unjudged-{q}-{i}', float(np.round(rng.normal(), 1))) for q in {q for q, _, _ in run}
                for i in range(8)]
    judged_only = [m for m in MEASURES if 'judged_only' in m.definition._index and m['judged_only'] is True]
    assert len(judged_only) > 10
    assert same(values(judged_only, qrels, run), values(judged_only, qrels, run + unjudged), judged_only) == []


@pytest.mark.slow
def test_an_evaluator_reused_gives_fresh_numbers_in_flat_memory():
    cases = [random_case(seed) for seed in range(3)]
    qrels = cases[0][0]
    runs = [run for _, run in cases]
    fresh = [values(MEASURES, qrels, run) for run in runs]
    ev = irm.evaluator(MEASURES, qrels, items=ITEMS)

    def reuse(n: int) -> None:
        for i in range(n):
            results = ev.calc(runs[i % 3])
            got = {(q, m): results.values[a, b] for a, q in enumerate(results.query_ids)
                   for b, m in enumerate(results.measures)}
            assert same(fresh[i % 3], got, MEASURES) == []

    reuse(10)
    gc.collect()
    tracemalloc.start()
    reuse(20)
    gc.collect()
    after_20 = tracemalloc.get_traced_memory()[0]
    reuse(80)
    gc.collect()
    after_100 = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after_100 - after_20 < 256 * 1024, (after_20, after_100)


def test_evaluation_never_mutates_its_inputs():
    qrels, run = random_case(7)
    frame = pd.DataFrame(run, columns=['query_id', 'doc_id', 'score'])
    arrays = {c: frame[c].to_numpy().copy() for c in frame.columns}
    qrels_before, frame_before, run_before = copy.deepcopy(qrels), frame.copy(deep=True), list(run)
    irm.calc(MEASURES, qrels, frame, items=ITEMS)
    irm.calc(MEASURES, qrels, run, items=ITEMS)
    assert qrels == qrels_before and run == run_before
    pd.testing.assert_frame_equal(frame, frame_before)
    for c, a in arrays.items():
        assert (frame[c].to_numpy() == a).all()
