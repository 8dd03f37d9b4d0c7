"""The examples of docs/integrations.md run, from a copy of the repository's ``examples/``, and give
the numbers the page states.

Each Python block of the page is found by the variable it defines (``table``, ``through_irmetrics``,
``from_ranx``, ``beir``, ``from_ir_datasets``) and run in a fresh namespace; a block no test claims
fails :func:`test_every_example_is_checked`.  BEIR is not installed by the test extra (it pulls in
PyTorch): its ``EvaluateRetrieval.evaluate`` is written out below from its documented behaviour, on
pytrec_eval as BEIR calls it, and the page's recipe must give exactly its dictionaries.
"""
import copy
import re
import shutil

import pytest
from reference_tools import reference
from repo_paths import ROOT

import irmetrics as irm

pytrec_eval = reference('pytrec_eval')
ranx = reference('ranx')
PAGE = ROOT / 'docs' / 'integrations.md'
NAMES = ('table', 'through_irmetrics', 'from_ranx', 'beir', 'from_ir_datasets')


def python_blocks() -> list[str]:
    blocks, current = [], None
    for line in PAGE.read_text(encoding='utf-8').splitlines():
        if current is None:
            if line.strip() == '```python':
                current = []
        elif line.startswith('```'):
            blocks.append('\n'.join(current) + '\n')
            current = None
        else:
            current.append(line)
    return blocks


def block_defining(name: str) -> str:
    (block,) = [b for b in python_blocks() if re.search(rf'^{name} = ', b, re.MULTILINE)]
    return block


@pytest.fixture
def run_example(tmp_path, monkeypatch, ir_measures_pipeline):
    """Runs the page's block that defines a name, in a directory holding ``examples/``; returns its namespace."""
    shutil.copytree(ROOT / 'examples', tmp_path / 'examples')
    monkeypatch.chdir(tmp_path)

    def run(name):
        namespace = {}
        exec(compile(block_defining(name), str(PAGE), 'exec'), namespace)
        return namespace
    return run


def test_every_example_is_checked():
    blocks = python_blocks()
    assert len(blocks) == len(NAMES)
    assert all(sum(bool(re.search(rf'^{n} = ', b, re.MULTILINE)) for n in NAMES) == 1 for b in blocks)


def test_pyterrier(run_example):
    table = run_example('table')['table'].set_index('name')
    assert table.loc['bm25', 'map'] == pytest.approx(0.4087, abs=5e-5)
    assert table.loc['bm25', 'ndcg_cut_10'] == pytest.approx(0.4361, abs=5e-5)
    assert table.loc['bm25', 'RR@10'] == pytest.approx(0.85, abs=1e-12)
    assert {'map +', 'map -', 'map p-value', 'map p-value corrected', 'map reject'} <= set(table.columns)


def test_ir_measures(run_example):
    import ir_measures
    found = run_example('through_irmetrics')
    AP, nDCG, RR = ir_measures.AP, ir_measures.nDCG, ir_measures.RR
    assert found['through_irmetrics'] == {AP: pytest.approx(0.4087, abs=5e-5), nDCG@10: pytest.approx(0.4361, abs=5e-5),
                                          RR@10: pytest.approx(0.85, abs=1e-12)}
    assert found['forced'][AP] == found['through_irmetrics'][AP]
    assert found['alone'][RR@10] == pytest.approx(0.8167, abs=5e-5)
    assert found['alone'][AP] == pytest.approx(found['through_irmetrics'][AP], abs=1e-12)
    assert 'irmetrics' not in ir_measures.providers.registry                   # the block undid it


def test_ranx(run_example):
    found = run_example('from_ranx')['from_ranx']
    assert list(found.values()) == pytest.approx([0.4361, 0.4087, 0.5, 0.85], abs=5e-5)
    assert found[irm.RR] == 0.85 and found[irm.P@5] == 0.5
    qrels = ranx.Qrels.from_file('examples/qrels.txt', kind='trec')
    run = ranx.Run.from_file('examples/run_bm25.txt', kind='trec')
    theirs = ranx.evaluate(qrels, run, ['precision@5', 'map', 'mrr'])
    assert theirs == pytest.approx({'precision@5': 0.46, 'map': 0.4046, 'mrr': 0.8167}, abs=5e-5)


