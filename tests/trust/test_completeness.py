"""qrels_stats against counting in Python, and judgment_coverage against the Judged@k measure and a
hand-counted case."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.errors import OptionError

QRELS = str(ROOT / 'examples' / 'qrels.txt')
RUNS = {'bm25': str(ROOT / 'examples' / 'run_bm25.txt'), 'dense': str(ROOT / 'examples' / 'run_dense.txt')}


@given(st.lists(st.tuples(st.sampled_from(['q1', 'q2', 'q3']), st.sampled_from([f'd{i}' for i in range(15)]),
                          st.integers(-1, 3)), min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1])),
       st.integers(1, 3))
def test_counts_are_pythons(judgments, rel):
    stats = irm.qrels_stats([irm.Qrel(*j) for j in judgments], rel=rel)
    by_query = {}
    for q, _, g in judgments:
        by_query.setdefault(q, Counter())[g] += 1
    assert list(stats.query_ids) == list(dict.fromkeys(q for q, _, _ in judgments))
    assert list(stats.grades) == sorted({g for _, _, g in judgments})
    for i, q in enumerate(stats.query_ids):
        assert stats.counts[i].tolist() == [by_query[q][g] for g in stats.grades]
        assert stats.judged[i] == sum(by_query[q].values())
        assert stats.relevant[i] == sum(n for g, n in by_query[q].items() if g >= rel)
        assert stats.share_relevant[i] == pytest.approx(stats.relevant[i] / stats.judged[i])
    total = stats.total
    assert total['judged'] == len(judgments) and total['queries'] == len(by_query)
    assert total['grades'] == dict(sorted(Counter(g for _, _, g in judgments).items()))
    assert total['relevant'] == sum(1 for _, _, g in judgments if g >= rel)
    assert total['queries_without_relevant'] == sum(1 for q in by_query if all(g < rel for g in by_query[q]))


def test_stats_of_the_examples_as_a_dataframe():
    stats = irm.qrels_stats(QRELS, rel=2)
    frame = stats.to_dataframe()
    assert frame.columns.tolist() == ['judged', 'grade 0', 'grade 1', 'grade 2', 'grade 3', 'relevant',
                                      'share_relevant']
    assert (frame['judged'] == frame[['grade 0', 'grade 1', 'grade 2', 'grade 3']].sum(axis=1)).all()
    assert (frame['relevant'] == frame['grade 2'] + frame['grade 3']).all()
    assert frame['relevant'].tolist() == irm.calc(['NumRel(rel=2)'], QRELS, RUNS['bm25']).values[:, 0].tolist()
    assert stats.to_dict()['rel'] == 2 and 'judgments' in repr(stats)


def test_coverage_is_the_judged_measure():
    coverage = irm.judgment_coverage(QRELS, RUNS, cutoffs=(5, 10, 50))
    for i, run in enumerate(RUNS.values()):
        results = irm.calc(['Judged@5', 'Judged@10', 'Judged@50'], QRELS, run)
        assert np.array_equal(coverage.values[i], results.values)
        assert coverage.mean[i].tolist() == [results.aggregated[m] for m in results.measures]
    assert coverage.to_dataframe().columns.tolist() == ['Judged@5', 'Judged@10', 'Judged@50']
    assert coverage.per_query().shape == (2 * 10, 3)


def test_coverage_counted_by_hand():
    """q1: top 2 of 3 retrieved are d1 (judged) and d5 (unjudged): Judged@2 = 1/2, Judged@10 = 2/3 (of the 3
    retrieved); q2 is not retrieved: 0."""
    qrels = {'q1': {'d1': 1, 'd2': 0}, 'q2': {'d3': 1}}
    run = {'q1': {'d1': 3.0, 'd5': 2.0, 'd2': 1.0}}
    coverage = irm.judgment_coverage(qrels, {'r': run}, cutoffs=[2, 10])
    assert coverage.values[0].tolist() == [[0.5, 2 / 3], [0.0, 0.0]]
    assert coverage.to_dict() == {'r': {'Judged@2': 0.25, 'Judged@10': 1 / 3}}


def test_cutoffs_are_checked():
    with pytest.raises(OptionError, match="'cutoffs'"):
        irm.judgment_coverage(QRELS, RUNS, cutoffs=0)
    with pytest.raises(OptionError, match='cutoffs'):
        irm.judgment_coverage(QRELS, RUNS, cutoffs=[])
