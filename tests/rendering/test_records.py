"""rendering/records.py: a table of records in the five formats, numbers by the one rule (4 places in
the table, TSV and Markdown, every digit in CSV and JSON; NaN and infinities)."""
import csv
import io
import json
import math

import pytest

from irmetrics.errors import OptionError
from irmetrics.rendering.formats import FORMATS
from irmetrics.rendering.records import render_records

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
