"""rendering/records.py: a table of records in the five formats, numbers by the one rule (4 places in
the table, TSV and Markdown, every digit in CSV and JSON; NaN and infinities)."""
import csv
import io
import json
import math

import pytest

from irmetrics.errors import OptionError
from irmetrics.rendering.formats import FORMATS, text_cell
from irmetrics.rendering.records import Cell, Table, render_document, render_records, render_table
from irmetrics.rendering.values import format_value, json_number, number

COLUMNS = ['measure', 'count', 'value', 'flag']
ROWS = [['AP', 3, 1 / 3, True], ['P|5', 0, math.nan, None], ['RR', 12, math.inf, False]]


def test_table_tsv_markdown_round_to_places():
    assert render_records(COLUMNS, ROWS, 'table').splitlines() == [
        'measure  count   value  flag', 'AP           3  0.3333   yes', 'P|5          0     nan',
        'RR          12     inf    no']
    assert render_records(COLUMNS, ROWS, 'tsv').splitlines()[1] == 'AP\t3\t0.3333\tyes'
    assert render_records(COLUMNS, ROWS, 'tsv', places=2).splitlines()[1] == 'AP\t3\t0.33\tyes'
    markdown = render_records(COLUMNS, ROWS, 'markdown').splitlines()
    assert markdown[:3] == ['| measure | count | value | flag |', '|:---|---:|---:|---:|', '| AP | 3 | 0.3333 | yes |']
    assert markdown[3].startswith('| P\\|5 |')                          # a cell stays one cell


def test_csv_and_json_keep_every_digit():
    rows = list(csv.reader(io.StringIO(render_records(COLUMNS, ROWS, 'csv'))))
    assert rows[0] == COLUMNS and rows[1] == ['AP', '3', repr(1 / 3), 'yes'] and rows[2][2] == 'nan'
    records = json.loads(render_records(COLUMNS, ROWS, 'json'))
    assert records[0] == {'measure': 'AP', 'count': 3, 'value': 1 / 3, 'flag': True}
    assert records[1]['value'] is None and records[2]['value'] is None
    assert json.loads(render_records(COLUMNS, ROWS, 'json', places=3))[0]['value'] == 0.333
    assert render_records(COLUMNS, ROWS, 'table', places=-1).splitlines()[1].split()[2] == repr(1 / 3)


def test_unknown_format():
    assert FORMATS == ('table', 'tsv', 'csv', 'json', 'jsonl', 'markdown', 'latex', 'html')
    with pytest.raises(OptionError, match="unknown format 'xlsx': one of table, tsv"):
        render_records(COLUMNS, ROWS, 'xlsx')


@pytest.mark.parametrize('text, written', [
    ('=HYPERLINK("http://evil")', '\'=HYPERLINK("http://evil")'), ('@SUM(A1)', "'@SUM(A1)"), ('-1+2', "'-1+2"),
    ('+cmd', "'+cmd"), ('\tx', "'\tx"), ('\rx', "'\rx"),
    ('-0.5', '-0.5'), ('-1', '-1'), ('+2e3', '+2e3'), ('a=b', 'a=b'), ('401', '401'), ('', ''),
])
def test_a_text_cell_that_starts_as_a_formula_gets_a_quote(text, written):
    """OWASP's guidance on CSV injection: =, +, -, @, a tab or a carriage return at a text cell's start; a
    number (negative ones included) is no formula and stays as it is."""
    assert text_cell(text) == written


def test_csv_and_tsv_quote_text_cells_that_start_as_formulas_and_leave_numbers():
    columns = ['=run', 'query_id', 'value', 'count']
    rows = [['@SUM(A1)', '-1+2', -0.5, -3], ['ok', '-7', 0.25, 1]]
    assert list(csv.reader(io.StringIO(render_records(columns, rows, 'csv')))) == [
        ["'=run", 'query_id', 'value', 'count'], ["'@SUM(A1)", "'-1+2", '-0.5', '-3'], ['ok', '-7', '0.25', '1']]
    assert render_records(columns, rows, 'tsv').splitlines() == [
        "'=run\tquery_id\tvalue\tcount", "'@SUM(A1)\t'-1+2\t-0.5000\t-3", 'ok\t-7\t0.2500\t1']
    assert render_records(columns, rows, 'markdown').splitlines()[2].startswith('| @SUM(A1) |')     # no spreadsheet


