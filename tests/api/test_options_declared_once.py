"""The shared options are declared once (the fields of ``irmetrics.api.options.Options``) and every evaluating
function takes all of them, the Dask functions and the torchmetrics bridge included: an unknown name is one
``TypeError`` listing them, and each is applied (shown here with ``dialect`` and ``duplicates``, which change
what is computed)."""
import dataclasses
import typing

import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.api.options import EvaluationOptions, Options
from irmetrics.comparing.gate import gate

QRELS, BM25, DENSE = (str(ROOT / 'examples' / name) for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))
SHARED = 'its shared options: dialect, duplicates, exclude, grades, items, memory_limit, provider, strict'


def test_one_declaration_with_a_meaning_for_each_option():
    fields = dataclasses.fields(Options)
    assert [f.name for f in fields] == list(typing.get_type_hints(EvaluationOptions))
    assert all(f.metadata['doc'] for f in fields)
    assert Options.of({'duplicates': 'max'}, 'f').given() == {
        'provider': None, 'duplicates': 'max', 'items': None, 'exclude': None, 'strict': False, 'dialect': None,
        'memory_limit': None, 'grades': 'real'}


def _dask_calc(**options):
    import irmetrics.dask
    return irmetrics.dask.calc(['AP'], QRELS, BM25, **options)


CALLS = {
    'calc': lambda **o: irm.calc(['AP'], QRELS, BM25, **o),
    'evaluator': lambda **o: irm.evaluator(['AP'], QRELS, **o),
    'Evaluator': lambda **o: irm.Evaluator(['AP'], QRELS, **o),
    'compare': lambda **o: irm.compare(['AP'], QRELS, [BM25, DENSE], **o),
    'trisk': lambda **o: irm.trisk('AP', QRELS, DENSE, baseline=BM25, **o),
    'judgment_coverage': lambda **o: irm.judgment_coverage(QRELS, [BM25], **o),
    'roc_curve': lambda **o: irm.roc_curve(QRELS, BM25, **o),
    'plot_pr_curve': lambda **o: irm.plot_pr_curve(QRELS, BM25, **o),
    'gate': lambda **o: gate(['AP'], QRELS, BM25, stored={'401': {'AP': 0.5}, '402': {'AP': 0.5}}, **o),
    'irmetrics.dask.evaluator': _dask_calc,
}


@pytest.mark.parametrize('name', CALLS)
def test_every_evaluating_function_takes_the_shared_options_and_names_them_for_an_unknown_one(name):
    with pytest.raises(TypeError, match=f"unexpected keyword argument 'provder' \\({SHARED}\\)"):
        CALLS[name](provder='native')


def test_the_dask_functions_and_the_torchmetrics_bridge_apply_every_option(tmp_path):
    """trec_eval's name ``map`` read through ``dialect``, a run whose first document is repeated (lower) resolved
    by ``duplicates``: the numbers of ``calc`` with the same options (the bridge's other keywords are
    torchmetrics')."""
    import irmetrics.dask
    from irmetrics.bridges.torchmetrics import RankingMetric
    lines = (ROOT / 'examples' / 'run_bm25.txt').read_text().splitlines()
    first = lines[0].split()
    doubled = '\n'.join([*lines, ' '.join([*first[:4], '-1.0', first[5]])]) + '\n'
    want = irm.calc_aggregate('map', QRELS, doubled, dialect='trec_eval', duplicates='max', strict=False)
    assert list(want) == ['AP'] and want['AP'] == irm.calc_aggregate(['AP'], QRELS, BM25)['AP']
    (tmp_path / 'doubled.run').write_text(doubled)
    assert irmetrics.dask.calc_aggregate('map', QRELS, str(tmp_path / 'doubled.run'), dialect='trec_eval',
                                         duplicates='max') == want
    metric = RankingMetric('map', QRELS, dialect='trec_eval', duplicates='max', sync_on_compute=False)
    metric.update(doubled)
    assert metric.compute() == want
    with pytest.raises(irm.OptionError, match='memory_limit: a Dask run is read partition by partition'):
        irmetrics.dask.evaluator(['AP'], QRELS, memory_limit='1G')
