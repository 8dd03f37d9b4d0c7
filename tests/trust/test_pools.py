"""Depth-k pools against a brute-force construction from the sorted rows (trec_eval's order: score
descending, ties by docno descending), with and without qrels, and the pool's qrels file."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.errors import OptionError

EXAMPLES = ROOT / 'examples'


def brute_force_pool(runs, depth):
    """{query: {doc: set of runs that pooled it}} from each run's rows sorted in Python."""
    pooled = {}
    for name, rows in runs.items():
        by_query = {}
        for query, doc, score in rows:
            by_query.setdefault(query, []).append((score, doc))
        for query, scored in by_query.items():
            ranked = sorted(scored, key=lambda sd: (sd[0], sd[1].encode()), reverse=True)  # score, then docno, desc
            for _, doc in ranked[:depth]:
                pooled.setdefault(query, {}).setdefault(doc, set()).add(name)
    return pooled


run_rows = st.lists(st.tuples(st.sampled_from(['q1', 'q2', 'q3']), st.sampled_from([f'd{i}' for i in range(12)]),
                              st.sampled_from([0.5, 1.0, 1.5, 2.0])), max_size=30,
                    unique_by=lambda r: (r[0], r[1]))


@given(st.lists(run_rows.filter(bool), min_size=1, max_size=4), st.integers(1, 6))
def test_the_pool_is_the_union_of_each_runs_top_depth(rows_of_runs, depth):
    runs = {f'r{i}': rows for i, rows in enumerate(rows_of_runs)}
    result = irm.pool(None, {name: [irm.ScoredDoc(*r) for r in rows] for name, rows in runs.items()}, depth=depth)
    expected = brute_force_pool(runs, depth)
    pairs = [(q.query_id, q.doc_id) for q in result.qrels]
    assert sorted(pairs) == sorted((q, d) for q, docs in expected.items() for d in docs)
    assert all(q.relevance == -1 for q in result.qrels)
    queries = list(result.query_ids)
    assert sorted(queries) == sorted(expected)
    for j, query in enumerate(queries):
        assert result.size[j] == len(expected[query])
        for i, name in enumerate(result.runs):
            mine = [d for d, by in expected[query].items() if name in by]
            assert result.retrieved[i, j] == len(mine)
            assert result.unique[i, j] == sum(1 for d in mine if expected[query][d] == {name})


@given(st.lists(run_rows.filter(bool), min_size=1, max_size=3), st.integers(1, 5),
       st.lists(st.tuples(st.sampled_from(['q1', 'q2', 'q9']), st.sampled_from([f'd{i}' for i in range(12)]),
                          st.integers(-1, 2)), min_size=1, max_size=20, unique_by=lambda r: (r[0], r[1])))
def test_qrels_leave_out_the_judged_pairs(rows_of_runs, depth, judgments):
    runs = {f'r{i}': [irm.ScoredDoc(*r) for r in rows] for i, rows in enumerate(rows_of_runs)}
    qrels = [irm.Qrel(q, d, g) for q, d, g in judgments]
    judged = {(q, d) for q, d, _ in judgments}
    whole, left = irm.pool(None, runs, depth=depth), irm.pool(qrels, runs, depth=depth)
    everything = {(q.query_id, q.doc_id) for q in whole.qrels}
    assert {(q.query_id, q.doc_id) for q in left.qrels} == everything - judged
    assert left.judged.sum() == len(everything & judged) and len(left) == len(everything - judged)
    assert np.array_equal(left.size, whole.size) and np.array_equal(left.unique, whole.unique)


def test_ties_are_broken_by_docno_descending_not_by_the_rank_column():
    """Three documents tied at 1.0: trec_eval ranks d3, d2, d1 whatever the file's ranks say."""
    run = 'q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 1.0 r\nq1 Q0 d3 3 1.0 r\nq1 Q0 d0 4 0.5 r\n'
    assert [q.doc_id for q in irm.pool(None, [run], depth=2).qrels] == ['d2', 'd3']


def test_pool_of_the_examples_written_as_a_qrels_file(tmp_path):
    runs = [str(EXAMPLES / 'run_bm25.txt'), str(EXAMPLES / 'run_dense.txt')]
    result = irm.pool(str(EXAMPLES / 'qrels.txt'), runs, depth=10)
    assert result.runs == ('run_bm25', 'run_dense')
    path = tmp_path / 'to_judge.txt'
    result.to_trec(path)
    lines = path.read_text().splitlines()
    assert len(lines) == len(result) == result.to_dict()['to_judge']
    assert all(line.split()[1] == '0' and line.split()[3] == '-1' for line in lines)
    back = irm.read_trec_qrels(str(path))
    assert [(q.query_id, q.doc_id) for q in back] == [(q.query_id, q.doc_id) for q in result.qrels]
    per_query = [[line.split()[2] for line in lines if line.split()[0] == q] for q in result.query_ids]
    assert all(docs == sorted(docs) for docs in per_query)            # documents by id, ascending
    frame = result.to_dataframe()
    assert (frame['pool'] == frame['judged'] + frame['to_judge']).all()
    assert frame.columns.tolist() == ['pool', 'judged', 'to_judge', 'unique run_bm25', 'unique run_dense']


def test_depth_is_checked():
    with pytest.raises(OptionError, match="'depth'"):
        irm.pool(None, ['q1 Q0 d1 1 1.0 r\n'], depth=0)
    with pytest.raises(OptionError, match="'depth'"):
        irm.pool(None, ['q1 Q0 d1 1 1.0 r\n'], depth=2.5)


def test_integer_ids_pool_as_their_text():
    import pandas as pd
    frame = pd.DataFrame({'query_id': [1, 1, 1, 2], 'doc_id': [10, 11, 12, 10], 'score': [3.0, 2.0, 1.0, 1.0]})
    numeric = irm.pool('1 0 11 1\n', {'a': frame, 'b': '1 Q0 12 1 5.0 b\n2 Q0 99 1 1.0 b\n'}, depth=2)
    assert [(q.query_id, q.doc_id) for q in numeric.qrels] == [('1', '10'), ('1', '12'), ('2', '10'), ('2', '99')]
    assert numeric.judged.tolist() == [1, 0] and numeric.unique.tolist() == [[2, 1], [1, 1]]
