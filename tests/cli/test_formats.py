"""Golden outputs of every CLI output format, through a real ``irmetrics`` subprocess.

The inputs (tests/cli_support.py) are small enough to check by hand: run A on q1 ranks d1 (rel 1),
d2 (rel 0), d3 (rel 2), so AP = (1/1 + 2/3) / 2 = 0.8333 and P@2 = 0.5; on q2 it ranks d4 (rel 1)
and the unjudged d5 with R = 2, so AP = 0.5 and P@2 = 0.5; q3 is missing and scores 0.  Run B
scores AP 1, 0.5, 1 and P@2 1, 0.5, 0.5.
"""
import json

from cli_support import run_ok

MEASURES = ('AP', 'P@2', 'NumRet')


# --- tsv: the ir_measures layout (the default when stdout is not a terminal) -------------------
def test_default_format_off_a_terminal_is_the_ir_measures_tsv_layout(here):
    assert run_ok(here, 'qrels', 'a.run', *MEASURES) == 'AP\t0.4444\nP@2\t0.3333\nNumRet\t5\n'


def test_tsv_by_query_then_all(here):
    assert run_ok(here, 'qrels', 'a.run', *MEASURES, '-q', '--format', 'tsv') == (
        'q1\tAP\t0.8333\nq1\tP@2\t0.5000\nq1\tNumRet\t3\n'
        'q2\tAP\t0.5000\nq2\tP@2\t0.5000\nq2\tNumRet\t2\n'
        'q3\tAP\t0.0000\nq3\tP@2\t0.0000\nq3\tNumRet\t0\n'
        'all\tAP\t0.4444\nall\tP@2\t0.3333\nall\tNumRet\t5\n')


def test_tsv_no_summary_and_places(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP', '-q', '-n', '-p', '2') == \
        'q1\tAP\t0.83\nq2\tAP\t0.50\nq3\tAP\t0.00\n'
    assert run_ok(here, 'qrels', 'a.run', 'AP', '--places', '-1') == 'AP\t0.4444444444444444\n'


def test_tsv_several_runs_has_a_run_column(here):
    assert run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP P@2', '-m', 'NumRet') == (
        'a\tAP\t0.4444\na\tP@2\t0.3333\na\tNumRet\t5\n'
        'b\tAP\t0.8333\nb\tP@2\t0.6667\nb\tNumRet\t4\n')


def test_ir_measures_output_format_flag_is_accepted(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP', '-o', 'tsv') == run_ok(here, 'qrels', 'a.run', 'AP',
                                                                        '--output_format', 'tsv')


# --- table ----------------------------------------------------------------------------------
def test_table_one_row_per_run(here):
    assert run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', '-m', 'P@2', '-m', 'NumRet', '-f', 'table') == (
        'run      AP     P@2  NumRet\n'
        'a    0.4444  0.3333       5\n'
        'b    0.8333  0.6667       4\n')


def test_table_turns_measures_into_rows_when_too_wide(here):
    out = run_ok(here, 'qrels', 'a.run', 'b.run', '-m', ' '.join(MEASURES), '-f', 'table', env={'COLUMNS': '20'})
    assert out == ('measure       a       b\n'
                   'AP       0.4444  0.8333\n'
                   'P@2      0.3333  0.6667\n'
                   'NumRet        5       4\n')


def test_table_by_query(here):
    assert run_ok(here, 'qrels', 'a.run', *MEASURES, '-q', '-f', 'table') == (
        'query      AP     P@2  NumRet\n'
        'q1     0.8333  0.5000       3\n'
        'q2     0.5000  0.5000       2\n'
        'q3     0.0000  0.0000       0\n'
        'all    0.4444  0.3333       5\n')
    assert run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', '-q', '-n', '-f', 'table', '-p', '2') == (
        'run  query    AP\n'
        'a    q1     0.83\n'
        'a    q2     0.50\n'
        'a    q3     0.00\n'
        'b    q1     1.00\n'
        'b    q2     0.50\n'
        'b    q3     1.00\n')


# --- csv --------------------------------------------------------------------------------------
def test_csv_full_precision_with_a_header(here):
    assert run_ok(here, 'qrels', 'a.run', *MEASURES, '-f', 'csv') == (
        'measure,value\nAP,0.4444444444444444\nP@2,0.3333333333333333\nNumRet,5\n')


def test_csv_several_runs_by_query_with_places(here):
    assert run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', '-q', '-f', 'csv', '-p', '3') == (
        'run,query_id,measure,value\n'
        'a,q1,AP,0.833\na,q2,AP,0.500\na,q3,AP,0.000\na,all,AP,0.444\n'
        'b,q1,AP,1.000\nb,q2,AP,0.500\nb,q3,AP,1.000\nb,all,AP,0.833\n')


