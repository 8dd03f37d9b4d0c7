"""The registry of input kinds (irmetrics/data/input_kinds.py): each kind claims its own inputs and nothing
else, classify names what is accepted, and a run is opened whole or in parts as the memory budget says."""
import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import scipy.sparse
from repo_paths import ROOT

import irmetrics as irm
from irmetrics import InputError, Qrel, ScoredDoc
from irmetrics.data import input_kinds
from irmetrics.data.arrays import ArrayRun, Scores, TopK
from irmetrics.data.input_kinds import (
    ARRAYS,
    CONVERTED,
    DATAFRAME,
    DICT,
    KINDS,
    PARQUET,
    RANX,
    RECORDS,
    TABLE,
    TREC_FILE,
    TREC_TEXT,
    classify,
    find_kind,
)
from irmetrics.data.inputs import looks_like_data, open_run, run_chunks, source_path
from irmetrics.data.large import Reading, RunParts
from irmetrics.data.trec.reader import StandardInput

pl = pytest.importorskip('polars')

QRELS, BM25 = str(ROOT / 'examples' / 'qrels.txt'), str(ROOT / 'examples' / 'run_bm25.txt')
RUN_TEXT = 'q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d3 1 1.0 r\n'


class FakeRanx:
    """Stands for a ranx object: ranx is told by its type's module and name, never imported."""

    def __init__(self, data):
        self.data = data

    def to_dict(self):
        return self.data


def ranx_object(name, data):
    kind = type(name, (FakeRanx,), {'__module__': 'ranx.data_structures'})
    return kind(data)


def samples(tmp_path):
    """Inputs of every kind, by the kind that should claim them."""
    named_with_newline = tmp_path / 'odd\nname.txt'             # a path holding a newline, naming a file
    named_with_newline.write_text(RUN_TEXT)
    directory = tmp_path / 'parts'
    directory.mkdir()
    run = irm.read_trec_run(RUN_TEXT)
    return {
        CONVERTED: [irm.read_trec_qrels('q1 0 d1 1\n'), run, RunParts('run', [[run]])],
        ARRAYS: [np.zeros((2, 3)), np.arange(6).reshape(2, 3), (np.zeros((2, 2), int), np.ones((2, 2))),
                 TopK(np.zeros((2, 2), int)), Scores(np.zeros((2, 2))), scipy.sparse.csr_matrix(np.eye(3))],
        TREC_TEXT: [RUN_TEXT, b'q1 Q0 d1 1 1 r\n', StandardInput(b''), '', '  \t ', '\n'],
        PARQUET: ['run.parquet', Path('RUN.PARQUET'), str(directory), directory],
        TREC_FILE: [BM25, Path(BM25), 'missing.txt', 'run.txt.gz', 'AP', str(named_with_newline)],
        TABLE: [pa.table({'query_id': ['q'], 'doc_id': ['d'], 'score': [1.0]}),
                pa.record_batch({'query_id': ['q'], 'doc_id': ['d'], 'score': [1.0]}),
                pl.DataFrame({'query_id': ['q']}), pl.LazyFrame({'query_id': ['q']})],
        DATAFRAME: [pd.DataFrame({'query_id': ['q'], 'doc_id': ['d'], 'score': [1.0]}), pd.DataFrame()],
        DICT: [{'q1': {'d1': 1}}, {}, {'bm25': BM25}],
        RANX: [ranx_object('Qrels', {'q1': {'d1': 1}}), ranx_object('Run', {'q1': {'d1': 1.0}})],
        RECORDS: [[Qrel('q1', 'd1', 1)], [ScoredDoc('q1', 'd1', 1.0)], [('q1', 'd1', 1.0)], ['AP', 'nDCG@10'], (),
                  (x for x in [('q1', 'd1', 1.0)])],
    }


def test_each_kind_claims_its_inputs_and_nothing_else(tmp_path):
    found = samples(tmp_path)
    assert set(found) == set(KINDS)                             # every kind of the registry is tried
    for kind, objects in found.items():
        for obj in objects:
            assert [k for k in KINDS if k.claims(obj)] == [kind], (kind, obj)
            assert classify(obj) is kind and find_kind(obj) is kind


