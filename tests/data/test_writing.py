"""Runs and qrels written back: Arrow, pandas, Parquet and TREC text read back to the same
Run or Qrels: ids, grades and iterations, scores to the last bit, and the same numbers."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics import InputError

MEASURES = ['AP', 'nDCG@10', 'P@5', 'RR', 'Bpref']


def awkward_run():
    """Scores at the edges of a double, ties, ids with Unicode and '#', ids that look like numbers."""
    rng = np.random.default_rng(4)
    scores = np.concatenate([rng.standard_normal(300) * 10.0 ** rng.integers(-300, 300, 300),
                             [0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -0.0, 2.0 ** 53 + 2, 0.1, 0.1]])
    queries = [f'q{i % 7}' for i in range(len(scores))]
    docs = [f'd{i}' if i % 5 else f'δ#{i:03d}' for i in range(len(scores))]
    return irm.Run.from_columns(queries, docs, scores, source='awkward')


def test_a_run_reads_back_the_same_from_every_form(tmp_path, layout):
    run = awkward_run()
    run.to_trec(tmp_path / 'run.txt', tag='mine')
    run.to_parquet(tmp_path / 'run.parquet')
    forms = [irm.read_trec_run(tmp_path / 'run.txt'), irm.to_run(tmp_path / 'run.parquet'),
             irm.to_run(run.to_dataframe()), irm.to_run(run.to_arrow())]
    for back in forms:
        assert list(back) == list(run)                            # ids, scores (to the bit) and ranked order
        assert np.array_equal(back.scores[back.order].view(np.int64), run.scores[run.order].view(np.int64))
    first = (tmp_path / 'run.txt').read_text(encoding='utf-8').splitlines()[0].split(' ')
    assert first[1] == 'Q0' and first[3] == '1' and first[5] == 'mine'


def test_the_arrow_form_is_ranked_with_ranks_from_one():
    run = irm.Run.from_columns(['q', 'q', 'p'], ['a', 'b', 'c'], [1.0, 2.0, 5.0])
    table = run.to_arrow()
    assert table.column_names == ['query_id', 'doc_id', 'score', 'rank']
    assert table.to_pylist() == [{'query_id': 'q', 'doc_id': 'b', 'score': 2.0, 'rank': 1},
                                 {'query_id': 'q', 'doc_id': 'a', 'score': 1.0, 'rank': 2},
                                 {'query_id': 'p', 'doc_id': 'c', 'score': 5.0, 'rank': 1}]
    assert isinstance(run.to_dataframe(), pd.DataFrame) and isinstance(table, pa.Table)


def test_qrels_read_back_the_same_from_every_form(tmp_path, layout):
    qrels = irm.read_trec_qrels(ROOT / 'examples' / 'qrels.txt')
    run = irm.read_trec_run(ROOT / 'examples' / 'run_bm25.txt')
    qrels.to_trec(tmp_path / 'qrels.txt')
    qrels.to_parquet(tmp_path / 'qrels.parquet')
    expected = irm.calc_aggregate(MEASURES, qrels, run)
    for back in [irm.read_trec_qrels(tmp_path / 'qrels.txt'), irm.to_qrels(tmp_path / 'qrels.parquet'),
                 irm.to_qrels(qrels.to_dataframe())]:
        assert list(back) == list(qrels)
        assert irm.calc_aggregate(MEASURES, back, run) == expected
    assert qrels.to_arrow().column_names == ['query_id', 'iteration', 'doc_id', 'relevance']


@pytest.mark.parametrize('doc', ['a b', 'tab\there', 'line\nbreak'])
def test_an_id_trec_text_cannot_hold_is_refused_by_name(tmp_path, doc):
    run = irm.Run.from_columns(['q'], [doc], [1.0])
    with pytest.raises(InputError, match=r'cannot be written as TREC text .* write Parquet instead'):
        run.to_trec(tmp_path / 'run.txt')
    assert not (tmp_path / 'run.txt').exists()
    run.to_parquet(tmp_path / 'run.parquet')
    assert list(irm.to_run(tmp_path / 'run.parquet')) == list(run)
