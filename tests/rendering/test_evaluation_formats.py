"""irmetrics.rendering: the blocks (rendering/text.py, markup.py, values.py) on hand-made input, and
CalcResults rendered through rendering/evaluation.py in every format with the numbers of to_dataframe."""
import json

import numpy as np
import pytest

import irmetrics as irm
from irmetrics.errors import OptionError
from irmetrics.rendering.formats import FORMATS
from irmetrics.rendering.markup import html_page, html_table, latex_escape, markdown_escape, markdown_table
from irmetrics.rendering.text import text_table
from irmetrics.rendering.values import format_value, json_value

QRELS = {'q1': {'a': 1, 'b': 0, 'c': 2}, 'q2': {'x': 1}}
RUN = {'q1': {'a': 3.0, 'b': 2.0, 'c': 1.0}, 'q2': {'y': 1.0}}


@pytest.fixture
def results():
    return irm.calc(['AP', 'P@2', 'NumRet'], QRELS, RUN)


def test_text_table_aligns_numbers_right():
    assert text_table(['run', 'AP'], [['a', '0.5'], ['long name', '1.25']], numeric_from=1) == \
        'run          AP\na           0.5\nlong name  1.25\n'


def test_markup_blocks_escape_what_each_format_reads_as_syntax():
    assert markdown_escape('a|b*c_') == 'a\\|b\\*c\\_'
    assert markdown_table(['run', 'AP'], [['a', '0.5']]) == '| run | AP |\n|:---|---:|\n| a | 0.5 |\n'
    assert latex_escape('50% of a_b & {c}') == r'50\% of a\_b \& \{c\}'
    table = html_table(['run', 'AP'], [['a', '0.5']], 'legend', {1})
    assert '<td class="n">0.5</td>' in table and '<p class="legend">legend</p>' in table
    page = html_page('<x> & y', [table])
    assert page.startswith('<!DOCTYPE html>') and '<title>&lt;x&gt; &amp; y</title>' in page


def test_values_print_counts_as_integers_and_nan_as_null():
    assert format_value(irm.NumRet, 7.0, 4) == '7' and format_value(irm.AP, 0.25, 2) == '0.25'
    assert format_value(irm.AP, 0.123456789, None) == '0.123456789'
    assert json_value(irm.AP, float('nan'), None) is None and json_value(irm.NumRet, 3.0, None) == 3


def test_every_format_renders_the_numbers_of_to_dataframe(results):
    frame = results.to_dataframe()
    expected = {(row.query_id, row.measure): row.value for row in frame.itertuples()}
    doc = json.loads(results.render('json', by_query=True))
    assert results.to_dict() == {'measures': doc['measures'], 'aggregate': doc['runs'][0]['aggregate'],
                                 'per_query': doc['runs'][0]['per_query']}
    got = {(q, m): v for q, values in doc['runs'][0]['per_query'].items() for m, v in values.items()}
    assert got == pytest.approx(expected)
    assert doc['runs'][0]['aggregate'] == {str(m): v for m, v in results.aggregated.items()}
    lines = results.render('csv', by_query=True).splitlines()
    assert lines[0] == 'query_id,measure,value' and 'all,NumRet,4' in lines
    assert '| run | AP | P@2 | NumRet |' in results.render('markdown')
    assert r'\toprule' in results.render('latex') and 'run & AP & P@2 & NumRet' in results.render('latex')
    assert '<td class="n">4</td>' in results.render('html') and results._repr_html_().startswith('<div')
    for fmt in FORMATS:
        assert results.render(fmt, by_query=True)
    with pytest.raises(OptionError, match="option 'format'"):
        results.render('pdf')


