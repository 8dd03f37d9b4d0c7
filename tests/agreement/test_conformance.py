"""The conformance corpus (``data/conformance``, see data/README.md): every measure of every case, per query
and aggregated, against the values the reference tools give for it (pytrec_eval / trec_eval, gdeval,
cwl_eval, pyndeval, ir_measures' own providers), under irmetrics' conventions.

Each case's ``expected.json`` lists, per run and measure string, the reference values; a measure that
irmetrics cannot parse or compute is a failure here, not a skip.
"""
import json
import math

import pytest
from repo_paths import FIXTURES

import irmetrics as irm

CASES = FIXTURES / 'conformance'
TOLERANCE = 1e-6


def number(value) -> float:
    return float(value)                              # NaN and Infinity are stored as strings


def close(got: float, expected: float, tol: float) -> bool:
    if math.isnan(expected):
        return math.isnan(got)
    return abs(got - expected) <= tol * max(1.0, abs(expected))


def checks():
    out = []
    for spec in sorted(CASES.glob('*/expected.json')):
        doc = json.loads(spec.read_text())
        for run, measures in doc['results'].items():
            out.append(pytest.param(spec.parent, doc['qrels'], run, measures, id=f'{spec.parent.name}-{run}'))
    return out


def test_the_corpus_is_here():
    assert {p.name for p in CASES.iterdir() if p.is_dir()} == {
        'diversity', 'graded', 'trec_eval_302', 'trec_eval_rel_level', 'trec_eval_test', 'trec_eval_trunc'}


@pytest.mark.parametrize('case, qrels_name, run_name, measures', checks())
def test_case_conforms(case, qrels_name, run_name, measures):
    qrels, run = irm.read_trec_qrels(case / qrels_name), irm.read_trec_run(case / run_name)
    parsed = {text: irm.parse_measure(text) for text in measures}
    results = irm.calc(list(dict.fromkeys(parsed.values())), qrels, run)
    per_query: dict = {}
    for metric in results.iter_metrics():
        per_query.setdefault(metric.measure, {})[metric.query_id] = metric.value
    aggregated = results.aggregated
    failures = []
    for text, entry in measures.items():
        m, tol = parsed[text], max(TOLERANCE, entry.get('tol', 0.0))
        expected = {q: number(v) for q, v in entry['per_query'].items()}
        got = per_query.get(m, {})
        if set(got) != set(expected):
            failures.append(f'{text}: queries {sorted(set(got) ^ set(expected))} differ')
            continue
        bad = [q for q in expected if not close(got[q], expected[q], tol)]
        if bad:
            failures.append(f'{text}: query {bad[0]}: {got[bad[0]]!r} != {expected[bad[0]]!r}')
        if not close(float(aggregated[m]), number(entry['aggregate']), tol):
            failures.append(f'{text}: aggregate {aggregated[m]!r} != {entry["aggregate"]!r}')
    assert not failures, '\n'.join(failures[:20])
