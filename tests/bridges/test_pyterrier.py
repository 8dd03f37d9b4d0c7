"""A real PyTerrier experiment, with and without irmetrics installed into ir_measures.

``pt.Experiment`` runs PyTerrier transformers that return the shipped runs (``pt.Transformer.from_df``,
no Java needed), with ``baseline=``, ``test=`` and ``correction=``.  With ``irm.use_in_ir_measures()``
every number of the table comes from irmetrics.  The shipped runs have tied scores: for the measures
ir_measures computes with pytrec_eval (ties by docno descending, as irmetrics) the two tables are the
same; for those it computes with providers that rank ties otherwise (msmarco, compat, cwl_eval,
accuracy, judged) irmetrics' tie rule gives irmetrics' own numbers.
"""
import logging

import numpy as np
import pandas as pd
import pytest
from reference_tools import reference
from repo_paths import EXAMPLES

import irmetrics as irm

pt = reference('pyterrier')
ir_measures = reference('ir_measures')
logging.getLogger('ir_measures').disabled = True      # cwl_eval's max_rel warnings
QRELS = str(EXAMPLES / 'qrels.txt')
RUNS = {name: str(EXAMPLES / f'run_{name}.txt') for name in ('bm25', 'dense')}
#: ir_measures computes these with pytrec_eval, whose tie rule is irmetrics'
AGREEING = ['map', 'ndcg_cut_10', 'P_10', 'recip_rank', 'Rprec', 'bpref', 'recall_100', 'num_rel_ret', 'num_q']
#: ... and these with providers that rank tied scores otherwise
TIE_SENSITIVE = {'RR@10': 'msmarco', 'Compat': 'compat', 'RBP(rel=1)': 'cwl_eval', 'SDCG(max_rel=3)@10': 'cwl_eval',
                 'Accuracy@10': 'accuracy', 'Judged@3': 'judged'}


@pytest.fixture(scope='module')
def qrels():
    return pt.io.read_qrels(QRELS)


@pytest.fixture(scope='module')
def topics(qrels):
    return pd.DataFrame({'qid': sorted(qrels.qid.unique()), 'query': 'unused'})


@pytest.fixture(scope='module')
def systems():
    """bm25, dense, and bm25 with each ranking reversed (its ties kept): three systems, so that a
    correction has two comparisons against the baseline; and bm25 cut at rank 5 by a PyTerrier operator."""
    runs = {name: pt.io.read_results(path) for name, path in RUNS.items()}
    runs['reversed'] = runs['bm25'].assign(score=-runs['bm25'].score)
    out = {name: pt.Transformer.from_df(frame) for name, frame in runs.items()}
    out['bm25 % 5'] = out['bm25'] % 5
    return out


def pt_measures(names):
    """What PyTerrier takes: trec_eval's names as strings, other measures as ir_measures objects."""
    return [name if name in AGREEING else ir_measures.parse_measure(name) for name in names]


def experiment(systems, topics, qrels, measures, **kwargs):
    frame = pt.Experiment(list(systems.values()), topics, qrels, pt_measures(measures), names=list(systems),
                          **kwargs)
    return frame.set_index('name').sort_index(axis=1)


def assert_same_table(got, expected):
    assert list(got.columns) == list(expected.columns) and list(got.index) == list(expected.index)
    assert np.allclose(got.to_numpy(dtype=float), expected.to_numpy(dtype=float), rtol=0, atol=1e-12, equal_nan=True)


def irmetrics_name(measure):
    """irmetrics' measure for a PyTerrier measure name (trec_eval's or ir_measures')."""
    return irm.parse_trec_measure(measure)[0] if measure in AGREEING else irm.parse_measure(measure)


@pytest.mark.parametrize('test, correction', [('t', None), ('wilcoxon', 'holm'), ('t', 'fdr_bh')])
def test_experiment_gives_the_same_table_where_the_tools_agree(ir_measures_pipeline, systems, topics, qrels, test,
                                                               correction):
    options = dict(baseline=0, test=test, correction=correction)
    before = experiment(systems, topics, qrels, AGREEING, **options)
    irm.use_in_ir_measures()
    after = experiment(systems, topics, qrels, AGREEING, **options)
    assert_same_table(after, before)
    if correction is not None:
        assert 'map p-value corrected' in after.columns and after['map reject'].iloc[1:].any()
    ours = irm.compare('AP', QRELS, {n: RUNS[n] for n in ('bm25', 'dense')}, baseline='bm25', test=test).to_dataframe()
    assert after.loc['dense', 'map'] == pytest.approx(ours['mean'].iloc[-1], abs=1e-12)


