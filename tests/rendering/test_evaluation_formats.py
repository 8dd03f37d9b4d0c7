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
