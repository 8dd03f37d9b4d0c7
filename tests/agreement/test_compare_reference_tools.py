"""irmetrics.comparing against the tools IR users compare runs with, on the shipped example runs.

PyTerrier's ``pt.Experiment(baseline=..., test=..., correction=...)`` (pytrec_eval underneath; no
Java needed for precomputed runs): the same per-query values, so the same p-values for the t and
Wilcoxon tests and the same corrected p-values for every correction both offer.

ranx's ``compare(..., stat_test='student')``: ranx breaks tied scores its own way, and the shipped
runs have ties, so its per-query values (and p-values) differ there (ranx's MAP of run_bm25 is
0.405, trec_eval's 0.4087).  With the ties resolved in the file (trec_eval's order written as
distinct scores), both tools rank alike and the p-values agree.
"""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from repo_paths import EXAMPLES

import irmetrics as irm

QRELS = str(EXAMPLES / 'qrels.txt')
PT_MEASURES = {'map': 'AP', 'ndcg_cut_10': 'nDCG@10', 'P_10': 'P@10', 'recip_rank': 'RR'}


def untied(path: Path, out: Path) -> str:
    """The run with trec_eval's ranking (score descending, ties by docno descending) written as
    distinct scores, so that every tool ranks it alike."""
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: (r[0], -float(r[4]), [-b for b in r[2].encode()]))
    lines = [f'{q} Q0 {doc} {i + 1} {1000 - i} {tag}' for i, (q, _, doc, _, _, tag) in enumerate(rows)]
    out.write_text('\n'.join(lines) + '\n')
    return str(out)


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    """bm25, dense, and a third run (bm25 with each query's ranking reversed): three runs, so that
    corrections have a family of two comparisons against the baseline."""
    tmp = tmp_path_factory.mktemp('runs')
    reversed_rows = []
    for q, lines in pd.read_csv(EXAMPLES / 'run_bm25.txt', sep=' ', header=None, dtype=str).groupby(0):
        for i, (_, r) in enumerate(lines.iloc[::-1].iterrows()):
            reversed_rows.append(f'{q} Q0 {r[2]} {i + 1} {100 - i} rev')
    (tmp / 'run_rev.txt').write_text('\n'.join(reversed_rows) + '\n')
    return {'bm25': str(EXAMPLES / 'run_bm25.txt'), 'dense': str(EXAMPLES / 'run_dense.txt'),
            'rev': str(tmp / 'run_rev.txt')}


@pytest.fixture(scope='module')
def pt():
    import pyterrier
    return pyterrier


def read(path):
    frame = pd.read_csv(path, sep=r'\s+', header=None, names=['qid', 'Q0', 'docno', 'rank', 'score', 'tag'],
                        dtype={'qid': str, 'docno': str})
    return frame[['qid', 'docno', 'score', 'rank']]


@pytest.mark.parametrize('test', ['t', 'wilcoxon'])
@pytest.mark.parametrize('correction', [None, 'bonferroni', 'holm', 'hommel', 'fdr_bh', 'fdr_by'])
def test_pyterrier_experiment_p_values(pt, runs, test, correction):
    qrels = pd.read_csv(QRELS, sep=r'\s+', header=None, names=['qid', 'iteration', 'docno', 'label'],
                        dtype={'qid': str, 'docno': str})
    topics = pd.DataFrame({'qid': sorted(qrels.qid.unique()), 'query': 'unused'})
    systems = [pt.Transformer.from_df(read(path)) for path in runs.values()]
    names = list(runs)
    ref = pt.Experiment(systems, topics, qrels, list(PT_MEASURES), names=names, baseline=0, test=test,
                        correction=correction).set_index('name')
    ours = irm.compare(list(PT_MEASURES.values()), QRELS, runs, baseline='bm25', test=test,
                       correction=correction).to_dataframe()
    for pt_name, measure in PT_MEASURES.items():
        for run in ('dense', 'rev'):
            row = ours[(ours.run == run) & (ours.measure == measure)].iloc[0]
            assert row['mean'] == pytest.approx(ref.loc[run, pt_name], abs=1e-12)
            assert row['p_value'] == pytest.approx(ref.loc[run, f'{pt_name} p-value'], abs=1e-12)
            assert (row['wins'], row['losses']) == (ref.loc[run, f'{pt_name} +'], ref.loc[run, f'{pt_name} -'])
            if correction is not None:
                assert row['p_adjusted'] == pytest.approx(ref.loc[run, f'{pt_name} p-value corrected'], abs=1e-12)
                assert bool(row['significant']) == bool(ref.loc[run, f'{pt_name} reject'])


