"""The readers against two references, on generated files built to break readers
(``trec_text_cases.py``: odd white space, Unicode inside ids, extra fields, comments, blank lines,
ties, hexadecimal scores, sizes that cross the 64 KiB and 2 MiB thresholds).

* trec_eval 10 itself: its ``-q -c`` output for each case is stored in
  ``data/trec_eval/reader_cases.json`` (``data/trec_eval/make_oracles.py`` regenerates it from a
  binary built from source), and irmetrics' ``--trec-eval`` output must hold the same lines.
* a plain line-by-line reader (``reference_reader.py``): evaluating what it reads must give exactly
  the numbers of evaluating the files, through every reader path and id layout.
"""
import gzip
import io
import json
from contextlib import redirect_stdout

import pytest
import reference_reader
from repo_paths import FIXTURES
from trec_text_cases import make_case

import irmetrics as irm
from irmetrics.cli import main

ORACLES = json.loads((FIXTURES / 'trec_eval' / 'reader_cases.json').read_text())
MEASURES = ['AP', 'P@1', 'P@5', 'RR', 'nDCG', 'NumRet', 'NumRel', 'NumRet(rel=1)', 'Bpref', 'Rprec', 'nDCG@10']


def trec_eval_lines(text: str) -> list[tuple[str, str, str]]:
    return sorted(tuple(field.strip() for field in line.split('\t')) for line in text.splitlines() if line)


@pytest.mark.parametrize('case', ORACLES['cases'], ids=lambda c: f"seed{c['seed']}-{c['size']}")
def test_trec_eval_output_is_reproduced(tmp_path, case):
    generated = make_case(case['seed'])
    assert generated.sha256 == case['sha256'], 'the generator changed: run data/trec_eval/make_oracles.py'
    assert case['returncode'] == 0
    (tmp_path / 'qrels').write_bytes(generated.qrels)
    (tmp_path / 'run').write_bytes(generated.run)
    measures = [word for word in ORACLES['options'] if word not in ('-q', '-c', '-m')]
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(['--trec-eval', '-q', str(tmp_path / 'qrels'), str(tmp_path / 'run'), *measures])
    assert status == 0
    assert trec_eval_lines(out.getvalue()) == trec_eval_lines(case['stdout'])


def evaluated(qrels, run) -> dict:
    results = irm.calc(MEASURES, qrels, run)
    return {(m.query_id, repr(m.measure)): m.value for m in results.per_query}


@pytest.mark.parametrize('seed', range(0, 53, 2))
def test_files_read_as_the_plain_reader_reads_them(seed, layout):
    case = make_case(seed)
    expected = evaluated(reference_reader.read_qrels(case.qrels), reference_reader.read_run(case.run))
    assert evaluated(case.qrels, case.run) == expected


@pytest.mark.parametrize('seed', [3, 7, 44])
def test_every_source_of_a_case_reads_the_same(tmp_path, seed):
    case = make_case(seed)
    expected = evaluated(reference_reader.read_qrels(case.qrels), reference_reader.read_run(case.run))
    (tmp_path / 'q.gz').write_bytes(gzip.compress(case.qrels))
    (tmp_path / 'r.gz').write_bytes(gzip.compress(case.run))
    (tmp_path / 'q').write_bytes(case.qrels)
    (tmp_path / 'r').write_bytes(case.run)
    for qrels, run in ((tmp_path / 'q.gz', tmp_path / 'r.gz'), (str(tmp_path / 'q'), str(tmp_path / 'r')),
                       (case.qrels.decode() + '\n', case.run.decode() + '\n')):
        assert evaluated(qrels, run) == expected
