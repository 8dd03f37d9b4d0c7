"""A run evaluated in parts of complete queries gives the in-memory numbers, to the last bit.

Parts are what Dask and Spark partitions and the chunks of a run larger than memory are: the
partition function (``Partitions.calc``, ``Partitions.combine``) and ``Evaluator.combine`` are tested here without
any engine; the chunked path through ``memory_limit`` with TREC and Parquet files, grouped by query
or not, and every duplicates policy.
"""
import gzip
import pickle

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scale_support import FAMILY_MEASURES, NINE, assert_same_results, collection

import irmetrics as irm
from irmetrics import DuplicateError, InputError, OptionError
from irmetrics.data import chunks
from irmetrics.data.budget import memory_budget


@pytest.fixture(scope='module')
def texts():
    return collection(seed=5, duplicates=0)


def split_by_query(run_text: str, parts: int, seed: int) -> list[str]:
    """The run's lines dealt into ``parts`` texts, each query's lines to one text (some texts empty)."""
    rng = np.random.default_rng(seed)
    owner: dict[str, int] = {}
    out = [[] for _ in range(parts)]
    for line in run_text.splitlines():
        query = line.split()[0]
        out[owner.setdefault(query, int(rng.integers(parts)))].append(line + '\n')
    return [''.join(lines) for lines in out]


@pytest.mark.parametrize('parts', [1, 3, 17])
def test_parts_give_the_in_memory_values(texts, parts, layout):
    qrels_text, run_text = texts
    ev = irm.evaluator(FAMILY_MEASURES, irm.read_trec_qrels(qrels_text, duplicates='max'))
    want = ev.calc(run_text)
    pieces = [ev.calc_queries(irm.read_trec_run(text) if text else irm.to_run([])) for text in
              split_by_query(run_text, parts, seed=parts)]
    assert_same_results(ev.combine(pieces), want)
    frames = [irm.Partitions(ev).calc(irm.read_trec_run(text)) for text in split_by_query(run_text, parts, 1) if text]
    assert_same_results(irm.Partitions(ev).combine(frames), want)


@pytest.mark.parametrize('seed', [13, 21, 34])
def test_every_query_alone_gives_its_in_memory_value(seed):
    # the strongest form of the property every part relies on: a query's values depend on its rows alone
    qrels_text, run_text = collection(seed=seed, queries=40)
    ev = irm.evaluator(FAMILY_MEASURES, irm.read_trec_qrels(qrels_text, duplicates='max'))
    alone: dict[str, str] = {}
    for line in run_text.splitlines(keepends=True):
        alone[line.split()[0]] = alone.get(line.split()[0], '') + line
    pieces = [ev.calc_queries(irm.read_trec_run(text)) for text in alone.values()]
    assert_same_results(ev.combine(pieces), ev.calc(run_text))


def test_partition_frames(texts):
    import pandas as pd
    qrels_text, run_text = texts
    ev = irm.evaluator(['AP', 'nDCG@10'], qrels_text)
    parts = irm.Partitions(ev)
    frame = parts.calc(irm.read_trec_run(run_text))
    assert list(frame.columns) == ['query_id', 'AP', 'nDCG@10']
    assert frame['query_id'].tolist() == [q for q in ev.query_ids if q in set(frame['query_id'])]   # qrels order
    assert parts.schema == 'query_id string, `AP` double, `nDCG@10` double'
    assert_same_results(parts.combine(pd.concat([frame.iloc[::2], frame.iloc[1::2]])), ev.calc(run_text))
    with pytest.raises(InputError, match='is in more than one part of the run'):
        parts.combine([frame, frame.iloc[:1]])
    with pytest.raises(InputError, match='is in more than one part of the run'):
        parts.combine(pd.concat([frame, frame.iloc[-1:]]))                  # twice in one frame
    with pytest.raises(InputError, match="query 'nope' of a part is not in the qrels"):
        parts.combine(frame.assign(query_id=['nope'] * len(frame)))


def test_an_evaluator_pickles_without_its_prepared_engines(texts):
    qrels_text, run_text = texts
    ev = irm.evaluator(NINE, qrels_text)
    unprepared = len(pickle.dumps(ev))
    ev.calc(run_text)                                       # prepares the engines on the whole qrels
    ev.calc_queries(irm.read_trec_run(run_text))
    assert len(pickle.dumps(ev)) == unprepared              # what travels: the measures and the qrels only
    copy = pickle.loads(pickle.dumps(ev))
    assert_same_results(copy.calc(run_text), ev.calc(run_text))


# --- runs larger than memory ------------------------------------------------------------------------
def write_run(tmp_path, text: str, form: str):
    """The run as a TREC file (plain or .gz) or a Parquet file with row groups of 7 rows."""
    if form in ('parquet', 'parquet-dir'):
        fields = [line.split() for line in text.splitlines() if line]
        table = pa.table({'qid': [f[0] for f in fields], 'docno': [f[2] for f in fields],
                          'score': [float(f[4]) for f in fields]})
        if form == 'parquet':
            pq.write_table(table, tmp_path / 'run.parquet', row_group_size=7)
            return tmp_path / 'run.parquet'
        (tmp_path / 'run').mkdir()
        third = len(table) // 3                             # files in name order: the rows in order
        for i, start in enumerate((0, third, 2 * third)):
            part = table.slice(start, third if i < 2 else len(table))
            pq.write_table(part, tmp_path / 'run' / f'part-{i}.parquet', row_group_size=11)
        return tmp_path / 'run'
    path = tmp_path / ('run.gz' if form == 'gz' else 'run.txt')
    with (gzip.open if form == 'gz' else open)(path, 'wt') as f:
        f.write(text)
    return path


