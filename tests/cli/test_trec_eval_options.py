"""``irmetrics trec_eval``'s command line: trec_eval's options as GNU getopt reads them, the options
irmetrics does not have (one error line, exit 2), help and version, and the plan of measures."""
import re

import pytest
from cli_support import MISSING_Q3, QRELS, RUN_A, assert_user_error, irmetrics, run_in_process, warnings_only

from irmetrics.cli.gnu_getopt import GetoptError, Option, parse
from irmetrics.cli.trec_eval_command import OPTIONS, parse_invocation, plan

SHORT = [Option('q', 'query', False), Option('m', 'measure', True), Option('l', 'level', True),
         Option('n', 'nosummary', False), Option('N', 'Number', True)]


@pytest.mark.parametrize('argv, options, operands', [
    (['-q', 'a', 'b'], [('q', None)], ['a', 'b']),
    (['-qn', 'a'], [('q', None), ('n', None)], ['a']),
    (['-ql2', 'a'], [('q', None), ('l', '2')], ['a']),
    (['-l', '2', 'a'], [('l', '2')], ['a']),
    (['a', '-m', 'map', 'b', '-q'], [('m', 'map'), ('q', None)], ['a', 'b']),       # operands permuted
    (['--measure=map', '--measure', 'P.5', '--query'], [('m', 'map'), ('m', 'P.5'), ('q', None)], []),
    (['--meas', 'x', '--q'], [('m', 'x'), ('q', None)], []),                          # unambiguous prefixes
    (['--Num', '7'], [('N', '7')], []),
    (['-q', '--', '-n', '-'], [('q', None)], ['-n', '-']),
    (['-', 'x'], [], ['-', 'x']),
    (['-m', '-q'], [('m', '-q')], []),                                                # a value may look like an option
])
def test_getopt(argv, options, operands):
    found, rest = parse(argv, SHORT)
    assert [(o.letter, v) for o, v in found] == options and rest == operands


@pytest.mark.parametrize('argv, fragment', [
    (['-x'], "invalid option -- 'x'"), (['-m'], "requires an argument -- 'm'"),
    (['--measure'], "'--measure' requires an argument"), (['--query=1'], "doesn't allow an argument"),
    (['--R', 'x'], "option '--R' is ambiguous; possibilities: '--Rel_info_format' '--Results_format'"),
    (['--foo'], "unrecognized option '--foo'"),
])
def test_getopt_errors(argv, fragment):
    with pytest.raises(GetoptError, match=re.escape(fragment)):
        parse(argv, OPTIONS if argv[0] == '--R' else SHORT)


def test_trec_eval_options_table_is_trec_evals():
    assert ''.join(o.letter + (':' if o.value else '') for o in OPTIONS) == 'hvqm:cl:nD:JN:M:R:T:oZ:'
    # trec_eval's long table gives --Output_old_results_format an argument, its short form none
    found, _ = parse(['--Output_old_results_format', 'x', '-o'], OPTIONS)
    assert [(o.letter, v) for o, v in found] == [('o', 'x'), ('o', None)]


def test_invocation():
    inv = parse_invocation(['-qcnJ', '-l', '3', '-M100', '-N', '5000', '-m', 'map', '--measure=P.5', 'q', 'r'])
    assert (inv.by_query, inv.complete, inv.summary, inv.judged_only) == (True, True, False, True)
    assert (inv.rel, inv.depth, inv.num_docs, inv.measures, inv.files) == (3, 100, 5000, ['map', 'P.5'], ['q', 'r'])
    assert parse_invocation(['-R', 'qrels', '-T', 'trec_results', '-o', 'q', 'r']).files == ['q', 'r']


def names(*argv):
    return [line.name for line in plan(parse_invocation([*argv, 'q', 'r']))]


def test_plan_follows_trec_eval():
    assert names() == names('-m', 'official')                                    # no -m: official
    assert names('-m', 'P.5', '-m', 'P.10') == ['P_5']                           # the first parameters win
    assert names('-m', 'P.10,5', '-m', 'map') == ['map', 'P_5', 'P_10']          # trec_eval's order, sorted cutoffs
    assert names('-m', 'map.7') == ['map']                                       # ignored, as trec_eval does
    assert names('-m', 'official')[:3] == ['runid', 'num_q', 'num_ret']
    assert names('-m', 'iprec_at_recall.0.125') == ['iprec_at_recall_0.12']       # "%3.2f"
    assert names('-m', 'relstring.5', '-m', 'utility.1,0,0,0') == ['relstring_5', 'utility_1,0,0,0']
    assert len(names('-m', 'all_trec')) == 100                                 # with the default parameters


def test_plan_applies_the_invocation_settings():
    lines = plan(parse_invocation(['-l2', '-J', '-N', '9', '-m', 'P.5', '-m', 'utility', '-m', 'bpref',
                                   '-m', 'iprec_at_recall.0.5', '-m', 'rbp', '-m', 'num_rel_ret', 'q', 'r']))
    got = {line.name: repr(line.measure) for line in lines}
    assert got == {'P_5': 'P(judged_only=True,rel=2)@5', 'bpref': 'Bpref(rel=2)',
                   'iprec_at_recall_0.50': "IPrec(judged_only=True,rel=2,rounding='trec_eval_10')@0.5",
                   'num_rel_ret': 'NumRet(rel=2)', 'utility': 'Utility(judged_only=True,num_docs=9,rel=2)',
                   'rbp': "RBP(judged_only=True,max_rel='query',p=0.9)"}


@pytest.fixture
def files(tmp_path):
    (tmp_path / 'qrels').write_text(QRELS)
    (tmp_path / 'run').write_text(RUN_A.replace('q2 Q0 d5 2 4.0 a', 'q2 Q0 d5 2 4.0 a\nq3 Q0 d9 1 1 last'))
    return tmp_path