def beir_evaluate(qrels, results, k_values):
    """BEIR's ``EvaluateRetrieval.evaluate(qrels, results, k_values)`` with its default
    ``ignore_identical_ids=True``: the documents retrieved under their own query's id are dropped;
    pytrec_eval computes ``ndcg_cut``, ``map_cut``, ``recall`` and ``P`` at each k; each is averaged
    over the queries pytrec_eval reports (those of ``results`` with qrels) and rounded to 5 decimals,
    into ``{'NDCG@k': ...}``, ``{'MAP@k': ...}``, ``{'Recall@k': ...}``, ``{'P@k': ...}``."""
    results = {q: {d: s for d, s in docs.items() if d != q} for q, docs in results.items()}
    ks = ','.join(map(str, k_values))
    names = {'NDCG': 'ndcg_cut', 'MAP': 'map_cut', 'Recall': 'recall', 'P': 'P'}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f'{trec}.{ks}' for trec in names.values()})
    scores = evaluator.evaluate(results)
    return tuple({f'{name}@{k}': round(sum(s[f'{trec}_{k}'] for s in scores.values()) / len(scores), 5)
                  for k in k_values} for name, trec in names.items())


def test_beir(run_example):
    found = run_example('beir')
    qrels, results = copy.deepcopy(found['qrels']), copy.deepcopy(found['results'])
    expected = beir_evaluate(qrels, results, found['k_values'])
    assert (found['ndcg'], found['_map'], found['recall'], found['precision']) == expected
    assert found['ndcg'] == {'NDCG@1': 0.25, 'NDCG@3': 0.57352, 'NDCG@5': 0.57352, 'NDCG@10': 0.57352}
    assert found['results'] == results                          # not modified


def beir_recipe(qrels, results, k_values):
    """The page's recipe, as a function."""
    namespace = {'irm': irm, 'qrels': qrels, 'results': results, 'k_values': k_values}
    block = block_defining('beir')
    exec(compile(block[block.index('# before'):], str(PAGE), 'exec'), namespace)
    return namespace['ndcg'], namespace['_map'], namespace['recall'], namespace['precision']


def test_beir_recipe_on_the_shipped_runs():
    """Tied scores, a qrels query no run query answers, a query retrieving only its own id, BEIR's
    default k values."""
    qrels = {q.query_id: {} for q in irm.read_trec_qrels(ROOT / 'examples' / 'qrels.txt')}
    for q in irm.read_trec_qrels(ROOT / 'examples' / 'qrels.txt'):
        qrels[q.query_id][q.doc_id] = q.relevance
    for name in ('bm25', 'dense'):
        results = {}
        for d in irm.read_trec_run(ROOT / 'examples' / f'run_{name}.txt'):
            results.setdefault(d.query_id, {})[d.doc_id] = d.score
        del results['405']
        results['406']['406'] = 99.0                              # the query's own id, at the top
        results['999'] = {'999': 1.0}
        qrels['999'] = {'999': 1}
        k_values = [1, 3, 5, 10, 100, 1000]
        assert beir_recipe(qrels, copy.deepcopy(results), k_values) == beir_evaluate(qrels, results, k_values)


def test_ir_datasets(run_example, monkeypatch, tmp_path):
    """ir_datasets.load gives the shipped qrels as ir_datasets' own records (nothing downloaded)."""
    import ir_datasets
    from ir_datasets.formats import TrecQrel

    class Shipped:
        def qrels_iter(self):
            for q in irm.read_trec_qrels(ROOT / 'examples' / 'qrels.txt'):
                yield TrecQrel(q.query_id, q.doc_id, q.relevance, q.iteration)
    loaded = []
    monkeypatch.setattr(ir_datasets, 'load', lambda dataset_id: loaded.append(dataset_id) or Shipped())
    shutil.copy(ROOT / 'examples' / 'run_bm25.txt', tmp_path / 'run.txt')
    found = run_example('from_ir_datasets')['from_ir_datasets']
    assert loaded == ['msmarco-passage/dev/small']
    assert found == irm.calc_aggregate(['RR@10', 'R@1000'], 'examples/qrels.txt', 'run.txt')
