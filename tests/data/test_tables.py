"""Arrow tables, polars DataFrames and Parquet files as qrels and runs.

Each gives the numbers of the TREC files it was written from, per query and to the last bit, with
string and integer id columns alike and under PyTerrier's column names; a missing column, a column
of the wrong type or a missing value is an InputError naming it, never a pyarrow traceback.
"""
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scale_support import FAMILY_MEASURES, assert_same_results, collection

import irmetrics as irm
from irmetrics import InputError

pl = pytest.importorskip('polars')

PYTERRIER = {'query_id': 'qid', 'doc_id': 'docno', 'relevance': 'label'}


def columns(text: str, kind: str, numeric: bool = False) -> dict:
    """The columns of TREC text, ids as strings (or integers with ``numeric``)."""
    fields = [line.split() for line in text.splitlines() if line]
    ident = int if numeric else str
    if kind == 'run':
        return {'query_id': [ident(f[0]) for f in fields], 'doc_id': [ident(f[2]) for f in fields],
                'score': [float(f[4]) for f in fields]}
    return {'query_id': [ident(f[0]) for f in fields], 'doc_id': [ident(f[2]) for f in fields],
            'relevance': [int(f[3]) for f in fields], 'iteration': [f[1] for f in fields]}


@pytest.fixture(scope='module', params=[False, True], ids=['string-ids', 'integer-ids'])
def data(request):
    """(qrels columns, run columns, the in-memory results of the TREC text)."""
    numeric = request.param
    qrels_text, run_text = collection(seed=3, numeric=numeric)
    want = irm.calc(FAMILY_MEASURES, irm.read_trec_qrels(qrels_text, duplicates='max'), irm.read_trec_run(run_text))
    return columns(qrels_text, 'qrels', numeric), columns(run_text, 'run', numeric), want


def as_input(cols: dict, variant: str, tmp_path, name: str):
    table = pa.table(cols)
    if variant == 'arrow':
        return table
    if variant == 'record-batch':
        return table.to_batches()[0]
    if variant == 'pyterrier-arrow':
        return table.rename_columns([PYTERRIER.get(c, c) for c in table.column_names])
    if variant == 'pyterrier-pandas':
        return table.to_pandas().rename(columns=PYTERRIER)
    if variant in ('large-string', 'dictionary', 'string-view'):
        kind = {'large-string': pa.large_string(), 'string-view': pa.string_view(),
                'dictionary': pa.dictionary(pa.int32(), pa.string())}[variant]
        return pa.table({c: (table[c].cast(kind) if pa.types.is_string(table[c].type) else table[c])
                         for c in table.column_names})
    if variant == 'polars':
        return pl.from_arrow(table)
    if variant == 'polars-lazy':
        return pl.from_arrow(table).lazy()
    if variant == 'parquet':
        pq.write_table(table, tmp_path / f'{name}.parquet')
        return str(tmp_path / f'{name}.parquet')
    if variant == 'parquet-directory':                 # as Spark writes it: parts, and files to ignore
        directory = tmp_path / name
        directory.mkdir()
        third = len(table) // 3
        for i, part in enumerate([table.slice(0, third), table.slice(third, third), table.slice(2 * third)]):
            pq.write_table(part, directory / f'part-{i}.parquet')
        (directory / '_SUCCESS').write_text('')
        return directory
    raise AssertionError(variant)


VARIANTS = ['arrow', 'record-batch', 'pyterrier-arrow', 'pyterrier-pandas', 'large-string', 'dictionary',
            'string-view', 'polars', 'polars-lazy', 'parquet', 'parquet-directory']


@pytest.mark.parametrize('variant', VARIANTS)
def test_columnar_inputs_give_the_trec_numbers(data, variant, tmp_path):
    qrels_cols, run_cols, want = data
    qrels = irm.to_qrels(as_input(qrels_cols, variant, tmp_path, 'qrels'), duplicates='max')
    run = as_input(run_cols, variant, tmp_path, 'run')
    assert_same_results(irm.evaluator(FAMILY_MEASURES, qrels).calc(run), want)
    assert_same_results(irm.calc(FAMILY_MEASURES, qrels, run), want)


def test_integer_ids_become_their_text(tmp_path):
    run = irm.to_run(pa.table({'qid': pa.array([7, 7], pa.int16()), 'docno': [10, 2], 'score': [1.0, 1.0]}))
    assert [tuple(r) for r in run] == [('7', '2', 1.0), ('7', '10', 1.0)]      # ties by docno, as text
    frame = pl.DataFrame({'query_id': [1.0, 1.0], 'doc_id': ['a', 'b'], 'relevance': [1.0, 0.0]})
    assert [tuple(q) for q in irm.to_qrels(frame)] == [('1', 'a', 1, '0'), ('1', 'b', 0, '0')]


