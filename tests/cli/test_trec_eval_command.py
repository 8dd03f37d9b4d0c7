"""``irmetrics trec_eval`` against trec_eval 10's own output, byte for byte.

The oracles are outputs of trec_eval 10.0 stored with the command lines that made them:
``data/trec_eval/command_cases.json.gz`` (the NIST test files and generated cases, see
``data/trec_eval/make_oracles.py`` and ``trec_eval_cases.py``) and the ``trec_eval*.out`` files of the
conformance corpus.  A command line trec_eval runs must print the same bytes here: every line of
trec_eval's in irmetrics' output and every line of irmetrics' in trec_eval's, in the same order.  A
command line trec_eval stops on (a qrels query missing from the run without ``-c``) must be one error.

One measure cannot always agree: trec_eval 10.0's ``rbp`` reads two variables it never initialised (the
least and greatest gain, in m_rbp.c), so its value depends on what an earlier function left on the
stack.  Its lines must be there, named and ordered as trec_eval's, but their values are irmetrics'
(``RBP(max_rel='query')``, checked by hand in tests/measures/test_trec_eval_10_measures.py);
docs/conventions.md says so.

``irmetrics --trec-eval`` prints through the same layout code: given the measures ``irmetrics trec_eval``
computes, it prints the same lines.
"""
import gzip
import json
import re
from pathlib import Path

import pytest
from cli_support import run_in_process
from repo_paths import FIXTURES
from trec_eval_cases import make_case, make_edge_case, refused

from irmetrics.cli.trec_eval_command import parse_invocation, plan

DATA = FIXTURES
NIST = DATA / 'trec_eval' / 'nist'
CONFORMANCE = DATA / 'conformance'
ORACLE = json.loads(gzip.decompress((DATA / 'trec_eval' / 'command_cases.json.gz').read_bytes()))


def differences(ours: str, theirs: str) -> str:
    """What differs, for the failure message: lines only in one output, then the first line that differs."""
    a, b = ours.splitlines(), theirs.splitlines()
    only_ours = [line for line in a if line not in set(b)]
    only_theirs = [line for line in b if line not in set(a)]
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (f'{len(only_theirs)} trec_eval lines missing, e.g. {only_theirs[:3]}; {len(only_ours)} lines trec_eval '
            f'does not print, e.g. {only_ours[:3]}; first difference at line {first + 1}: '
            f'{a[first:first + 1]} vs {b[first:first + 1]}')


def check(args: list[str], qrels: Path, run: Path, expected: dict, stdin: bytes | None = None) -> None:
    status, out, err = run_in_process(['trec_eval', *args, str(qrels), '-' if stdin is not None else str(run)],
                                      stdin)
    if expected['returncode'] != 0:
        # trec_eval 10 stops when a qrels query is missing from the run and -c is not given
        assert 'result qid' not in expected['stdout']
        assert status == 2 and out == b'', (status, err)
        assert re.fullmatch(r"irmetrics: error: .*query '[^']+' of the qrels is not in the run.*\n", err), err
        return
    assert status == 0, err
    text = out.decode('utf-8', 'surrogateescape')
    if text != expected['stdout']:
        ours, theirs = text.splitlines(), expected['stdout'].splitlines()
        assert len(ours) == len(theirs), differences(text, expected['stdout'])
        for a, b in zip(ours, theirs, strict=True):
            same_line = a.split('\t')[:2] == b.split('\t')[:2]
            assert a == b or (same_line and is_rbp(a)), differences(text, expected['stdout'])


def is_rbp(line: str) -> bool:
    """A line of trec_eval's rbp (whose value is undefined in trec_eval 10.0), not of rbp_resid."""
    name = line.split('\t')[0].rstrip()
    return name == 'rbp' or (name.startswith('rbp_') and not name.startswith('rbp_resid'))