def test_csv_quotes_measures_holding_commas(here):
    # q1: d3 (grade 2) at rank 3 of the judged documents; q2 and q3 have no grade 2 retrieved
    out = run_ok(here, 'qrels', 'a.run', 'P(rel=2,judged_only=True)@3', '-f', 'csv')
    assert out == 'measure,value\n"P(judged_only=True,rel=2)@3",0.1111111111111111\n'



def test_csv_and_tsv_write_names_that_start_as_formulas_as_text(here):
    """A run named @SUM(A1) and a query id -1+2 get a single quote (a spreadsheet's text); the values stay."""
    (here / 'f.run').write_text('-1+2 Q0 d1 1 2 r\nq1 Q0 d1 1 1 r\n')
    (here / 'f.qrels').write_text('-1+2 0 d1 1\nq1 0 d2 1\n')
    out = run_ok(here, 'f.qrels', '@SUM(A1)=f.run', 'a.run', '-m', 'P@1', '-q', '-f', 'csv')
    assert out.splitlines()[:3] == ['run,query_id,measure,value', "'@SUM(A1),'-1+2,P@1,1.0", "'@SUM(A1),q1,P@1,0.0"]
    out = run_ok(here, 'f.qrels', '@SUM(A1)=f.run', 'a.run', '-m', 'P@1', '-q', '-f', 'tsv')
    assert out.splitlines()[0] == "'@SUM(A1)\t'-1+2\tP@1\t1.0000"


# --- jsonl: the ir_measures layout --------------------------------------------------------------
def test_jsonl(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP', 'NumRet', '-f', 'jsonl') == (
        '{"measure": "AP", "value": 0.4444444444444444}\n{"measure": "NumRet", "value": 5}\n')
    assert run_ok(here, 'qrels', 'a.run', 'AP', '-q', '-f', 'jsonl', '-p', '2') == (
        '{"query_id": "q1", "measure": "AP", "value": 0.83}\n'
        '{"query_id": "q2", "measure": "AP", "value": 0.5}\n'
        '{"query_id": "q3", "measure": "AP", "value": 0.0}\n'
        '{"query_id": "all", "measure": "AP", "value": 0.44}\n')


def test_jsonl_several_runs(here):
    lines = run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', '-f', 'jsonl').splitlines()
    assert [json.loads(line) for line in lines] == [
        {'run': 'a', 'measure': 'AP', 'value': 0.4444444444444444},
        {'run': 'b', 'measure': 'AP', 'value': 0.8333333333333334}]