@pytest.mark.parametrize('argv, fragment', [
    (['-Z', 'no-such-file'], 'cannot read the z-scores file'), (['-D', '1'], 'option -D (--Debug_level)'),
    (['-R', 'prefs'], "'num_ret' is computed from -R qrels (the default), not from -R prefs"),
    (['-T', 'other'], "'trec_results' format"), (['-x'], "invalid option -- 'x'"),
    (['-l-1'], 'relevance levels of 0 or more'), (['-l', 'x'], '-l expects an integer'),
    (['-M', '-1'], '0 or more'), (['-m', 'prefs_simp'], '-R prefs'), (['-m', 'all_prefs'], '-R prefs'),
    (['-m', 'foo'], "unknown trec_eval measure 'foo'"), (['-m', 'P.'], 'no parameters after'),
    (['-m', 'P.5,5'], 'given twice'), (['--R', 'qrels'], 'ambiguous'),
])
def test_unsupported_and_invalid_options(files, argv, fragment):
    status, out, err = run_in_process(['trec_eval', *argv, str(files / 'qrels'), str(files / 'run')])
    assert status == 2 and out == b'' and err.count('\n') == 1 and err.startswith('irmetrics: error: '), err
    assert fragment in err, err


def test_wrong_number_of_files(files):
    for argv in (['trec_eval'], ['trec_eval', str(files / 'qrels')], ['trec_eval', 'a', 'b', 'c']):
        status, out, err = run_in_process(argv)
        assert status == 2 and 'expected the qrels file and the run file' in err and 'trec_eval -h' in err


def test_missing_query_without_c_is_an_error_naming_it(files):
    (files / 'run').write_text(RUN_A)                              # q3 of the qrels is not in the run
    status, out, err = run_in_process(['trec_eval', str(files / 'qrels'), str(files / 'run')])
    assert status == 2 and out == b'' and "query 'q3' of the qrels is not in the run" in err and '-c' in err


def test_a_run_file_of_0_bytes_is_refused_as_trec_eval_refuses_it(files):
    """trec_eval 10: "Cannot read results file" (exit 2)."""
    (files / 'run').write_bytes(b'')
    proc = irmetrics('trec_eval', '-c', 'qrels', 'run', cwd=files)
    assert_user_error(proc, 'run: the run file is empty (0 bytes); trec_eval refuses it too')


@pytest.mark.parametrize('text', ['# nothing\n', '\n\n', '  \n# a comment\n\t\n', None])
def test_a_run_of_blank_or_comment_lines_is_refused_saying_what_trec_eval_does(files, text):
    """trec_eval 10 reads such a run (and empty standard input, None here) as one missing every query:
    with -c it prints 0 for each and a runid from memory it never set; irmetrics refuses it."""
    if text is None:
        status, out, err = run_in_process(['trec_eval', '-c', str(files / 'qrels'), '-'], b'')
    else:
        (files / 'run').write_text(text)
        status, out, err = run_in_process(['trec_eval', '-c', str(files / 'qrels'), str(files / 'run')])
    error = [line for line in err.splitlines() if 'error' in line]
    assert (status, out) == (2, b'') and len(error) == 1, err
    assert 'the run holds no ranking, only blank or comment lines' in error[0]
    assert 'trec_eval evaluates such a run as one missing every query' in error[0]
    assert 'refuses an empty run file' not in err


def test_c_warns_once_naming_the_queries_missing_from_the_run(files):
    """The stand-in rankings -c evaluates for the missing queries are no run of the user's: no warning
    about them (they lack every query the run has)."""
    (files / 'run').write_text(RUN_A)                              # q3 of the qrels is not in the run
    proc = irmetrics('trec_eval', '-c', '-q', '-m', 'num_q', '-m', 'map', 'qrels', 'run', cwd=files)
    assert proc.returncode == 0
    assert warnings_only(proc.stderr) == [MISSING_Q3.replace('a.run', 'run')]
    assert 'map                   \tq3\t0.0000\n' in proc.stdout and 'num_q                 \tall\t3\n' in proc.stdout


def test_runid_is_the_tag_of_the_last_line_and_stdin_works(files):
    run = (files / 'run').read_bytes()
    status, out, _ = run_in_process(['trec_eval', '-m', 'runid', str(files / 'qrels'), '-'], run)
    assert status == 0 and out == b'runid                 \tall\tlast\n'


def test_help_and_version():
    proc = irmetrics('trec_eval', '-h')
    assert proc.returncode == 0 and "irmetrics trec_eval: trec_eval 10's command line" in proc.stdout
    assert '-c, --complete_rel_info_wanted' in proc.stdout
    proc = irmetrics('trec_eval', '-h', '-m', 'ndcg_rel')
    assert proc.returncode == 0 and 'ndcg_rel               nDCGRel' in proc.stdout and 'nDCGRel: nDCG' in proc.stdout
    proc = irmetrics('trec_eval', '-h', '-m', 'rbp_resid.p=1')
    assert proc.returncode == 0 and "rbp_resid_p=1          (trec_eval's rbp_resid at p=1, where irmetrics' " \
        "RBPResidual has no value: see docs/cli.md)" in proc.stdout
    for flag in ('-v', '--version', '--vers'):
        proc = irmetrics('trec_eval', flag, 'ignored', '-Z', 'z')
        assert proc.returncode == 0 and proc.stdout.startswith('irmetrics trec_eval ') and 'trec_eval 10' in proc.stdout


def test_no_summary_without_q_prints_nothing(files):
    status, out, _ = run_in_process(['trec_eval', '-n', str(files / 'qrels'), str(files / 'run')])
    assert status == 0 and out == b''