def test_arrow_ids_stay_arrow():
    run = irm.to_run(pa.table({'query_id': ['q'], 'doc_id': ['d'], 'score': [1.0]}))
    assert run.doc_ids.layout == 'arrow'
    frame = pd.DataFrame({'query_id': pd.array(['q'], dtype='string[pyarrow]'), 'doc_id': ['d'], 'score': [1]})
    assert irm.to_run(frame).query_ids.layout == 'arrow'


RUN = {'query_id': ['q1', 'q1'], 'doc_id': ['a', 'b'], 'score': [2.0, 1.0]}
QRELS = {'query_id': ['q1', 'q1'], 'doc_id': ['a', 'b'], 'relevance': [1, 0]}


@pytest.mark.parametrize('columns_, kind, fragment', [
    ({'query_id': ['q'], 'doc_id': ['d']}, 'run', 'run Arrow table: lacks column(s) score (has query_id, doc_id)'),
    ({'qid': ['q'], 'score': [1.0]}, 'run', 'lacks column(s) doc_id or docno'),
    ({'query_id': ['q'], 'doc_id': ['d']}, 'qrels', 'lacks column(s) relevance or label'),
    ({**RUN, 'score': ['high', 'low']}, 'run', 'column score must hold numbers (integers or floats), not string'),
    ({**QRELS, 'relevance': ['1', '0']}, 'qrels',
     'column relevance must hold numbers (integers or floats), not string'),
    ({**RUN, 'query_id': [True, False]}, 'run', 'column query_id must hold strings or integers, not bool'),
    ({**RUN, 'doc_id': pa.array([1, 2], pa.timestamp('s'))}, 'run', 'column doc_id must hold strings or integers'),
    ({**RUN, 'query_id': ['q1', None]}, 'run', 'item 2: query_id is missing (null)'),
    ({**RUN, 'score': [1.0, None]}, 'run', 'item 2: score is missing (null)'),
    ({**RUN, 'score': [1.0, float('nan')]}, 'run', 'item 2: score nan is not a finite number'),
    ({**QRELS, 'relevance': [1.0, float('nan')]}, 'qrels', 'item 2: relevance nan is not a finite number'),
    ({**QRELS, 'relevance': [1, None]}, 'qrels', 'item 2: relevance is missing (null)'),
])
def test_bad_tables_are_input_errors(columns_, kind, fragment):
    table = pa.table(columns_)
    convert = irm.to_run if kind == 'run' else irm.to_qrels
    for given in (table, pl.from_arrow(table)):
        with pytest.raises(InputError) as caught:
            convert(given)
        expected = fragment.replace('Arrow table', 'polars DataFrame') if given is not table else fragment
        assert expected in str(caught.value)


def test_pyterrier_names_in_a_dataframe_error_message():
    with pytest.raises(InputError, match=r'run DataFrame: lacks column\(s\) score \(has qid, docno\)'):
        irm.to_run(pd.DataFrame({'qid': ['q'], 'docno': ['d']}))


def test_bad_parquet_sources_are_input_errors(tmp_path):
    pq.write_table(pa.table({'query_id': ['q'], 'doc_id': ['d']}), tmp_path / 'noscore.parquet')
    with pytest.raises(InputError, match=r'noscore.parquet: Parquet run lacks column\(s\) score'):
        irm.to_run(tmp_path / 'noscore.parquet')
    (tmp_path / 'text.parquet').write_text('q1 Q0 d1 1 1.0 tag\n')
    with pytest.raises(InputError, match='text.parquet: cannot read as Parquet'):
        irm.to_run(str(tmp_path / 'text.parquet'))
    with pytest.raises(InputError, match='missing.parquet: no such file'):
        irm.to_qrels(str(tmp_path / 'missing.parquet'))
    (tmp_path / 'empty').mkdir()
    with pytest.raises(InputError, match='empty: is a directory without Parquet files'):
        irm.to_run(tmp_path / 'empty')
    pq.write_table(pa.table({**RUN, 'score': [1.0, np.nan]}), tmp_path / 'nan.parquet')
    with pytest.raises(InputError, match=r'nan.parquet: item 2: score nan is not a finite number'):
        irm.calc_aggregate(['AP'], {'q1': {'a': 1}}, tmp_path / 'nan.parquet')


def test_parquet_qrels_with_pyterrier_names(tmp_path):
    pq.write_table(pa.table({'qid': ['q1', 'q1'], 'docno': ['a', 'b'], 'label': [1, 2]}), tmp_path / 'q.parquet')
    assert irm.calc_aggregate(['P@1', 'nDCG'], tmp_path / 'q.parquet', {'q1': {'b': 2.0, 'a': 1.0}}) == \
        irm.calc_aggregate(['P@1', 'nDCG'], {'q1': {'a': 1, 'b': 2}}, {'q1': {'b': 2.0, 'a': 1.0}})


