"""``irmetrics trec_eval -R prefs|qrels_prefs|qrels_jg`` against trec_eval 10's own output, byte for byte.

The oracle is ``fixtures/trec_eval/prefs_cases.json.gz`` (written by ``make_prefs_oracles.py``): trec_eval's
stdout and exit status for command lines over NIST's test files and over the generated cases of
``trec_eval_prefs_cases.py``, and the same with every digit of each value (a trec_eval printing ``%.17g``),
which irmetrics must print to the bit.  NIST's own expected outputs (``out.test.prefs``,
``out.test.qrels_prefs``, ``out.test.qrels_jg``, from trec_eval's Makefile test) are checked as well.
"""
import gzip
import json
from collections import Counter

import pytest
from cli_support import run_in_process
from repo_paths import FIXTURES
from test_trec_eval_command import check
from test_trec_eval_digits import every_digit
from trec_eval_prefs_cases import make_prefs_case

from irmetrics.dialects.trec_eval import TREC_NAMES

NIST = FIXTURES / 'trec_eval' / 'nist'
ORACLE = json.loads(gzip.decompress((FIXTURES / 'trec_eval' / 'prefs_cases.json.gz').read_bytes()))
#: trec_eval's Makefile test: (expected output, judgments, run, arguments).
MAKEFILE = [('out.test.prefs', 'prefs.test', 'prefs.results.test', ['-m', 'all_prefs', '-q', '-R', 'prefs']),
            ('out.test.qrels_prefs', 'qrels.test', 'results.test', ['-m', 'all_prefs', '-q', '-R', 'qrels_prefs']),
            ('out.test.qrels_jg', 'qrels.123', 'results.test', ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg'])]


@pytest.mark.parametrize('expected, judgments, run, args', MAKEFILE, ids=[m[0] for m in MAKEFILE])
def test_nists_expected_outputs(expected, judgments, run, args):
    status, out, err = run_in_process(['trec_eval', *args, str(NIST / judgments), str(NIST / run)])
    assert status == 0, err
    assert out == (NIST / expected).read_bytes()


@pytest.mark.parametrize('case', ORACLE['nist'], ids=lambda c: f"{c['qrels']}-{' '.join(c['args'])}")
def test_nist_files(case):
    check(case['args'], NIST / case['qrels'], NIST / case['run'], case)


def _written(tmp_path, case):
    rel_format, generated = make_prefs_case(case['seed'])
    assert (rel_format, generated.sha256) == (case['format'], case['sha256']), \
        'the generator changed: run fixtures/trec_eval/make_prefs_oracles.py'
    (tmp_path / 'judgments').write_bytes(generated.qrels)
    (tmp_path / 'run').write_bytes(generated.run)
    return tmp_path / 'judgments', tmp_path / 'run'


@pytest.mark.parametrize('case', ORACLE['generated'], ids=lambda c: f"seed{c['seed']}-{' '.join(c['args'])}")
def test_generated_cases(tmp_path, case):
    check(case['args'], *_written(tmp_path, case), case)


def test_every_value_is_trec_evals_double(tmp_path):
    """Every line of every command line trec_eval completes, NIST's files and the generated cases, at 17
    significant digits: the same operations in the same order give the same doubles."""
    compared = Counter()
    for case in ORACLE['nist'] + ORACLE['generated']:
        if case['returncode']:
            continue
        files = (NIST / case['qrels'], NIST / case['run']) if 'qrels' in case else _written(tmp_path, case)
        ours = every_digit(case['args'], *files)
        assert ours == case['digits'], (case.get('seed'), case['args'])
        compared.update(line.split('\t')[0].rstrip() for line in ours.splitlines())
    assert sum(compared.values()) > 20000


def test_the_oracles_cover_what_they_should():
    generated = ORACLE['generated']
    assert sum(c['returncode'] == 0 for c in generated) >= 400
    assert {c['format'] for c in generated if c['returncode'] == 0} == {'prefs', 'qrels_prefs', 'qrels_jg'}
    assert any(c['returncode'] == 4 for c in generated)                  # a judged query missing, no -c
    lines = [' '.join(c['args']) for c in generated if c['returncode'] == 0]
    for option in ('-M 3', '-M1', '-J', '-c', '-n', '-l2', '-M 5'):
        assert any(option in line for line in lines), option
    printed = {line.split('\t')[0].rstrip() for c in generated for line in c['stdout'].splitlines()}
    for entry in TREC_NAMES:
        if entry.judgments in ('prefs', 'qrels_jg'):
            assert any(name == entry.trec or name.startswith(entry.trec + '_') for name in printed), entry.trec


@pytest.mark.parametrize('args, judgments, message', [
    (['-R', 'prefs', '-m', 'map'], 'prefs.test', "'map' is computed from -R qrels"),
    (['-R', 'qrels_jg', '-m', 'prefs_simp'], 'qrels.123', "'prefs_simp' is computed from -R prefs or -R qrels_prefs"),
    (['-m', 'P_avgjg'], 'qrels.test', "'P_avgjg' is computed from -R qrels_jg, not from -R qrels"),
    (['-R', 'jg', '-m', 'map'], 'qrels.test',
     "-R jg: irmetrics reads trec_eval's 'qrels', 'prefs', 'qrels_prefs', 'qrels_jg' formats"),
])
def test_a_measure_of_other_judgments_is_one_error(args, judgments, message):
    status, out, err = run_in_process(['trec_eval', *args, str(NIST / judgments), str(NIST / 'results.test')])
    assert (status, out) == (2, b'')
    assert message in err


def test_a_malformed_line_names_file_and_line(tmp_path):
    (tmp_path / 'p').write_text('q1 A s1 d1 2\nq1 A s1 d2\n')
    (tmp_path / 'r').write_text('q1 Q0 d1 1 1.0 r\n')
    status, out, err = run_in_process(['trec_eval', '-R', 'prefs', '-m', 'all_prefs', str(tmp_path / 'p'),
                                       str(tmp_path / 'r')])
    assert (status, out) == (2, b'')
    assert err == (f"irmetrics: error: {tmp_path / 'p'}:2: expected 5 fields (query_id jg jsg doc_id "
                            f"rel_level), found 4: 'q1 A s1 d2' (a qrels line has 4 fields: qrels are read as "
                            f"preferences with -R qrels_prefs)\n")
