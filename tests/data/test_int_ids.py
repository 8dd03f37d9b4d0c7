"""The integer id layout: every operation gives what the same ids written as text give (trec_eval's
strcmp order, the text's fingerprints, first-seen codes), and integer columns evaluate as their text."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import irmetrics as irm
from irmetrics.data import ids
from irmetrics.data.ids import base, int_ids
from irmetrics.data.ids.int_ids import IntIds, decimal_text, text_key
from irmetrics.data.ids.numpy_ids import NumpyIds

# prefixes of each other, powers of ten, the largest held value, and random numbers of every length
EDGES = [0, 1, 9, 10, 11, 19, 2, 100, 101, 1000, 99, 999, 10 ** 16, 10 ** 17 - 1, 12345678901234567 % 10 ** 17]


def _values(seed: int, n: int = 3000) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 18, n)
    random = rng.integers(0, 10 ** 17, n) // 10 ** (17 - lengths)
    return np.concatenate([EDGES, random, rng.integers(0, 30, n)]).astype(np.int64)


def _text(values: np.ndarray) -> NumpyIds:
    return NumpyIds(np.array([str(v) for v in values.tolist()], dtype=object))


@pytest.mark.parametrize('seed', range(3))
def test_text_key_orders_as_strcmp_orders_the_text(seed):
    values = _values(seed)
    by_key = values[np.argsort(text_key(values), kind='stable')]
    by_text = values[np.argsort(np.array([str(v) for v in values.tolist()]), kind='stable')]
    assert by_key.tolist() == by_text.tolist()


def test_a_large_column_made_text_by_arrow_has_the_texts_fingerprints():
    """From 100,000 numbers the text is Arrow's cast (benchmarks/bench_structures.py: 5 times faster than numpy's
    digits): the fingerprints stay those of the text, every length of number and the edges included."""
    rng = np.random.default_rng(7)
    lengths = rng.integers(1, 18, 120_000)
    values = np.concatenate([EDGES, rng.integers(0, 10 ** 17, len(lengths)) // 10 ** (17 - lengths)])
    assert len(values) >= int_ids._ARROW_TEXT_ROWS and values.max() + 1 >= len(values)    # not the range's shortcut
    text = pa.array([str(v) for v in values.tolist()])
    assert np.array_equal(IntIds(values).fingerprint(), ids.column(text).fingerprint())
    assert np.array_equal(IntIds(values).fingerprint(), base.fingerprint_bytes(*decimal_text(values)))


@pytest.mark.parametrize('seed', range(3))
def test_every_operation_agrees_with_the_text_layout(seed):
    values = _values(seed)
    rng = np.random.default_rng(seed + 10)
    as_int, as_text = IntIds(values), _text(values)
    data, offsets = decimal_text(values)
    assert bytes(data).decode() == ''.join(map(str, values.tolist()))
    assert np.array_equal(as_int.fingerprint(), as_text.fingerprint())
    assert np.array_equal(IntIds(values[values < 30]).fingerprint(), _text(values[values < 30]).fingerprint())
    vocab_int, codes_int = as_int.encode()
    vocab_text, codes_text = as_text.encode()
    assert vocab_int.to_list() == vocab_text.to_list() and np.array_equal(codes_int, codes_text)
    small = rng.integers(0, 50, 500)                                  # encoded through a table
    assert IntIds(small).encode()[0].to_list() == _text(small).encode()[0].to_list()
    assert np.array_equal(IntIds(small).encode()[1], _text(small).encode()[1])
    grouped = np.sort(values)
    assert [v.to_list() for v in IntIds(grouped).encode()[:1]] == [_text(grouped).encode()[0].to_list()]
    assert np.array_equal(IntIds(grouped).encode()[1], _text(grouped).encode()[1])
    groups = rng.integers(0, 5, len(values))
    assert np.array_equal(values[as_int.order_within_groups(groups)], values[as_text.order_within_groups(groups)])
    other = rng.permutation(values)
    assert np.array_equal(as_int.less(IntIds(other)), as_text.less(_text(other)))
    assert np.array_equal(as_int.equal(IntIds(other)), as_text.equal(_text(other)))
    vocabulary = np.unique(rng.choice(values, 500))
    assert np.array_equal(as_int.lookup(IntIds(vocabulary)), as_text.lookup(_text(vocabulary)))
    assert np.array_equal(as_int.lookup(_text(vocabulary)), as_text.lookup(_text(vocabulary)))   # layouts mixed
    assert np.array_equal(as_int.run_starts(), as_text.run_starts())


def test_integer_columns_are_held_as_numbers_and_others_as_text():
    assert ids.column(np.array([3, 1, 2])).layout == 'int'
    assert ids.column(pa.chunked_array([[3, 1], [2]])).layout == 'int'
    assert ids.column(np.array([3, -1])).to_list() == ['3', '-1']                  # negative: text
    assert ids.column(np.array([3, -1])).layout != 'int'
    assert ids.column(np.array([10 ** 17, 1], dtype=np.uint64)).to_list() == [str(10 ** 17), '1']
    assert ids.column(np.array([3.0, 1.0])).to_list() == ['3', '1']                # floats: text, as before


@pytest.mark.parametrize('seed', range(4))
def test_integer_columns_evaluate_as_their_text(seed):
    """Ties broken by doc id descending as text ('9' above '10'), in model order, across layouts."""
    rng = np.random.default_rng(seed)
    n_q, n_rows = 40, 4000
    run = pd.DataFrame({'query_id': rng.integers(0, n_q, n_rows), 'doc_id': rng.integers(0, 1200, n_rows),
                        'score': rng.integers(0, 6, n_rows).astype(float)})
    run = run.drop_duplicates(['query_id', 'doc_id'])
    qrels = pd.DataFrame({'query_id': rng.integers(0, n_q, 1500), 'doc_id': rng.integers(0, 1200, 1500),
                          'relevance': rng.integers(0, 3, 1500)}).drop_duplicates(['query_id', 'doc_id'])
    measures = ['AP', 'nDCG@10', 'P@5', 'RR', 'Bpref', 'R@20']
    as_text = irm.calc(measures, qrels.astype({'query_id': str, 'doc_id': str}),
                       run.astype({'query_id': str, 'doc_id': str}))
    assert irm.to_run(run).doc_ids.layout == 'int'
    for q, r in [(qrels, run), (qrels.astype({'doc_id': str}), run), (qrels, run.astype({'doc_id': str}))]:
        got = irm.calc(measures, q, r)
        assert got.query_ids == as_text.query_ids
        np.testing.assert_array_equal(got.values, as_text.values)


@pytest.mark.parametrize('shape', ['equal-grouped', 'ragged', 'one-long-query', 'shuffled'])
def test_sorting_by_query_then_score_agrees_with_a_two_key_sort(shape):
    """Each way by_query_then_score takes (rows of one length side by side, a padded matrix, one sort of
    every score) orders as numpy's two-key lexsort does, up to the order of tied scores."""
    from irmetrics.data.ranking import by_query_then_score
    rng = np.random.default_rng(len(shape))
    sizes = {'equal-grouped': np.full(50, 20), 'ragged': rng.integers(1, 30, 50),
             'one-long-query': np.concatenate(([5000], np.ones(50, dtype=int))), 'shuffled': rng.integers(1, 30, 50)}
    qidx = np.repeat(np.arange(len(sizes[shape]), dtype=np.int32), sizes[shape])
    scores = rng.integers(0, 5, len(qidx)).astype(float)
    if shape == 'shuffled':
        order = rng.permutation(len(qidx))
        qidx, scores = qidx[order], scores[order]
    got = by_query_then_score(qidx, scores)
    expected = np.lexsort((-scores, qidx))
    assert sorted(got.tolist()) == list(range(len(qidx)))
    assert np.array_equal(qidx[got], qidx[expected]) and np.array_equal(scores[got], scores[expected])
