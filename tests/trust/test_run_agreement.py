"""Run against run, query by query (irmetrics/trust/run_agreement.py): KTU against repro_eval's, RBO against
irmetrics.rbo of the rankings in trec_eval's order, and hand-built runs."""
import math

import numpy as np
import pytest
from reference_tools import reference
from repo_paths import EXAMPLES

import irmetrics as irm

document_order = reference('repro_eval.measure.document_order')
repro_util = reference('repro_eval.util')

BM25, DENSE = str(EXAMPLES / 'run_bm25.txt'), str(EXAMPLES / 'run_dense.txt')


@pytest.mark.parametrize('depth', [None, 3, 5, 10, 20, 50])
def test_ktu_equals_repro_eval(depth):
    original, reproduced = repro_util.load_run(BM25), repro_util.load_run(DENSE)
    kwargs = {} if depth is None else {'trim_thresh': depth}
    expected = document_order.KTU(original, reproduced, per_topic=True, **kwargs)
    got = irm.run_agreement(BM25, DENSE, depth=depth)
    assert set(got.query_ids) == set(expected)
    for query, value in zip(got.query_ids, got.ktu.tolist(), strict=True):
        assert value == pytest.approx(expected[query], abs=1e-13)          # repro_eval rounds to 14 places
    assert got.mean_ktu == pytest.approx(float(np.mean(list(expected.values()))), abs=1e-13)


def ranked(path: str) -> dict[str, list[str]]:
    """Each query's documents in trec_eval's order (score descending, ties by document id descending)."""
    rows: dict[str, list[tuple[float, str]]] = {}
    with open(path) as f:
        for line in f:
            query, _, doc, _, score, _ = line.split()
            rows.setdefault(query, []).append((float(score), doc))
    return {q: [doc for _, doc in sorted(r, reverse=True)] for q, r in rows.items()}


@pytest.mark.parametrize('depth', [None, 10])
def test_rbo_is_the_rbo_of_each_querys_rankings(depth):
    a, b = ranked(BM25), ranked(DENSE)
    got = irm.run_agreement(BM25, DENSE, depth=depth, p=0.8)
    for i, query in enumerate(got.query_ids):
        expected = irm.rbo(a[query][:depth], b[query][:depth], p=0.8)
        assert got.rbo[i] == pytest.approx(expected.extrapolated, abs=1e-15)
        assert got.rbo_min[i] == pytest.approx(expected.minimum, abs=1e-15)
        assert got.rbo_residual[i] == pytest.approx(expected.residual, abs=1e-15)
    assert got.mean_rbo == pytest.approx(float(got.rbo.mean()))


def test_rbo_is_webber_s_extrapolated_rbo_not_repro_eval_s_truncated_sum():
    # two rankings of 3 documents sharing the first: A_1 = 1, A_2 = 1/2, A_3 = 1/3, p = 0.9
    a = {'q': {'d1': 3.0, 'd2': 2.0, 'd3': 1.0}}
    b = {'q': {'d1': 3.0, 'x2': 2.0, 'x3': 1.0}}
    p, agreement = 0.9, [1, 1 / 2, 1 / 3]
    extrapolated = (1 - p) / p * sum(x * p ** d for d, x in enumerate(agreement, 1)) + agreement[-1] * p ** 3
    truncated = sum(x * p ** (d - 1) for d, x in enumerate(agreement, 1)) / sum(p ** (d - 1) for d in range(1, 4))
    got = irm.run_agreement(a, b, p=p)
    assert got.rbo[0] == pytest.approx(extrapolated, abs=1e-15) and extrapolated == pytest.approx(0.415, abs=1e-15)
    assert truncated == pytest.approx(1.72 / 2.71, abs=1e-15)
    assert document_order.RBO(b, a, p=p, depth=3, pbar=False, per_topic=True)['q'] == pytest.approx(truncated,
                                                                                                     abs=1e-15)
    assert got.rbo[0] < truncated - 0.2