@pytest.mark.parametrize('case', ORACLE['nist'], ids=lambda c: f"{c['qrels']}-{c['run']}-{' '.join(c['args'])}")
def test_nist_files(case):
    stdin = (NIST / 'results.test').read_bytes() if case['run'] == '-' else None
    check(case['args'], NIST / case['qrels'], NIST / case['run'], case, stdin)


@pytest.mark.parametrize('case', ORACLE['generated'], ids=lambda c: f"seed{c['seed']}-{' '.join(c['args'])}")
def test_generated_cases(tmp_path, case):
    generated = make_case(case['seed'])
    assert generated.sha256 == case['sha256'], 'the generator changed: run data/trec_eval/make_oracles.py'
    (tmp_path / 'qrels').write_bytes(generated.qrels)
    (tmp_path / 'run').write_bytes(generated.run)
    check(case['args'], tmp_path / 'qrels', tmp_path / 'run', case)


@pytest.mark.parametrize('case', ORACLE['edge'], ids=lambda c: f"seed{c['seed']}-{' '.join(c['args'])}")
def test_edge_cases(tmp_path, case, layout):
    """Document ids of 1 KB to 1 MB and option values at the limits of trec_eval's reading, through
    both reader paths: trec_eval's bytes, or (for a value irmetrics refuses, see docs/conventions.md)
    one error line."""
    generated = make_edge_case(case['seed'])
    assert generated.sha256 == case['sha256'], 'the generator changed: run data/trec_eval/make_oracles.py'
    (tmp_path / 'qrels').write_bytes(generated.qrels)
    (tmp_path / 'run').write_bytes(generated.run)
    if refused(case['args']):
        status, out, err = run_in_process(['trec_eval', *case['args'], str(tmp_path / 'qrels'), str(tmp_path / 'run')])
        assert (status, out) == (2, b'') and re.fullmatch(r'irmetrics: error: [^\n]+\n', err), err
    else:
        assert case['returncode'] == 0
        check(case['args'], tmp_path / 'qrels', tmp_path / 'run', case)


def conformance_oracles():
    out = []
    for spec in sorted(CONFORMANCE.glob('*/expected.json')):
        for run, entries in json.loads(spec.read_text()).get('trec_eval_oracle', {}).items():
            for entry in entries:
                out.append(pytest.param(spec.parent, run, entry, id=f'{spec.parent.name}-{entry["file"]}'))
    return out


@pytest.mark.parametrize('case, run, entry', conformance_oracles())
def test_conformance_corpus_outputs(case, run, entry):
    expected = {'returncode': 0, 'stdout': (case / entry['file']).read_text()}
    check(entry['args'].split(), case / 'qrels', case / run, expected)


def test_the_oracles_cover_what_they_should():
    """Every option and parameter form trec_eval documents appears in the stored command lines."""
    lines = [' '.join(c['args']) for c in ORACLE['nist'] + ORACLE['generated']]
    for fragment in ['-q', '-n', '-c', '-l2', '-l5', '-l 2', '-J', '-M 0', '-M 3', '-M1500', '-M10000', '-N',
                     'P.5,7', 'ndcg.1=0,2=3', 'utility.2,-1,0,0.001', 'iprec_at_recall.0.25', 'rbp.p=0.8',
                     'official', 'set', 'all_trec', '--query_eval_wanted', '--measure=official', '-qc', '-qn']:
        assert any(fragment in line for line in lines), fragment
    assert any(not c['args'] for c in ORACLE['nist'])                       # no -m at all
    assert any(c['returncode'] == 4 for c in ORACLE['nist'] + ORACLE['generated'])
    assert sum(c['returncode'] == 0 for c in ORACLE['generated']) >= 100
    assert '-nan' in ''.join(c['stdout'] for c in ORACLE['generated'])      # an empty ranking under -J or -M 0
    edge = [' '.join(c['args']) for c in ORACLE['edge']]
    for fragment in ['-l 0', '-l +2', '-M 99999999999999999999', '-N 99999999999999999999', 'P.9223372036854775808']:
        assert any(fragment in line for line in edge), fragment
    assert sum(refused(c['args']) for c in ORACLE['edge']) >= 8
    longest = [max(len(f) for f in make_edge_case(seed).run.split()) for seed in {c['seed'] for c in ORACLE['edge']}]
    assert min(longest) >= 1_000 and max(longest) >= 1_000_000