def test_the_command_line_prints_what_python_renders(tmp_path, results):
    from cli_support import irmetrics
    (tmp_path / 'qrels').write_text('q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\n')
    (tmp_path / 'run').write_text('q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3 1 r\nq2 Q0 y 1 1 r\n')
    for fmt in ('markdown', 'latex', 'csv'):
        shown = irmetrics('qrels', 'run', 'AP', 'P@2', 'NumRet', '-f', fmt, cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == results.render(fmt, run='run')


def test_results_are_immutable(results):
    with pytest.raises(AttributeError):
        results.values = np.zeros((2, 3))
    with pytest.raises(ValueError):
        results.values[0, 0] = 1.0
    assert results.aggregated[irm.AP] == pytest.approx(((1 + 2 / 3) / 2 + 0) / 2)    # q1: a, c relevant at 1, 3


def test_a_tab_or_newline_in_a_name_keeps_a_tsv_row_in_its_columns(results):
    """A run named by a file name holding a tab (or a query id holding one, from a DataFrame) would break
    a tab-separated row into more columns: it is written as \\t (newline \\n, backslash \\\\)."""
    from irmetrics.rendering.evaluation import Options, RunResults, render_tsv
    text = render_tsv([RunResults('a\tb\\c\nd', results), RunResults('plain', results)], Options())
    rows = [line.split('\t') for line in text.splitlines()]
    assert {len(row) for row in rows} == {3}
    assert rows[0][0] == 'a\\tb\\\\c\\nd' and rows[-1][0] == 'plain'
    assert latex_escape('a < b | c > d') == r'a \textless{} b \textbar{} c \textgreater{} d'


#: a run name that would set the terminal's title, clear the screen, hide the rest, and overwrite its line
HOSTILE_NAME = '\x1b]0;pwned\x07\x1b[2J\x1b[8mhidden\r\x7f\x9b\u202e'
#: how the formats people read show it
HOSTILE_SHOWN = '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[8mhidden\\r\\x7f\\x9b\\u202e'
CONTROLS = [chr(c) for c in (*range(0x20), *range(0x7f, 0xa0), 0x202e)]


def _hostile_results():
    qrels = {'q\x1b[31m1': {'a': 1}, 'q2\n': {'x': 1}}
    run = {'q\x1b[31m1': {'a': 1.0}, 'q2\n': {'x': 1.0}}
    return irm.calc(['AP'], qrels, run)


def test_control_characters_in_names_are_shown_escaped_in_the_table_and_kept_as_data_by_programs():
    from irmetrics.rendering.evaluation import RENDERERS, Options, RunResults
    results = _hostile_results()
    runs = [RunResults(HOSTILE_NAME, results), RunResults('plain', results)]
    for by_query in (False, True):
        table = RENDERERS['table'](runs, Options(by_query=by_query, width=200))
        assert not any(c in table.replace('\n', '') for c in CONTROLS), table
        assert HOSTILE_SHOWN in table and len(table.splitlines()) == (7 if by_query else 3)
    by_query = RENDERERS['table'](runs, Options(by_query=True, width=200))
    assert 'q\\x1b[31m1' in by_query and 'q2\\n' in by_query
    opts = Options(by_query=True)
    doc = json.loads(RENDERERS['json'](runs, opts))
    assert doc['runs'][0]['run'] == HOSTILE_NAME and set(doc['runs'][0]['per_query']) == {'q\x1b[31m1', 'q2\n'}
    import csv
    import io
    rows = list(csv.reader(io.StringIO(RENDERERS['csv'](runs, opts), newline='')))
    assert len(rows) == 1 + 2 * 3 and rows[1][:2] == [HOSTILE_NAME, 'q\x1b[31m1'] and rows[2][1] == 'q2\n'
    assert [json.loads(line)['run'] for line in RENDERERS['jsonl'](runs, opts).splitlines()][0] == HOSTILE_NAME
    tsv = RENDERERS['tsv'](runs, opts).splitlines()
    assert len(tsv) == 6 and tsv[0].split('\t')[0] == HOSTILE_NAME.replace('\r', '\\r')
    assert RENDERERS['table']([RunResults(HOSTILE_NAME, results)] * 2, Options(width=10)).splitlines()[0] == \
        f'measure  {HOSTILE_SHOWN}  {HOSTILE_SHOWN}'                     # transposed: the names are the header
    page = RENDERERS['html'](runs, opts)
    assert not any(c in page.replace('\n', '') for c in CONTROLS) and 'q\\x1b[31m1' in page   # a page shows them too


def _markdown_tables(text):
    """(rows, cells of each row) of each table markdown-it finds in ``text``, and whether it found a heading."""
    from markdown_it import MarkdownIt
    tokens = MarkdownIt().enable('table').parse(text)
    shape, tables = [], []
    for token in tokens:
        if token.type == 'table_open':
            shape = []
        elif token.type == 'tr_open':
            shape.append(0)
        elif token.type in ('td_open', 'th_open'):
            shape[-1] += 1
        elif token.type == 'table_close':
            tables.append(shape)
    return tables, any(t.type == 'heading_open' for t in tokens)


def _latex_rows(text):
    """The rows of the one tabular in ``text``: the cells of each (split at unescaped &), asserting each line
    ends its row and no blank line (a paragraph) is inside."""
    body = text[text.index(r'\begin{tabular}'):text.index(r'\end{tabular}')].splitlines()[1:]
    assert all(line.strip() for line in body)
    rows = [line for line in body if line.strip() not in (r'\toprule', r'\midrule', r'\bottomrule')]
    assert all(line.endswith(r' \\') for line in rows), rows
    return [len(line.replace(r'\&', '').split('&')) for line in rows]


NEWLINE_NAMES = ['x\n\n# HEADING', 'a|b\r\nc', 'plain']


@pytest.mark.parametrize('by_query', [False, True])
def test_a_newline_or_pipe_in_a_name_keeps_its_markdown_and_latex_row(by_query):
    from irmetrics.rendering.evaluation import RENDERERS, Options, RunResults
    results = irm.calc(['AP', 'P@2'], {'q\n# q1': {'a': 1}, 'q|2': {'x': 1}}, {'q\n# q1': {'a': 1.0}})
    runs = [RunResults(name, results) for name in NEWLINE_NAMES]
    rows, cells = (1 + 3 * 3, 2 + 2) if by_query else (1 + 3, 1 + 2)       # header + rows; run (query) + measures
    tables, heading = _markdown_tables(RENDERERS['markdown'](runs, Options(by_query=by_query)))
    assert tables == [[cells] * rows] and not heading
    assert _latex_rows(RENDERERS['latex'](runs, Options(by_query=by_query))) == [cells] * rows
    records = irm.compare('AP', {'q1': {'a': 1}, 'q2': {'a': 1}},
                          {name: {'q1': {'a': 1.0}, 'q2': {'b': 1.0}} for name in NEWLINE_NAMES},
                          baseline='plain', risk_weight=1.0)
    tables, heading = _markdown_tables(records.render('markdown'))       # the comparison and its risk table
    assert [len(t) for t in tables] == [4, 4] and not heading
    assert all(len(set(t)) == 1 for t in tables)
    latex = records.render('latex')
    assert '\n\n# HEADING' not in latex and r'x\textbackslash{}n\textbackslash{}n\# HEADING' in latex


@pytest.mark.parametrize('fmt', FORMATS)
def test_every_format_renders_the_per_query_values_when_asked(fmt, results):
    """``render(fmt, by_query=True)`` holds each query's values in every format (none prints only the means)."""
    shown = results.render(fmt, by_query=True, places=3)
    assert shown != results.render(fmt, places=3)
    for qid in results.query_ids:
        assert qid in shown
    assert '0.833' in shown                                          # AP of q1
    if fmt in ('markdown', 'latex', 'html'):
        assert shown.count('q1') == 1 and 'all' in shown