def run_frame(rows):
    import pandas as pd
    return pd.DataFrame(rows, columns=['query_id', 'doc_id', 'score'])


def test_a_run_against_itself_and_reversed():
    docs = [f'd{i}' for i in range(8)]
    forward = run_frame([('q1', d, 8.0 - i) for i, d in enumerate(docs)])
    backward = run_frame([('q1', d, float(i)) for i, d in enumerate(docs)])
    same = irm.run_agreement(forward, forward)
    assert same.ktu.tolist() == [1.0] and same.rbo[0] == pytest.approx(1.0)
    # the same documents in reverse: KTU pairs rank by rank the codes of opposite orders
    assert irm.run_agreement(forward, backward).ktu.tolist() == [-1.0]


def test_tied_scores_are_ordered_as_trec_eval_orders_them():
    # every score equal: trec_eval ranks d3 d2 d1 (document id descending)
    tied = run_frame([('q1', 'd1', 1.0), ('q1', 'd2', 1.0), ('q1', 'd3', 1.0)])
    explicit = run_frame([('q1', 'd3', 3.0), ('q1', 'd2', 2.0), ('q1', 'd1', 1.0)])
    result = irm.run_agreement(tied, explicit)
    assert result.ktu.tolist() == [1.0] and result.rbo[0] == pytest.approx(1.0)


def test_queries_of_one_run_only_are_left_out_with_a_warning():
    a = run_frame([('q1', 'd1', 3.0), ('q1', 'd2', 2.0), ('q1', 'd3', 1.0), ('q2', 'd1', 1.0)])
    b = run_frame([('q1', 'd2', 3.0), ('q1', 'd1', 2.0), ('q1', 'd3', 1.0), ('q3', 'd1', 1.0)])
    with pytest.warns(irm.IrmetricsWarning, match='share 1 queries; 1 only in .* and 1 only in'):
        result = irm.run_agreement(a, b)
    assert result.query_ids == ('q1',)
    # hand-computed KTU: union d1 d2 d3 coded 0 1 2; a = 0 1 2, b = 1 0 2: pairs (1,2) discordant, others
    # concordant: (2 - 1) / 3
    assert result.ktu[0] == pytest.approx(1 / 3)


def test_short_rankings_give_nan_ktu_with_one_warning():
    a = run_frame([('q1', 'd1', 2.0), ('q1', 'd2', 1.0), ('q2', 'd1', 3.0), ('q2', 'd2', 2.0), ('q2', 'd3', 1.0)])
    with pytest.warns(irm.IrmetricsWarning, match='KTU is NaN for 1 of 2 queries'):
        result = irm.run_agreement(a, a)
    assert math.isnan(result.ktu[0]) and result.ktu[1] == 1.0
    assert result.mean_ktu == 1.0                                      # over the queries where it is defined


def test_no_common_query_and_bad_arguments_are_errors():
    a = run_frame([('q1', 'd1', 1.0)])
    b = run_frame([('q2', 'd1', 1.0)])
    with pytest.raises(irm.InputError, match='no query in common'):
        irm.run_agreement(a, b)
    with pytest.raises(irm.InputError, match='depth=0'):
        irm.run_agreement(a, a, depth=0)
    with pytest.raises(irm.InputError, match='p=1.5'):
        irm.run_agreement(a, a, p=1.5)


def test_result_tables():
    result = irm.run_agreement(BM25, DENSE, depth=10)
    frame = result.to_dataframe()
    assert list(frame.columns) == ['query_id', 'ktu', 'rbo', 'rbo_min', 'rbo_residual']
    assert frame['ktu'].tolist() == result.ktu.tolist()
    as_dict = result.to_dict()
    assert as_dict['depth'] == 10 and set(as_dict['queries']) == set(result.query_ids)
    assert repr(result).startswith('RunAgreement(10 queries, depth=10')