def ranx_p_values(qrels_path, run_paths, metrics):
    from ranx import Qrels, Run, compare
    qrels = Qrels.from_file(qrels_path, kind='trec')
    loaded = []
    for name, path in run_paths.items():
        run = Run.from_file(path, kind='trec')
        run.name = name
        loaded.append(run)
    report = compare(qrels, loaded, metrics, stat_test='student', max_p=0.05)
    return {key: value for key, value in report.comparisons.items()}, report.results


RANX_METRICS = {'map': 'AP', 'ndcg@10': 'nDCG@10', 'precision@10': 'P@10', 'mrr': 'RR'}


def test_ranx_student_t_agrees_when_the_runs_have_no_ties(runs, tmp_path):
    paths = {name: untied(Path(path), tmp_path / f'{name}.txt') for name, path in runs.items()}
    comparisons, means = ranx_p_values(QRELS, paths, list(RANX_METRICS))
    ours = irm.compare(list(RANX_METRICS.values()), QRELS, paths).to_dataframe()
    checked = 0
    for pair, by_metric in comparisons.items():
        a, b = pair
        for metric, measure in RANX_METRICS.items():
            found = ours[(((ours.run == a) & (ours.baseline == b)) | ((ours.run == b) & (ours.baseline == a)))
                         & (ours.measure == measure)]
            assert len(found) == 1                                     # each pair once
            row = found.iloc[0]
            assert row['p_value'] == pytest.approx(by_metric[metric]['p_value'], abs=1e-12)
            assert row['mean'] == pytest.approx(means[row.run][metric], abs=1e-12)
            checked += 1
    assert checked == 3 * 4


def test_ranx_differs_on_tied_scores_because_it_ranks_ties_otherwise(runs):
    """On the shipped runs (tied scores) ranx's means and p-values are not trec_eval's: the difference
    is the tie order, not the test."""
    comparisons, means = ranx_p_values(QRELS, {k: runs[k] for k in ('bm25', 'dense')}, ['map'])
    ours = irm.compare('AP', QRELS, {k: runs[k] for k in ('bm25', 'dense')}).to_dataframe()
    assert means['bm25']['map'] != pytest.approx(ours[ours.run == 'bm25']['mean'].iloc[0], abs=1e-4)
    (by_metric,) = comparisons.values()
    assert not np.isclose(by_metric['map']['p_value'], ours['p_value'].iloc[0], atol=1e-6)


def test_pyterrier_pairs_a_query_missing_from_a_run_as_zero(pt, tmp_path):
    """A run that retrieved nothing for query 401: both tools score it 0 and pair over all topics."""
    lines = (EXAMPLES / 'run_dense.txt').read_text().splitlines()
    partial = tmp_path / 'dense_without_401.txt'
    partial.write_text('\n'.join(line for line in lines if not line.startswith('401 ')) + '\n')
    qrels = pd.read_csv(QRELS, sep=r'\s+', header=None, names=['qid', 'iteration', 'docno', 'label'],
                        dtype={'qid': str, 'docno': str})
    topics = pd.DataFrame({'qid': sorted(qrels.qid.unique()), 'query': 'unused'})
    systems = [pt.Transformer.from_df(read(p)) for p in (EXAMPLES / 'run_bm25.txt', partial)]
    ref = pt.Experiment(systems, topics, qrels, ['map'], names=['bm25', 'dense'], baseline=0).set_index('name')
    ours = irm.compare('AP', QRELS, {'bm25': str(EXAMPLES / 'run_bm25.txt'), 'dense': str(partial)},
                       baseline='bm25').to_dataframe()
    row = ours[ours.run == 'dense'].iloc[0]
    assert row['mean'] == pytest.approx(ref.loc['dense', 'map'], abs=1e-12)
    assert row['p_value'] == pytest.approx(ref.loc['dense', 'map p-value'], abs=1e-12)
    assert row['wins'] + row['ties'] + row['losses'] == 10