def test_every_trec_eval_measure_of_qrels_input_is_printed():
    """The oracles hold a line of every trec_eval 10 measure of qrels (the preference and judgment-group
    measures, which read other input formats, are in test_trec_eval_prefs.py)."""
    from irmetrics.dialects.trec_eval import TREC_NAMES
    printed = {line.split('\t')[0].rstrip() for c in ORACLE['nist'] + ORACLE['generated']
               for line in c['stdout'].splitlines()}
    for entry in TREC_NAMES:
        if entry.judgments in ('qrels', 'any'):
            assert any(name == entry.trec or name.startswith(entry.trec + '_') for name in printed), entry.trec


@pytest.mark.parametrize('args', [['-q', '-m', 'all_trec'], ['-q', '-l2', '-m', 'official', '-m', 'ndcg_cut'],
                                  ['-q', '-m', 'set', '-m', 'rbp.p=0.5', '-m', 'utility.1,-2,0,0']])
def test_the_trec_eval_layout_of_the_evaluate_command_is_the_same_code(args):
    """``irmetrics --trec-eval`` with the measures ``irmetrics trec_eval`` computes prints its lines (but
    runid and relstring, which are no measures, and a second name of one measure: Rprec_mult_1.00 is
    Rprec)."""
    qrels, run = NIST / 'qrels.rel_level', NIST / 'results.test'
    measures, names = [], set()
    for line in plan(parse_invocation([*args, 'q', 'r'])):
        if line.measure is not None and line.measure not in measures:
            measures.append(line.measure)
            names.add(line.name)
    status, ours, err = run_in_process(['--trec-eval', '-q', str(qrels), str(run), '-m',
                                        ' '.join(map(repr, measures))])
    assert status == 0, err
    status, theirs, err = run_in_process(['trec_eval', *args, str(qrels), str(run)])
    assert status == 0, err
    kept = [line for line in theirs.decode().splitlines() if line.split('\t')[0].rstrip() in names]
    assert ours.decode().splitlines() == kept


@pytest.mark.parametrize('depth', ['1e19', '1e400', '9.3e18'])
def test_a_relstring_depth_no_long_can_hold_prints_empty_strings_as_trec_eval_does(depth, layout):
    """m_relstring.c casts the depth to a long: beyond 2**63 (or infinite) that is LONG_MIN on x86-64, and
    trec_eval 10 prints '' for every query (checked against the binary built from source); never a
    traceback."""
    status, out, err = run_in_process(['trec_eval', '-q', '-m', f'relstring.{depth}',
                                       str(FIXTURES / 'trec_eval' / 'nist' / 'qrels.test'),
                                       str(FIXTURES / 'trec_eval' / 'nist' / 'results.test')])
    assert status == 0, err
    lines = out.decode().splitlines()
    assert lines and all(line.startswith(f'relstring_{depth}') and line.endswith("\t''") for line in lines)


@pytest.mark.parametrize('args, message', [
    (['-l', '２', '-m', 'map'], "-l expects an integer, not '２'"),
    (['-M', '２', '-m', 'map'], "-M expects an integer, not '２'"),
    (['-m', 'P.５'], "invalid parameter '５' in trec_eval measure 'P'"),
    (['-m', 'ndcg.１=5'], "trec_eval measure 'ndcg' has no parameter '１'"),
])
def test_digits_of_other_scripts_are_never_read_as_numbers(args, message, layout):
    """Python's int() reads '２' (fullwidth) as 2, trec_eval's atol as 0 (map 1.0 against 0.5): a number
    in an option or a parameter is ASCII digits, and anything else is one error line, never another
    number."""
    status, out, err = run_in_process(['trec_eval', *args, str(FIXTURES / 'trec_eval' / 'nist' / 'qrels.test'),
                                       str(FIXTURES / 'trec_eval' / 'nist' / 'results.test')])
    assert (status, out) == (2, b'')
    assert err.strip().splitlines() == [err.strip()] and message in err