def test_experiment_follows_irmetrics_tie_rule_for_every_measure(ir_measures_pipeline, systems, topics, qrels):
    measures = list(TIE_SENSITIVE)
    before = experiment(systems, topics, qrels, measures, baseline=0)
    irm.use_in_ir_measures()
    after = experiment(systems, topics, qrels, measures, baseline=0)
    assert before.loc['bm25', 'RR@10'] == pytest.approx(0.8167, abs=1e-4)        # msmarco: ties by docno ascending
    assert after.loc['bm25', 'RR@10'] == pytest.approx(0.85, abs=1e-12)          # irmetrics (and trec_eval's RR)
    for system in ('bm25', 'dense'):
        # Accuracy asked with other measures: ir_measures (and so the provider) scores its undefined queries 0
        ours = irm.calc([irmetrics_name(m) for m in measures], QRELS, RUNS[system]).to_dataframe(wide=True).fillna(0)
        for measure in measures:
            assert after.loc[system, measure] == pytest.approx(ours[str(irmetrics_name(measure))].mean(), abs=1e-12)
    differs = [m for m in measures if not np.isclose(before.loc['bm25', m], after.loc['bm25', m], atol=1e-9)]
    assert set(differs) == {'RR@10', 'Compat', 'RBP(rel=1)', 'SDCG(max_rel=3)@10', 'Accuracy@10'}
    # p-values follow the per-query values: those of irmetrics' own comparison
    compared = irm.compare([irmetrics_name(m) for m in measures
                                                                            if m != 'Accuracy@10'],
                           QRELS, {n: RUNS[n] for n in ('bm25', 'dense')}, baseline='bm25').to_dataframe()
    for measure in measures:
        if measure != 'Accuracy@10':       # irmetrics pairs the queries where Accuracy is defined
            row = compared[(compared.run == 'dense') & (compared.measure == str(irmetrics_name(measure)))].iloc[0]
            assert after.loc['dense', f'{measure} p-value'] == pytest.approx(row['p_value'], abs=1e-12), measure


def test_per_query_tables_are_irmetrics_values(ir_measures_pipeline, systems, topics, qrels):
    measures = AGREEING + ['RR@10', 'Judged@3']
    before = pt.Experiment([systems['bm25']], topics, qrels, AGREEING, names=['bm25'], perquery=True)
    irm.use_in_ir_measures()
    after = pt.Experiment([systems['bm25']], topics, qrels, pt_measures(measures), names=['bm25'], perquery=True)
    ours = irm.calc([irmetrics_name(m) for m in measures], QRELS, RUNS['bm25'])
    expected = {(x.query_id, str(x.measure)): x.value for x in ours.iter_metrics()}
    names = {m: str(irmetrics_name(m)) for m in measures}
    got = {(r.qid, names[r.measure]): r.value for r in after.itertuples()}
    assert got == pytest.approx(expected, abs=1e-12)
    merged = before.merge(after, on=['name', 'qid', 'measure'])
    assert len(merged) == len(before) and np.allclose(merged.value_x, merged.value_y, atol=1e-12)


def test_batches_and_topics_without_results(ir_measures_pipeline, systems, topics, qrels):
    """In batches PyTerrier evaluates each batch against its qrels, then the qrels queries of no batch
    against an empty result frame: the provider reports those with ir_measures' defaults."""
    some = topics[topics.qid != '405']
    before = experiment(systems, some, qrels, AGREEING, batch_size=3)
    irm.use_in_ir_measures()
    after = experiment(systems, some, qrels, AGREEING, batch_size=3)
    assert_same_table(after, before)
    assert after.loc['bm25', 'num_q'] == 9                   # ir_measures' NumQ: the queries evaluated


def test_evaluate(ir_measures_pipeline, systems, topics, qrels):
    results = systems['dense'].transform(topics)
    before = pt.Evaluate(results, qrels, metrics=AGREEING)
    irm.use_in_ir_measures()
    after = pt.Evaluate(results, qrels, metrics=AGREEING)
    assert after == pytest.approx(before, abs=1e-12)
    assert after['map'] == pytest.approx(irm.AP.calc_aggregate(QRELS, RUNS['dense']), abs=1e-12)


def test_a_pyterrier_result_frame_is_an_irmetrics_run(systems, topics, qrels):
    """A frame as pt.Experiment's systems return it (qid, docno, score, rank, query) and PyTerrier's
    qrels frame (qid, docno, label) go into irmetrics as they are."""
    results = (systems['bm25'] % 10).transform(topics)
    assert {'qid', 'docno', 'score'} <= set(results.columns) and 'label' in qrels.columns
    got = irm.calc_aggregate(['AP', 'nDCG@10'], qrels, results)
    assert got == irm.calc_aggregate(['AP', 'nDCG@10'], QRELS, pt.model.to_ir_measures(results))


def test_the_columns_come_in_the_order_asked_whatever_the_hash_seed(tmp_path):
    """ir_measures gives its providers the measures as a set, whose order changes with the interpreter's
    hash seed; irmetrics keeps the order they were asked in, so a PyTerrier table has its columns in that
    order on every run (without irmetrics: ['map', 'recip_rank', 'P_10', 'nDCG@10', 'RR@10'])."""
    import os
    import subprocess
    import sys
    code = (
        'import logging, pandas as pd, pyterrier as pt, ir_measures, irmetrics as irm\n'
        'logging.getLogger("ir_measures").disabled = True\n'
        f'qrels = pt.io.read_qrels({QRELS!r})\n'
        'topics = pd.DataFrame({"qid": sorted(qrels.qid.unique()), "query": "x"})\n'
        f'system = pt.Transformer.from_df(pt.io.read_results({RUNS["bm25"]!r}))\n'
        'irm.use_in_ir_measures()\n'
        'parse = ir_measures.parse_measure\n'
        'measures = ["recip_rank", "map", parse("nDCG@10"), "P_10", parse("RR@10")]\n'
        'print(list(pt.Experiment([system], topics, qrels, measures, names=["bm25"]).columns))\n')
    seen = {subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True,
                           env={**os.environ, 'PYTHONHASHSEED': str(seed)}).stdout.strip()
            for seed in (0, 1, 2, 3)}
    assert seen == {"['name', 'recip_rank', 'map', 'nDCG@10', 'P_10', 'RR@10']"}, seen