# --- json ---------------------------------------------------------------------------------------
def test_json_document(here):
    doc = json.loads(run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP NumRet', '-q', '-f', 'json'))
    assert doc == {
        'measures': ['AP', 'NumRet'],
        'runs': [
            {'run': 'a', 'aggregate': {'AP': 0.4444444444444444, 'NumRet': 5},
             'per_query': {'q1': {'AP': 0.8333333333333333, 'NumRet': 3}, 'q2': {'AP': 0.5, 'NumRet': 2},
                           'q3': {'AP': 0.0, 'NumRet': 0}}},
            {'run': 'b', 'aggregate': {'AP': 0.8333333333333334, 'NumRet': 4},
             'per_query': {'q1': {'AP': 1.0, 'NumRet': 2}, 'q2': {'AP': 0.5, 'NumRet': 1},
                           'q3': {'AP': 1.0, 'NumRet': 1}}}]}


def test_json_without_per_query_or_summary(here):
    doc = json.loads(run_ok(here, 'qrels', 'a.run', 'AP', '-f', 'json'))
    assert doc == {'measures': ['AP'], 'runs': [{'run': 'a', 'aggregate': {'AP': 0.4444444444444444}}]}
    doc = json.loads(run_ok(here, 'qrels', 'a.run', 'AP', '-f', 'json', '-q', '-n'))
    assert 'aggregate' not in doc['runs'][0] and set(doc['runs'][0]['per_query']) == {'q1', 'q2', 'q3'}


# --- trec_eval ----------------------------------------------------------------------------------
def test_trec_eval_layout(here):
    assert run_ok(here, 'qrels', 'a.run', 'map', 'P.2', 'num_q', 'num_ret', '--trec-eval', '-q') == (
        'map                   \tq1\t0.8333\n'
        'P_2                   \tq1\t0.5000\n'
        'num_ret               \tq1\t3\n'
        'map                   \tq2\t0.5000\n'
        'P_2                   \tq2\t0.5000\n'
        'num_ret               \tq2\t2\n'
        'map                   \tq3\t0.0000\n'
        'P_2                   \tq3\t0.0000\n'
        'num_ret               \tq3\t0\n'
        'map                   \tall\t0.4444\n'
        'P_2                   \tall\t0.3333\n'
        'num_q                 \tall\t3\n'
        'num_ret               \tall\t5\n')


def test_trec_eval_names_irmetrics_measures_it_lacks_or_would_confuse(here):
    # P@2 and P(rel=2)@2 are both P_2 to trec_eval (its relevance level is a global flag).
    out = run_ok(here, 'qrels', 'a.run', 'P@2', 'P(rel=2)@2', 'nDCG@2', 'Hits@2', '--trec-eval')
    assert [line.split('\t')[0].rstrip() for line in out.splitlines()] == ['P@2', 'P(rel=2)@2', 'ndcg_cut_2',
                                                                          'Hits@2']


def test_trec_eval_queries_in_byte_order(tmp_path):
    (tmp_path / 'qrels').write_text('10 0 d 1\n9 0 d 1\n100 0 d 1\n')
    (tmp_path / 'run').write_text('9 Q0 d 1 1 r\n10 Q0 d 1 1 r\n100 Q0 d 1 1 r\n')
    out = run_ok(tmp_path, 'qrels', 'run', 'P.1', '--trec-eval', '-q', '-n')
    assert [line.split('\t')[1] for line in out.splitlines()] == ['10', '100', '9']


def test_evaluate_and_compare_write_a_tab_or_newline_in_a_name_by_one_tsv_rule(here):
    """A run named with a tab, a newline and a backslash (NAME=PATH) keeps each TSV row in its columns, written
    the same way (``\\t``, ``\\n``, ``\\\\``) by the evaluation's TSV and the comparison's."""
    name = 'x\ty\nz\\w'
    evaluated = run_ok(here, 'qrels', f'{name}=a.run', 'b.run', '-m', 'AP', '-f', 'tsv')
    compared = run_ok(here, 'compare', 'qrels', f'{name}=a.run', 'b.run', '-m', 'AP', '-f', 'tsv')
    assert evaluated.splitlines()[0].split('\t')[:2] == ['x\\ty\\nz\\\\w', 'AP']
    assert compared.splitlines()[1].split('\t')[:2] == ['x\\ty\\nz\\\\w', 'AP']
    assert len(evaluated.splitlines()) == 2 and len(compared.splitlines()) == 3
    assert {len(line.split('\t')) for line in compared.splitlines()} == {len(compared.splitlines()[0].split('\t'))}


def test_per_query_rows_in_markdown_latex_and_html_with_and_without_the_summary(here):
    """-q and -n are not ignored by the markup formats: the per-query rows of the table format, the all row
    left out with -n."""
    markdown = run_ok(here, 'qrels', 'a.run', 'AP', 'P@2', '-q', '-f', 'markdown')
    assert markdown.splitlines() == ['| query | AP | P@2 |', '|:---|---:|---:|', '| q1 | 0.8333 | 0.5000 |',
                                     '| q2 | 0.5000 | 0.5000 |', '| q3 | 0.0000 | 0.0000 |',
                                     '| all | 0.4444 | 0.3333 |']
    assert run_ok(here, 'qrels', 'a.run', 'AP', 'P@2', '-q', '-n', '-f', 'markdown') == \
        '\n'.join(markdown.splitlines()[:-1]) + '\n'
    latex = run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', '-q', '-n', '-f', 'latex')
    assert r'\begin{tabular}{llr}' in latex and 'b & q3 & 1.0000 \\\\' in latex and 'all' not in latex
    page = run_ok(here, 'qrels', 'a.run', 'AP', '-q', '-f', 'html')
    assert '<td>q2</td><td class="n">0.5000</td>' in page and '<td>all</td><td class="n">0.4444</td>' in page


def test_a_run_name_with_control_characters_is_shown_escaped_in_the_comparison_table(here):
    out = run_ok(here, 'compare', 'qrels', '\x1b[2J\x1b]0;x\x07=a.run', 'b.run', '-m', 'AP',
                 '--baseline', '\x1b[2J\x1b]0;x\x07')
    assert '\x1b' not in out and '(a) \\x1b[2J\\x1b]0;x\\x07' in out
    assert 'Baseline: (a) \\x1b[2J\\x1b]0;x\\x07;' in out