@pytest.mark.parametrize('obj', [5, None, 1.5, object(), Qrel])
def test_what_no_kind_claims_is_one_error_listing_what_is_accepted(obj):
    assert find_kind(obj) is None
    with pytest.raises(InputError, match=f'cannot read run from {type(obj).__name__}: expected arrays .*, raw TREC '
                                         r'text .*, a Parquet file .* or an iterable of records'):
        irm.to_run(obj)
    with pytest.raises(InputError, match=f'cannot read qrels from {type(obj).__name__}'):
        irm.to_qrels(obj)


def test_a_qrels_where_a_run_is_expected_and_the_reverse_are_errors():
    qrels, run = irm.read_trec_qrels(QRELS), irm.read_trec_run(BM25)
    assert irm.to_qrels(qrels) is qrels and irm.to_run(run) is run
    with pytest.raises(InputError, match='a Run was given where qrels are expected'):
        irm.to_qrels(run)
    with pytest.raises(InputError, match='a Qrels was given where a run is expected'):
        irm.to_run(qrels)
    with pytest.raises(InputError, match=r'an \(items, scores\) pair of arrays is a run, not judgments'):
        irm.to_qrels((np.zeros((2, 2), int), np.ones((2, 2))))
    with pytest.raises(InputError, match=r'TopK\(2x2\) is a run, not judgments'):
        irm.to_qrels(TopK(np.zeros((2, 2), int)))
    with pytest.raises(InputError, match='a run opened in parts is evaluated part by part'):
        irm.to_run(RunParts('run', []))


def test_the_ranx_kind_reads_ranx_objects_without_ranx():
    assert irm.to_qrels(ranx_object('Qrels', {'q1': {'d1': 1}})).num_queries == 1
    assert len(irm.to_run(ranx_object('Run', {'q1': {'d1': 1.0, 'd2': 0.5}}))) == 2
    with pytest.raises(InputError, match='a ranx Run was given where qrels are expected'):
        irm.to_qrels(ranx_object('Run', {'q1': {'d1': 1.0}}))


def test_data_given_in_the_place_of_measures_is_told_by_the_registry(tmp_path):
    data = [QRELS, Path(BM25), RUN_TEXT, b'q1 Q0 d1 1 1 r\n', irm.read_trec_run(BM25), {'q1': {'d1': 1}},
            {'bm25': BM25}, pd.DataFrame({'query_id': ['q']}), pa.table({'q': [1]}), np.zeros((2, 2))]
    words = ['AP', 'nDCG@10 P@5', 'missing.txt', ['AP', 'P@5'], {}, (), 5]
    assert [looks_like_data(obj) for obj in data] == [True] * len(data)
    assert [looks_like_data(obj) for obj in words] == [False] * len(words)


def test_source_path_is_the_path_of_a_file_kind_only(tmp_path):
    assert source_path(Path(BM25)) == BM25 and source_path('missing.parquet') == 'missing.parquet'
    assert [source_path(obj) for obj in (RUN_TEXT, b'', {'q': {}}, [], 5, irm.read_trec_run(BM25))] == [None] * 6


# --- a run opened whole or in parts ---------------------------------------------------------------------
def test_a_run_file_is_whole_within_the_budget_and_in_chunks_beyond_it(tmp_path):
    path = tmp_path / 'run.txt'
    path.write_text(''.join(f'q{q} Q0 d{d} {d} {-d} r\n' for q in range(50) for d in range(20)))
    whole = open_run(path, Reading(budget=1 << 30))
    assert isinstance(whole, irm.Run) and whole.num_queries == 50
    with open_run(path, Reading(budget=4000)) as parts:
        passes = [list(one_pass) for one_pass in parts]
    assert len(passes) == 1 and len(passes[0]) > 1                   # grouped: one pass, several chunks
    assert sum(run.num_queries for run in passes[0]) == 50
    assert parts.source == str(path)