@pytest.mark.parametrize('form', ['txt', 'gz', 'parquet', 'parquet-dir'])
@pytest.mark.parametrize('grouped', [True, False], ids=['grouped', 'shuffled'])
@pytest.mark.parametrize('duplicates', ['first', 'last', 'max'])
def test_chunks_give_the_in_memory_values(tmp_path, monkeypatch, form, grouped, duplicates):
    qrels_text, run_text = collection(seed=7, duplicates=12, grouped=grouped)
    path = write_run(tmp_path, run_text, form)
    ev = irm.evaluator(FAMILY_MEASURES, irm.read_trec_qrels(qrels_text, duplicates='max'))
    want = ev.calc(run_text, duplicates=duplicates)
    spills = []
    monkeypatch.setattr(chunks, 'spilled', lambda *a, spill=chunks.spilled: spills.append(1) or spill(*a))
    got = ev.calc(path, duplicates=duplicates, memory_limit=4000)
    assert_same_results(got, want)
    assert spills == ([] if grouped else [1])          # a shuffled run goes through the spill, a grouped one not
    assert_same_results(ev.calc(path, duplicates=duplicates, memory_limit='1G'), want)   # whole, in memory


def errors_whole_and_chunked(tmp_path, qrels_text: str, lines: list[str], error: type) -> tuple:
    """The errors of the run file ``lines`` read whole and in chunks (both must raise ``error``)."""
    path = tmp_path / 'run.txt'
    path.write_text(''.join(lines))
    with pytest.raises(error) as whole:
        irm.calc_aggregate(['AP'], qrels_text, path)
    with pytest.raises(error) as chunked:
        irm.calc_aggregate(['AP'], qrels_text, path, memory_limit=3000)
    return whole.value, chunked.value


def test_chunk_errors_name_the_line_in_the_file(tmp_path):
    qrels_text, run_text = collection(seed=9)
    lines = run_text.splitlines(keepends=True)
    bad = len(lines) - 5
    lines[bad] = lines[bad].replace(' tag', '')
    whole, chunked = errors_whole_and_chunked(tmp_path, qrels_text, lines, InputError)
    assert str(chunked) == str(whole) and whole.line == bad + 1


def test_chunk_duplicates_name_their_lines(tmp_path):
    qrels_text, run_text = collection(seed=11)
    lines = run_text.splitlines(keepends=True)
    at = len(lines) - 10
    lines.insert(at + 1, lines[at].replace(' tag', '0 tag'))
    whole, chunked = errors_whole_and_chunked(tmp_path, qrels_text, lines, DuplicateError)
    assert str(chunked) == str(whole)
    assert f'at lines {at + 1}, {at + 2}' in str(whole)


@pytest.mark.parametrize('text, size', [('4G', 4 << 30), ('512M', 512 << 20), ('1.5GiB', 3 << 29), ('100kb', 102400),
                                        (' 2 g ', 2 << 30), (12345, 12345)])
def test_memory_limits(text, size):
    assert memory_budget(text) == size


@pytest.mark.parametrize('text, problem', [('lots', 'is not a size'), ('4X', 'is not a size'), ('-1G', 'is not a size'),
                                           (0, 'must be positive'), ('0', 'must be positive'), (1.5, 'is not a size'),
                                           ('9' * 400, 'is too large'), ('99999999999T', 'is too large'),
                                           (2 ** 63, 'is too large'), (10 ** 400, 'is too large')])
def test_bad_memory_limits_are_option_errors(text, problem):
    """A size beyond what int64 holds (8 EiB) too: before, 400 digits overflowed a float into a traceback."""
    with pytest.raises(OptionError, match=f'memory limit .*{problem}'):
        memory_budget(text)


def test_default_memory_limit_is_half_the_memory():
    assert memory_budget(None) > 1 << 20


@pytest.mark.parametrize('values', [list('aaabbbbcc'), list('aabbaacc'), list('abcabc'), [], ['x'], list('aaaa')])
def test_arrow_encoding_of_runs_of_ids_agrees_with_numpy(values):
    from irmetrics.data import ids
    from irmetrics.data.ids.arrow_ids import ArrowIds
    numpy_vocab, numpy_codes = ids.column(values).encode()
    arrow_vocab, arrow_codes = ArrowIds.of(pa.array(values, pa.string())).encode()
    assert arrow_vocab.to_list() == numpy_vocab.to_list() and arrow_codes.tolist() == numpy_codes.tolist()
    assert arrow_codes.dtype == np.int32


@pytest.mark.parametrize('shuffled', [False, True])
def test_ranked_positions_of_sorted_and_unsorted_runs(shuffled):
    # a run sorted by score with ties (few rows move) and a shuffled one (every row moves): same values
    qrels_text, run_text = collection(seed=31, queries=30)
    lines = run_text.splitlines(keepends=True)
    if shuffled:
        lines = [lines[i] for i in np.random.default_rng(0).permutation(len(lines))]
    ev = irm.evaluator(FAMILY_MEASURES, irm.read_trec_qrels(qrels_text, duplicates='max'))
    assert_same_results(ev.calc(''.join(lines)), ev.calc(run_text))
