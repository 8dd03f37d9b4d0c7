"""``irmetrics trec_eval`` on fractional grades and with ``-Z`` z-scores, against trec_eval 10's own output.

The oracle is ``fixtures/trec_eval/grade_cases.json.gz`` (``fixtures/trec_eval/make_grade_oracles.py`` on the
generated cases of ``trec_eval_grade_cases.py``): trec_eval 10.0's stdout for every command line, byte for byte,
and, for a few seeds, a rebuilt trec_eval's values with 17 significant digits.  Then the z-scores rules that
the generated files stay clear of: trec_eval's lookup one entry past a query's lines, and the lookups past its
table, which irmetrics refuses.
"""
import gzip
import json
from pathlib import Path

import pytest
from cli_support import run_in_process
from repo_paths import FIXTURES
from test_trec_eval_command import check, is_rbp
from test_trec_eval_digits import every_digit
from trec_eval_grade_cases import make_grade_case, make_zscore_case

ORACLE = json.loads(gzip.decompress((FIXTURES / 'trec_eval' / 'grade_cases.json.gz').read_bytes()))
NIST = FIXTURES / 'trec_eval' / 'nist'


def _grade_files(tmp_path: Path, case: dict) -> tuple[Path, Path]:
    generated = make_grade_case(case['seed'])
    assert generated.sha256 == case['sha256'], 'the generator changed: run make_grade_oracles.py'
    (tmp_path / 'qrels').write_bytes(generated.qrels)
    (tmp_path / 'run').write_bytes(generated.run)
    return tmp_path / 'qrels', tmp_path / 'run'


def _zscore_files(tmp_path: Path, case: dict) -> tuple[list[str], Path, Path]:
    generated = make_zscore_case(case['seed'])
    assert generated.sha256 == case['sha256'], 'the generator changed: run make_grade_oracles.py'
    (tmp_path / 'qrels').write_bytes(generated.case.qrels)
    (tmp_path / 'run').write_bytes(generated.case.run)
    (tmp_path / 'z').write_bytes(generated.zscores)
    return [*case['args'], '-Z', str(tmp_path / 'z')], tmp_path / 'qrels', tmp_path / 'run'


@pytest.mark.parametrize('case', ORACLE['grades'], ids=lambda c: f"seed{c['seed']}-{' '.join(c['args'])}")
def test_fractional_grades_as_trec_eval_reads_them(tmp_path, case):
    """0.5, 2.7, 1e-3, 3.0000001, -0.5, +1, 1., .5, 2e1 ... read as atol reads them, with -l, -J, -M."""
    assert case['returncode'] == 0
    check(case['args'], *_grade_files(tmp_path, case), case)


@pytest.mark.parametrize('case', ORACLE['zscores'], ids=lambda c: f"seed{c['seed']}-{' '.join(c['args'])}")
def test_zscores_as_trec_eval_computes_them(tmp_path, case):
    """Queries and measures missing from the file, deviations of 0, -q, -n, -c, -J, -M, -l."""
    assert case['returncode'] == 0
    args, qrels, run = _zscore_files(tmp_path, case)
    check(args, qrels, run, case)


def test_every_digit_of_the_fractional_grades_and_zscores(tmp_path):
    """The values of a few seeds of both kinds, to the last bit (trec_eval rebuilt to print %.17g)."""
    compared = 0
    for kind in ('grades', 'zscores'):
        for case in ORACLE['digits'][kind]:
            if kind == 'grades':
                args, (qrels, run) = case['args'], _grade_files(tmp_path, case)
            else:
                args, qrels, run = _zscore_files(tmp_path, case)
            ours, theirs = every_digit(args, qrels, run).splitlines(), case['stdout'].splitlines()
            assert len(ours) == len(theirs), (kind, case['seed'], case['args'])
            for mine, expected in zip(ours, theirs, strict=True):
                assert mine == expected or is_rbp(expected), (kind, case['seed'], case['args'], mine, expected)
                compared += 1
    assert compared > 5000


def test_nists_own_zscores_test():
    """trec_eval's own test of -Z (its Makefile): out.test.aqZ, as NIST stores it, byte for byte."""
    check(['-q', '-m', 'all_trec', '-Z', str(NIST / 'zscores_file')], NIST / 'qrels.test', NIST / 'results.test',
          {'returncode': 0, 'stdout': (NIST / 'out.test.aqZ').read_text()})


def test_the_oracles_cover_what_they_should():
    grades = ''.join(make_grade_case(c['seed']).qrels.decode() for c in ORACLE['grades'])
    for spelling in (' 0.5\n', ' 2.7\n', ' 1e-3\n', ' 3.0000001\n', ' -0.5\n', ' -1.5\n', ' +1\n', ' 1.\n', ' .5\n'):
        assert spelling in grades, spelling
    zscores = ''.join(c['stdout'] for c in ORACLE['zscores'])
    assert '-1000000.0000' in zscores and 'Zgm_map' in zscores and 'Znum_q' in zscores and '-nan' in zscores


# --- the rules of trec_eval's lookup ------------------------------------------------------------------
def _z(tmp_path: Path, text: str, *args: str) -> tuple[int, bytes, str]:
    (tmp_path / 'z').write_text(text)
    return run_in_process(['trec_eval', '-q', *args, '-Z', str(tmp_path / 'z'), str(NIST / 'qrels.test'),
                           str(NIST / 'results.test')])


def test_a_missing_measure_takes_the_next_querys_first_line_as_trec_eval_does(tmp_path):
    """301 has no 'map' line, and 'map' sorts after its only line (P_5): trec_eval's search reads one entry
    past 301's lines, the first line of the next query in the file (303's 'map'), and takes its mean and
    deviation; 302 has no line.  The bytes are trec_eval 10.0's for these files (qrels.test and results.test,
    whose map is 0.0324, 0.4175 and 0.0858): (0.0324 - 0.2) / 0.1 for 301."""
    status, out, err = _z(tmp_path, '301 P_5 0.5 0.1\n303 map 0.2 0.1\n303 zz 0 1\n', '-m', 'map')
    assert status == 0, err
    assert out.decode() == ('Zmap                   \t301\t-1.6757\n'
                            'Zmap                   \t302\t-1000000.0000\n'
                            'Zmap                   \t303\t-1.1424\n'
                            'Zmap                   \tall\t-333334.2727\n')


@pytest.mark.parametrize('text, fragment', [
    ('301 map 0 1\n302 map 0 1\n', "query '303' has no line and its id sorts after every query id"),
    ('301 map 0 1\n302 map 0 1\n303 P_5 0 1\n', "'map' has no line for query '303' (the last query id"),
    ('301 map 0 1\n301 map 0 2\n', "query '301' and measure 'map' are given twice"),
    ('301 map 0\n', 'expected 4 fields (query_id measure mean stddev), found 3'),
    ('301 map 0 1\n\n', 'expected 4 fields'),
    ('301 map x 1\n', "mean 'x' is not a number"),
    ('', 'the z-scores file is empty'),
])
def test_what_trec_eval_cannot_read_is_one_error(tmp_path, text, fragment):
    """Where trec_eval's lookup reads past the end of its table (it crashed: undefined), a line given twice
    (which one it finds depends on its C library's sort), and the lines it calls malformed."""
    status, out, err = _z(tmp_path, text, '-m', 'map')
    assert (status, out) == (2, b'') and fragment in err and err.count('\n') == 1, err