@pytest.mark.parametrize('measure, expected', [
    ('P.1,3000000000', ['P_1                   \tall\t0.3333', 'P_3000000000          \tall\t0.0000']),
    ('Rprec_mult.100000', ['Rprec_mult_100000.00  \tall\t0.0000']),
    ('ndcg.1=1e19', ['ndcg_1=1e19           \tall\t0.4021']),
    ('ndcg.1=.5', ['ndcg_1=.5             \tall\t0.4021']),
])
def test_where_trec_eval_overflows_irmetrics_prints_the_values_of_what_was_asked(measure, expected, layout):
    """Documented differences (docs/conventions.md): trec_eval 10 prints 'P_1 43.6667' after
    'P_3000000000' (the cutoff overflows an int), cuts the name 'Rprec_mult_100000.0', and prints nDCG
    0.0000 for gains 2^31 or more, or less than 1, apart (its gain comparison returns their difference
    as an int); irmetrics prints the values of the cutoffs and gains asked for (these qrels grade 0 and
    1 only, so any gain of grade 1 gives plain nDCG, 0.4021), under their whole names."""
    status, out, err = run_in_process(['trec_eval', '-m', measure, str(FIXTURES / 'trec_eval' / 'nist' / 'qrels.test'),
                                       str(FIXTURES / 'trec_eval' / 'nist' / 'results.test')])
    assert status == 0, err
    assert out.decode().splitlines() == expected


DUPLICATE_QRELS = b'q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\nq2 0 d1 1\n'
# d1 twice for q1 (ranks 1 and 4), x twice for q3, a query the qrels do not have
DUPLICATE_RUN = b'q1 Q0 d1 1 5 t\nq1 Q0 d2 2 4 t\nq1 Q0 d3 3 3 t\nq1 Q0 d1 4 2 t\nq2 Q0 d1 1 2 t\nq3 Q0 x 1 2 t\n' \
    b'q3 Q0 x 2 1 t\n'


@pytest.mark.parametrize('depth, q1_retrieved', [('2', 2), ('3', 3)])
def test_a_duplicate_trec_eval_never_looks_at_is_evaluated_as_trec_eval_does(tmp_path, depth, q1_retrieved, layout):
    """trec_eval checks for a document retrieved twice only within the first -M documents of the queries
    it evaluates: below -M (d1 at rank 4) or in a run-only query (q3) the run is evaluated.  The expected
    lines are the trec_eval 10 binary's (built from source) for these files."""
    (tmp_path / 'qrels').write_bytes(DUPLICATE_QRELS)
    (tmp_path / 'run').write_bytes(DUPLICATE_RUN)
    status, out, err = run_in_process(['trec_eval', '-q', f'-M{depth}', '-m', 'map', '-m', 'num_ret', '-m', 'P.2',
                                       str(tmp_path / 'qrels'), str(tmp_path / 'run')])
    assert status == 0, err
    assert out.decode().splitlines() == [
        f'num_ret               \tq1\t{q1_retrieved}', 'map                   \tq1\t1.0000',
        'P_2                   \tq1\t1.0000', 'num_ret               \tq2\t1', 'map                   \tq2\t1.0000',
        'P_2                   \tq2\t0.5000', f'num_ret               \tall\t{q1_retrieved + 1}',
        'map                   \tall\t1.0000', 'P_2                   \tall\t0.7500']


