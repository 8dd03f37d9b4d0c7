"""``irmetrics gate``: a run against stored per-query values, exit 1 when a measure is
significantly worse (or dropped by more than --margin), 0 otherwise, 2 for an error."""
import json
from pathlib import Path

import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.comparing.gate import gate

QRELS, BM25, DENSE = 'examples/qrels.txt', 'examples/run_bm25.txt', 'examples/run_dense.txt'


@pytest.fixture
def stored(tmp_path):
    """The per-query values of each example run, as irmetrics -q -f json writes them."""
    out = {}
    for name, run in (('dense', DENSE), ('bm25', BM25)):
        proc = irmetrics(QRELS, run, '-m', 'AP nDCG@10 P@10', '-q', '-f', 'json', cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        (tmp_path / f'{name}.json').write_text(proc.stdout)
        out[name] = str(tmp_path / f'{name}.json')
    return out


def test_a_significantly_worse_run_fails_the_gate(stored):
    proc = irmetrics('gate', QRELS, BM25, '--against', stored['dense'], cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ['measure', 'stored', 'run_bm25', 'delta', 'p', 'adjusted', 'verdict']
    assert lines[1].split()[:4] == ['AP', '0.5396', '0.4087', '-0.1309']
    assert lines[1].endswith('FAIL: significantly worse')
    assert lines[-1].startswith('gate FAILED on AP, nDCG@10, P@10: run_bm25 against run_dense on 10 paired queries')


def test_a_better_or_equal_run_passes(stored):
    for run, against in ((DENSE, 'bm25'), (DENSE, 'dense')):
        proc = irmetrics('gate', QRELS, run, '--against', stored[against], cwd=ROOT)
        assert proc.returncode == 0 and proc.stdout.splitlines()[-1].startswith('gate passed'), proc.stdout


def test_the_margin_fails_a_drop_the_test_does_not_find(stored):
    """One query's AP lowered a little: not significant, but more than the margin."""
    path = Path(stored['bm25'])
    doc = json.loads(path.read_text())
    doc['runs'][0]['per_query']['401']['AP'] += 0.05                         # the stored run was better there
    path.write_text(json.dumps(doc))
    proc = irmetrics('gate', QRELS, BM25, '--against', stored['bm25'], '-m', 'AP', '--margin', '0.001', cwd=ROOT)
    assert proc.returncode == 1 and 'FAIL: dropped by more than 0.001' in proc.stdout
    proc = irmetrics('gate', QRELS, BM25, '--against', stored['bm25'], '-m', 'AP', cwd=ROOT)
    assert proc.returncode == 0, proc.stdout


def test_the_gate_is_compare_against_the_stored_values():
    """The same numbers as comparing the two runs with the stored one as baseline."""
    dense = irm.calc(['AP', 'nDCG@10'], ROOT / QRELS, ROOT / DENSE)
    stored = {q: {str(m): v for m, v in zip(dense.measures, row, strict=True)}
              for q, row in zip(dense.query_ids, dense.values.tolist(), strict=True)}
    result = gate('AP nDCG@10', ROOT / QRELS, ROOT / BM25, stored=stored, correction='holm')
    cmp = irm.compare('AP nDCG@10', ROOT / QRELS, {'dense': ROOT / DENSE, 'bm25': ROOT / BM25}, baseline='dense',
                      correction='holm', correction_scope='all')
    assert [v.delta for v in result.verdicts] == pytest.approx(list(cmp.delta[0]), abs=1e-15)
    assert [v.p_adjusted for v in result.verdicts] == pytest.approx(list(cmp.p_adjusted['t'][0]), abs=1e-15)
    assert not result.passed


@pytest.mark.parametrize('content, message', [('[1, 2]', 'not irmetrics\' JSON of an evaluation'),
                                              ('{"runs": [{"run": "x", "aggregate": {}}]}', 'no per-query values'),
                                              ('nope', 'not JSON')])
def test_a_stored_file_that_is_not_one_is_one_error(tmp_path, content, message):
    (tmp_path / 'stored.json').write_text(content)
    assert_user_error(irmetrics('gate', QRELS, BM25, '--against', str(tmp_path / 'stored.json'), cwd=ROOT), message)
