"""ranx's ``Qrels`` and ``Run`` objects wherever qrels and runs are accepted: the API, comparisons, and
ir_measures' functions through the irmetrics provider.  They are told by their type's name and module,
so converting one never imports ranx."""
import subprocess
import sys

import pytest
from reference_tools import reference
from repo_paths import ROOT

import irmetrics as irm

ranx = reference('ranx')
QRELS, BM25, DENSE = (str(ROOT / 'examples' / name) for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))
MEASURES = ['AP', 'nDCG@10', 'P@5', 'RR', 'Bpref', 'NumRel']


@pytest.fixture(scope='module')
def objects():
    return (ranx.Qrels.from_file(QRELS, kind='trec'), ranx.Run.from_file(BM25, kind='trec'),
            ranx.Run.from_file(DENSE, kind='trec'))


def test_ranx_objects_give_the_numbers_of_the_files(objects):
    qrels, bm25, _ = objects
    assert irm.calc(MEASURES, qrels, bm25).values.tolist() == irm.calc(MEASURES, QRELS, BM25).values.tolist()
    assert irm.to_qrels(qrels).num_queries == 10 and len(irm.to_run(bm25)) == len(irm.read_trec_run(BM25))
    ev = irm.evaluator(MEASURES, qrels)
    assert ev.calc_aggregate(bm25) == irm.calc_aggregate(MEASURES, QRELS, BM25)


def test_ranx_objects_in_a_comparison(objects):
    qrels, bm25, dense = objects
    ours = irm.compare('AP', qrels, {'bm25': bm25, 'dense': dense}, baseline='bm25').to_dataframe()
    files = irm.compare('AP', QRELS, {'bm25': BM25, 'dense': DENSE}, baseline='bm25').to_dataframe()
    assert ours.drop(columns='run').equals(files.drop(columns='run'))


def test_ranx_objects_through_ir_measures(objects, ir_measures_pipeline):
    """ir_measures cannot read ranx objects itself; through the irmetrics provider it can."""
    import ir_measures
    qrels, bm25, _ = objects
    irm.use_in_ir_measures()
    got = ir_measures.calc_aggregate([ir_measures.AP, ir_measures.nDCG@10], qrels, bm25)
    assert got == {ir_measures.AP: pytest.approx(irm.AP.calc_aggregate(QRELS, BM25), abs=1e-12),
                   ir_measures.nDCG@10: pytest.approx((irm.nDCG@10).calc_aggregate(QRELS, BM25), abs=1e-12)}


def test_a_ranx_object_of_the_other_kind_is_an_error(objects):
    qrels, bm25, _ = objects
    with pytest.raises(irm.InputError, match='a ranx Run was given where qrels are expected'):
        irm.calc_aggregate(['AP'], bm25, bm25)
    with pytest.raises(irm.InputError, match='a ranx Qrels was given where a run is expected'):
        irm.to_run(qrels)


def test_ranx_is_never_imported_to_tell_its_objects():
    code = '\n'.join([
        'import sys', 'import irmetrics as irm',
        'class Run:',
        '    def to_dict(self):',
        "        return {'q': {'a': 2.0, 'b': 1.0}}",
        "Run.__module__ = 'ranx.data_structures.run'",
        "print(irm.calc_aggregate(['P@1'], {'q': {'b': 1}}, Run()), 'ranx' in sys.modules)",
    ])
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "{'P@1': 0.0} False"