def test_import_irmetrics_stays_light():
    code = ('import sys\nimport irmetrics\n'
            'heavy = [m for m in ("dask", "distributed", "polars", "pandas", "pyarrow") if m in sys.modules]\n'
            'assert not heavy, heavy\n')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize('layout', ['ints-model', 'strings-sorted', 'interleaved'])
def test_a_large_table_evaluated_in_blocks_of_queries_gives_the_numbers_of_the_whole(monkeypatch, layout):
    """Blocks of complete queries (the table's rows of one query together) give the whole table's numbers;
    a table whose queries are interleaved is evaluated whole; a faulty row is named by its item number in
    the whole table."""
    from irmetrics.api import reading
    rng = np.random.default_rng(4)
    users, k = 60, 15
    query = np.repeat(np.arange(users), k)
    doc = (rng.integers(0, 300, (users, 1)) + np.arange(k) * 7).ravel() % 300
    score = rng.integers(0, 4, users * k).astype(float)                     # ties
    if layout == 'interleaved':
        order = rng.permutation(users * k)
        query, doc, score = query[order], doc[order], score[order]
    run = pa.table({'query_id': query, 'doc_id': doc, 'score': score})
    if layout == 'strings-sorted':
        run = pa.table({'query_id': pa.array(query).cast(pa.string()), 'doc_id': pa.array(doc).cast(pa.string()),
                        'score': score})
    judged = (np.repeat(rng.integers(0, 300, users + 5), 3) + np.tile([0, 101, 202], users + 5)) % 300
    qrels = pa.table({'query_id': np.repeat(np.arange(users + 5), 3), 'doc_id': judged,
                      'relevance': rng.integers(0, 3, 3 * (users + 5))})
    measures = ['nDCG@10', 'AP', 'P@5', 'RR', 'NumRet']
    whole = irm.calc(measures, qrels, run, duplicates='first')
    monkeypatch.setattr(reading, 'TABLE_BLOCK_ROWS', 4 * k + 3)
    from irmetrics.data import tables
    assert (tables.run_blocks(run, 4 * k + 3) is None) == (layout == 'interleaved')
    blocks = irm.calc(measures, qrels, run, duplicates='first')
    assert blocks.query_ids == whole.query_ids
    np.testing.assert_array_equal(blocks.values, whole.values)
    if layout == 'ints-model':
        bad = run.set_column(2, 'score', pa.array(np.where(np.arange(users * k) == 700, np.nan, score)))
        with pytest.raises(irm.InputError, match=r'run Arrow table: item 701: score nan is not a finite number'):
            irm.calc(measures, qrels, bad)


@pytest.mark.parametrize('column, values, problem', [
    ('query_id', ['q1', '', 'q1', ''], 'query_id is empty'),
    ('doc_id', ['a', None, 'c', None], 'doc_id is missing (null)'),
    ('query_id', [1.0, np.nan, 2.0, np.nan], 'query_id is missing (None, NaN or NA)'),
])
def test_a_missing_or_empty_id_names_the_file_the_column_its_first_row_and_their_count(tmp_path, column, values,
                                                                                       problem):
    run = pa.table({**{'query_id': ['q1'] * 4, 'doc_id': ['a', 'b', 'c', 'd'], 'score': [4.0, 3, 2, 1]},
                    column: values})
    qrels = run.drop_columns('score').append_column('relevance', pa.array([1] * 4))
    pq.write_table(run, tmp_path / 'run.parquet')
    pq.write_table(qrels, tmp_path / 'qrels.parquet')
    expected = f'item 2: {problem} (the first of 2 such rows)'
    for given, convert, source in ((run, irm.to_run, 'run Arrow table'), (pl.from_arrow(run), irm.to_run,
                                   'run polars DataFrame'), (tmp_path / 'run.parquet', irm.to_run,
                                   str(tmp_path / 'run.parquet')), (qrels, irm.to_qrels, 'qrels Arrow table'),
                                   (tmp_path / 'qrels.parquet', irm.to_qrels, str(tmp_path / 'qrels.parquet'))):
        with pytest.raises(InputError) as caught:
            convert(given)
        assert str(caught.value) == f'{source}: {expected}'


def test_an_empty_query_id_in_a_parquet_run_read_in_chunks_names_its_item(tmp_path):
    queries = [f'q{i // 100}' for i in range(20_000)]
    queries[5_000] = queries[5_001] = ''
    pq.write_table(pa.table({'query_id': queries, 'doc_id': [f'd{i}' for i in range(20_000)],
                             'score': np.arange(20_000, dtype=float)}), tmp_path / 'run.parquet')
    with pytest.raises(InputError, match=r'run.parquet: item 5001: query_id is empty \(the first of 2 such rows '
                                         r'in this part of the input\)'):
        irm.calc_aggregate(['AP'], {'q1': {'d1': 1}}, tmp_path / 'run.parquet', memory_limit='40k')