def test_a_file_not_grouped_by_query_gives_a_second_pass_spilled_by_query_hash(tmp_path):
    path = tmp_path / 'run.txt'
    path.write_text(''.join(f'q{q} Q0 d{d} {d} {-d} r\n' for d in range(20) for q in range(50)))
    with open_run(path, Reading(budget=4000)) as parts:
        passes = [[run.query_ids.to_list() for run in one_pass] for one_pass in parts]
    assert len(passes) == 2
    last = [q for chunk in passes[-1] for q in chunk]
    assert sorted(last) == sorted(f'q{q}' for q in range(50))        # every query once, complete


def test_compressed_text_beyond_the_budget_once_decompressed_is_read_in_chunks(tmp_path):
    text = ''.join(f'q{q} Q0 d{d} {d + 1} {100 - d} r\n' for q in range(300) for d in range(60))
    packed = tmp_path / 'run.txt.gz'
    packed.write_bytes(gzip.compress(text.encode()))
    budget = 3 << 19              # 1.5 MiB: the file says 1.1 MB to evaluate; its 18,000 lines take 2.2 MB
    assert input_kinds.TREC_FILE.footprint(str(packed)) <= budget
    opened = open_run(packed, Reading(budget=budget))
    assert isinstance(opened, RunParts)
    opened.close()
    assert isinstance(open_run(packed, Reading(budget=1 << 30)), irm.Run)


def test_a_large_table_grouped_by_query_is_in_blocks_unless_the_measures_need_it_whole():
    table = pa.table({'query_id': np.repeat(np.arange(10), 5), 'doc_id': np.tile(np.arange(5), 10),
                      'score': np.ones(50)})
    with open_run(table, Reading(budget=1 << 30, table_rows=12)) as parts:
        (blocks,) = [list(one_pass) for one_pass in parts]
    assert len(blocks) > 1 and parts.source == 'run Arrow table'
    assert sorted(q for run in blocks for q in run.query_ids.to_list()) == sorted(map(str, range(10)))
    assert isinstance(open_run(table, Reading(budget=1 << 30, table_rows=12, whole=True)), irm.Run)
    assert isinstance(open_run(table, Reading(budget=1 << 30)), irm.Run)          # small: whole


def test_arrays_are_one_part_ranked_by_the_evaluation_even_for_measures_of_a_whole_run():
    scores = np.array([[0.1, 0.9, 0.5], [0.3, 0.2, 0.1]])
    judgments = irm.to_qrels(np.array([[0, 1, 0], [1, 0, 0]]))
    for whole in (False, True):                     # measures of a whole run read each block's top ranking
        with open_run(scores, Reading(budget=1 << 30, depth=2, whole=whole, judgments=judgments)) as parts:
            ((arrays,),) = [list(one_pass) for one_pass in parts]
        assert isinstance(arrays, ArrayRun) and arrays.shape == (2, 3)
    with pytest.raises(InputError, match='the run has 2 users'):
        open_run(scores, Reading(budget=1 << 30, judgments=irm.to_qrels(np.eye(3))))


def test_only_a_run_file_is_read_in_chunks():
    assert isinstance(run_chunks(BM25, 1 << 20), RunParts)
    with pytest.raises(InputError, match='a dict of dicts is read whole: only a run file is read in chunks'):
        run_chunks({'q1': {'d1': 1.0}}, 1 << 20)


def test_the_evaluator_asks_the_registry_and_never_what_kind_an_input_is():
    source = (ROOT / 'irmetrics' / 'api' / 'evaluator.py').read_text()
    for question in ('is_source', 'is_table', 'is_array', 'is_parquet', 'is_path', 'TextOverBudget',
                     'map_query_chunks', 'footprint', 'os.path'):
        assert question not in source, question
    assert 'open_run(' in source


def test_every_path_of_the_package_is_told_by_one_rule():
    rules = [path.relative_to(ROOT).as_posix() for path in (ROOT / 'irmetrics').rglob('*.py')
             if 'def is_path' in path.read_text() or 'def is_text' in path.read_text()]
    assert rules == ['irmetrics/data/paths.py']