@pytest.mark.parametrize('value, places, sign, missing, written', [
    (1 / 3, 4, '', 'nan', '0.3333'), (1 / 3, None, '', 'nan', repr(1 / 3)), (1 / 3, -1, '+', 'nan', '+' + repr(1 / 3)),
    (0.25, 2, '+', 'nan', '+0.25'), (-0.25, 1, '+', 'nan', '-0.2'), (float('nan'), 4, '', '', ''),
    (float('nan'), 4, '', 'nan', 'nan'), (float('inf'), 4, '', 'nan', 'inf'), (-float('inf'), None, '', 'nan', '-inf'),
    (-1e-17, 4, '', 'nan', '0.0000'), (-1e-17, 4, '+', 'nan', '+0.0000'), (-0.0, 3, '', 'nan', '0.000'),
    (-0.00005, 4, '', 'nan', '-0.0001'), (-0.0, None, '', 'nan', '-0.0'), (12, 2, '', 'nan', '12.00'),
])
def test_one_number_formatter(value, places, sign, missing, written):
    """rendering.values.number: the decimals of every format; a residue that rounds to zero prints unsigned."""
    assert number(value, places, sign=sign, missing=missing) == written


def test_a_measure_value_that_rounds_to_zero_prints_unsigned_in_every_result():
    import irmetrics as irm
    assert format_value(irm.AP, -1e-18, 4) == '0.0000' and format_value(irm.NumRet, 3.0) == '3'
    assert json_number(-1e-18, 3) == 0.0 and json_number(float('inf'), None) is None and json_number(True, 2) is True


CELLS = Table(['run', 'AP'], [['(a) x', Cell('0.5000', bold=True, marks=('b', 'c'), after=' (+0.1)')],
                              ['(b) y', Cell('0.2500', star=True)], ['(c) z', '0.1000']],
              notes=['run  x|y', 'second line'], heading='t-test', caption=r'Means, $\alpha$', label='tab:x')


@pytest.mark.parametrize(('fmt', 'best', 'starred'), [
    ('markdown', '**0.5000**<sup>b,c</sup> (+0.1)', '0.2500\\*'),
    ('latex', r'\textbf{0.5000}$^{b,c}$ (+0.1)', '0.2500$^{*}$'),
    ('html', '<b>0.5000</b><sup>b,c</sup> (+0.1)', '0.2500 *')])
def test_each_markup_writes_a_cell_its_own_way(fmt, best, starred):
    shown = render_table(CELLS, fmt)
    assert best in shown and starred in shown


def test_the_aligned_table_pads_the_marks_and_wraps_notes_given_as_lines_under_a_rule():
    assert render_table(CELLS, 'table').splitlines() == [
        'run                   AP', '(a) x  0.5000 b,c (+0.1)', '(b) y       0.2500     *', '(c) z             0.1000',
        '-' * 24, 'run  x|y', 'second line']


def test_notes_as_lines_keep_their_spaces_where_a_text_is_squeezed():
    assert render_table(CELLS, 'markdown').endswith('\nrun  x\\|y second line\n')
    assert render_table(CELLS._replace(notes='run  x|y\nsecond'), 'markdown').endswith('\nrun x\\|y second\n')
    assert '<p class="legend">run  x|y second line</p>' in render_table(CELLS, 'html')


def test_latex_with_a_caption_is_a_float_and_html_has_its_heading():
    latex = render_table(CELLS, 'latex').splitlines()
    assert latex[:4] == [r'\begin{table}[t]', r'  \centering', r'  \caption{Means, $\alpha$}', r'  \label{tab:x}']
    assert latex[-1] == r'\end{table}' and not any('second line' in line for line in latex)
    assert '<h2>t-test</h2><div class="wide">' in render_table(CELLS, 'html')
    assert r'    run & AP $p$ \\' in render_table(CELLS._replace(latex_header=r'run & AP $p$'), 'latex').splitlines()


def test_the_formats_programs_read_hold_a_cell_as_its_text():
    assert list(csv.reader(io.StringIO(render_table(CELLS, 'csv'))))[1:3] == [['(a) x', '0.5000'], ['(b) y', '0.2500']]
    assert json.loads(render_table(CELLS, 'json'))[1] == {'run': '(b) y', 'AP': '0.2500'}


def test_a_document_puts_the_warnings_where_each_format_does():
    tables = [CELLS, CELLS._replace(heading='')]
    assert render_document(tables, 'markdown', warnings=['w|1']).endswith('line\n\n> w\\|1\n')
    assert render_document(tables, 'latex', warnings=['w1']).startswith('% w1\n\n\\begin{table}')
    assert render_document(tables, 'html', warnings=['w<1']).startswith('<ul class="warnings"><li>w&lt;1</li></ul><h2>')
    assert render_document(tables, 'table', warnings=['w1']).endswith('second line\nw1\n')
    assert render_document(tables, 'table').count('second line\n\nrun ') == 1