@pytest.mark.parametrize('depth', [[], ['-M4']])
def test_a_duplicate_within_what_trec_eval_evaluates_is_one_error_line(tmp_path, depth, layout):
    (tmp_path / 'qrels').write_bytes(DUPLICATE_QRELS)
    (tmp_path / 'run').write_bytes(DUPLICATE_RUN)
    status, out, err = run_in_process(['trec_eval', *depth, '-m', 'map', str(tmp_path / 'qrels'),
                                       str(tmp_path / 'run')])
    assert (status, out) == (2, b'')
    assert err.strip() == (f"irmetrics: error: {tmp_path / 'run'}:4: duplicate document 'd1': retrieved more than "
                           f"once for query 'q1', at lines 1, 4, within the documents trec_eval evaluates (the "
                           f"first -M of each query of the qrels): trec_eval 10 refuses the run (\"duplicate docs\")")


@pytest.mark.parametrize('measures, expected', [
    (['-m', 'num_q', '-m', 'runid'], ['runid                 \tall\tt', 'num_q                 \tall\t2']),
    (['-q', '-m', 'num_q'], ['num_q                 \tall\t2']),
])
def test_num_q_and_runid_alone_read_neither_file_for_duplicates(tmp_path, measures, expected, layout):
    """trec_eval's num_q and runid never pair a ranking with its judgments (no form_res_rels call), so
    with only these trec_eval checks neither file for a document given twice: a document judged twice
    and one retrieved twice are printed over, as by the trec_eval 10 binary built from source."""
    (tmp_path / 'qrels').write_bytes(DUPLICATE_QRELS + b'q2 0 d1 0\n')
    (tmp_path / 'run').write_bytes(DUPLICATE_RUN)
    status, out, err = run_in_process(['trec_eval', *measures, str(tmp_path / 'qrels'), str(tmp_path / 'run')])
    assert status == 0, err
    assert out.decode().splitlines() == expected


def test_a_document_judged_twice_is_refused_once_a_measure_reads_judgments(tmp_path, layout):
    (tmp_path / 'qrels').write_bytes(DUPLICATE_QRELS + b'q2 0 d1 0\n')
    (tmp_path / 'run').write_bytes(b'q1 Q0 d1 1 5 t\nq2 Q0 d1 1 2 t\n')
    status, out, err = run_in_process(['trec_eval', '-m', 'runid', '-m', 'num_ret', str(tmp_path / 'qrels'),
                                       str(tmp_path / 'run')])
    assert (status, out) == (2, b'')
    assert f"{tmp_path / 'qrels'}:5: duplicate judgment: document 'd1' judged more than once for query 'q2'" in err


@pytest.mark.parametrize('args, expected', [
    (['-m', 'P.9223372036854775808'], ['P_9223372036854775807 \tall\t0.0000']),
    (['-N', '99999999999999999999', '-m', 'utility.1,-1,0,1'],
     ['utility_1,-1,0,1      \tall\t9223372036854775808.0000']),
])
def test_a_number_beyond_a_c_long_is_read_as_atol_reads_it(args, expected, layout):
    """trec_eval's atol saturates at the greatest long (the expected lines are the trec_eval 10 binary's)."""
    status, out, err = run_in_process(['trec_eval', *args, str(FIXTURES / 'trec_eval' / 'nist' / 'qrels.test'),
                                       str(FIXTURES / 'trec_eval' / 'nist' / 'results.test')])
    assert status == 0, err
    assert out.decode().splitlines() == expected


def test_a_level_above_every_grade_evaluates_where_trec_eval_crashes(tmp_path, layout):
    """trec_eval 10 ends in a segmentation fault on this generated case with -c -l 1000000 (documented in
    docs/conventions.md); irmetrics counts no document relevant, and warns."""
    case = make_edge_case(0)
    (tmp_path / 'qrels').write_bytes(case.qrels)
    (tmp_path / 'run').write_bytes(case.run)
    status, out, err = run_in_process(['trec_eval', '-c', '-l', '1000000', '-m', 'map', '-m', 'P.5',
                                       str(tmp_path / 'qrels'), str(tmp_path / 'run')])
    assert status == 0 and 'no judgment has grade >= 1000000' in err
    assert out.decode().splitlines() == ['map                   \tall\t0.0000', 'P_5                   \tall\t0.0000']
