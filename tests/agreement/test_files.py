"""Agreement with the reference tools when they read the files themselves.

The other agreement tests give each tool irmetrics' canonical ranking, so they check each measure's
arithmetic; here pytrec_eval (``parse_qrel``/``parse_run``) and ir_measures (``read_trec_*``, then its
cwl_eval and pyndeval providers) read the same TREC files as irmetrics, so the tie order, the file
reading and the set of evaluated queries are checked too.  Every query each tool evaluates must have
the same value; a query it leaves out must be one of the documented conventions (a qrels query
missing from the run scores 0 in irmetrics, as with trec_eval -c; pytrec_eval and ir_measures leave it
out), never a silent gap.
"""
from __future__ import annotations

import random

import pytest
from reference_tools import reference

import irmetrics as irm

pytrec_eval = reference('pytrec_eval')
ir_measures = reference('ir_measures')

TREC = {'map': 'AP', 'P_5': 'P@5', 'P_10': 'P@10', 'recip_rank': 'RR', 'ndcg': 'nDCG', 'ndcg_cut_10': 'nDCG@10',
        'Rprec': 'Rprec', 'bpref': 'Bpref', 'recall_10': 'R@10', 'num_rel_ret': 'NumRet(rel=1)'}


def files(tmp_path, seed: int, ties: bool) -> tuple[str, str, set[str]]:
    """Qrels and run files (graded judgments, every qrels query with a relevant document, one qrels query
    missing from the run, one run query missing from the qrels); scores tie often when ``ties``."""
    rng = random.Random(seed)
    qrels, run = [], []
    missing = {f'q{rng.randint(0, 7)}'}
    for q in (f'q{i}' for i in range(8)):
        docs = [f'D{rng.randint(0, 60):03d}' for _ in range(40)]
        docs = list(dict.fromkeys(docs))
        grades = [rng.choice([0, 0, 1, 2]) for _ in docs[:15]] + [1]
        qrels += [f'{q} 0 {d} {g}' for d, g in zip(docs[:16], grades, strict=False)]
        if q not in missing:
            for rank, d in enumerate(docs[5:] + docs[:5]):
                score = rng.choice([1.0, 1.5, 2.0, 2.5]) if ties else 100 - rank + rng.random() / 2
                run.append(f'{q} Q0 {d} {rank + 1} {score:.4f} t')
    run += ['extra Q0 D001 1 1.0 t']
    qrels_path, run_path = tmp_path / 'qrels', tmp_path / 'run'
    qrels_path.write_text('\n'.join(qrels) + '\n')
    run_path.write_text('\n'.join(run) + '\n')
    return str(qrels_path), str(run_path), missing


def native(qrels: str, run: str, measures: list[str]) -> dict[tuple[str, str], float]:
    results = irm.calc(measures, qrels, run)
    return {(m.query_id, str(m.measure)): m.value for m in results.per_query}


@pytest.mark.parametrize('seed', range(6))
def test_pytrec_eval_reading_the_files_with_ties(tmp_path, seed):
    qrels, run, missing = files(tmp_path, seed, ties=True)
    with open(qrels) as f:
        judgments = pytrec_eval.parse_qrel(f)
    with open(run) as f:
        ranking = pytrec_eval.parse_run(f)
    theirs = pytrec_eval.RelevanceEvaluator(judgments, set(TREC)).evaluate(ranking)
    ours = native(qrels, run, list(TREC.values()))
    assert set(theirs) == set(judgments) - missing     # pytrec_eval leaves out the missing query; both the run-only one
    for q, values in theirs.items():
        assert set(values) == set(TREC)
        for name, value in values.items():
            assert ours[q, TREC[name]] == pytest.approx(value, abs=1e-12), (q, name)
    for q in missing:                                              # trec_eval -c: a missing query scores 0
        assert all(ours[q, m] == 0.0 for m in TREC.values())


@pytest.mark.parametrize('provider, measures', [
    ('cwl_eval', ['P@5', 'RR@1000', 'SDCG(max_rel=2)@10', 'INST(T=2,max_rel=2)', 'BPM(T=5,max_rel=2)@10']),
    ('pyndeval', ['alpha_nDCG@10', 'ERR_IA@10', 'P_IA@5', 'StRecall@10']),
])
@pytest.mark.parametrize('seed', range(4))
def test_ir_measures_providers_reading_the_files(tmp_path, provider, measures, seed):
    # cwl_eval keeps ties in file order and pyndeval breaks them by docno ascending (docs/conventions.md):
    # without ties, the rankings are the same for every tool
    qrels, run, missing = files(tmp_path, seed, ties=False)
    tool = getattr(ir_measures, provider)
    parsed = [ir_measures.parse_measure(m) for m in measures]
    theirs = {(m.query_id, str(m.measure)): m.value
              for m in tool.iter_calc(parsed, list(ir_measures.read_trec_qrels(qrels)),
                                      list(ir_measures.read_trec_run(run)))}
    ours = native(qrels, run, measures)
    by_name = {str(p): str(irm.parse_measure(m)) for p, m in zip(parsed, measures, strict=True)}
    evaluated = {q for q, _ in theirs}
    qrels_queries = {q for q, _ in ours}
    assert evaluated == qrels_queries                      # both providers score the missing query too (0)
    assert len(theirs) == len(evaluated) * len(measures)
    for (q, name), value in theirs.items():
        assert ours[q, by_name[name]] == pytest.approx(value, abs=1e-9), (q, name)
    for q in missing:
        assert all(ours[q, m] == 0.0 for m in by_name.values())
