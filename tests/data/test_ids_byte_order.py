"""Ids given in the other byte order (numpy arrays of ``'>i8'``, ``'>u8'``, ``'>U'``... on a little-endian
machine: data written on a big-endian one, or read from a format that keeps its order) get the fingerprints,
codes and evaluations of the same ids in this machine's order.

Byte-swapped arrays are made here with ``a.byteswap().view(a.dtype.newbyteorder())``: the same values, the
other order.  Arrow arrays cannot be byte-swapped (Arrow holds its buffers in the machine's order: pyarrow
refuses a byte-swapped numpy array, and its IPC and Parquet readers swap what they read), so the Arrow
layout is reached here from byte-swapped numpy arrays, which are brought to this machine's order first.
The one view of words the id layer itself takes (8 bytes of ids at a time, to hash them) reads them as
little-endian numbers on every machine; on a big-endian one that view is not in the machine's order, which
:func:`test_words_in_the_other_byte_order_hash_as_native_ones` plays here, and the golden fingerprints of
``test_ids_layouts.py`` pin down its values.
"""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics.data import ids
from irmetrics.data.ids import base
from irmetrics.data.ids.numpy_ids import NumpyIds

MEASURES = ['AP', 'nDCG@10', 'P@5', 'RR', 'Bpref', 'Judged@10', 'NumRel']


def _other_order(values: np.ndarray) -> np.ndarray:
    """``values`` in the other byte order (same values)."""
    out = values.byteswap().view(values.dtype.newbyteorder())
    assert out.dtype.isnative != values.dtype.isnative and out.tolist() == values.tolist()
    return out


def _swapped(values: np.ndarray) -> np.ndarray:
    """``values`` (in this machine's order) in the other byte order."""
    assert values.dtype.isnative
    return _other_order(values)


def _as_text(values: np.ndarray) -> NumpyIds:
    return NumpyIds.from_values([str(v) for v in values.tolist()])


COLUMNS = {
    'int64 numbers': np.array([0, 7, 42, 10, 9, 12345678, 123456789, 10 ** 16, 10 ** 17 - 1, 7], dtype=np.int64),
    'uint64 numbers': np.array([3, 0, 18, 3, 10 ** 17 - 1], dtype=np.uint64),
    'int32 numbers': np.array([5, 2 ** 31 - 1, 0, 5], dtype=np.int32),
    'int64 with negatives': np.array([-1, 7, -10 ** 18, 7, 0], dtype=np.int64),          # no numbers: text
    'float64': np.array([301.0, 2.5, -0.0, 301.0], dtype=np.float64),
    'unicode': np.array(['d1', 'é€x', 'abcdefgh', 'abcdef🙂', 'clueweb09-en0000-00-00000', 'd1'], dtype='U30'),
}


@pytest.mark.parametrize('large', [False, True], ids=['small', 'large'])
@pytest.mark.parametrize('kind', list(COLUMNS))
def test_byte_swapped_ids_are_the_native_ids(kind, large, monkeypatch):
    """Fingerprints, layout, text, codes and lookups of a byte-swapped column are the native column's, and the
    fingerprints those of the ids' text; ``large``: columns of text in the Arrow layout (which refused
    byte-swapped numbers before they were brought to this machine's order)."""
    if large:
        monkeypatch.setattr(ids, 'ARROW_MIN_ROWS', 1)
    native = COLUMNS[kind]
    swapped, mine = ids.column(_swapped(native)), ids.column(native)
    assert swapped.layout == mine.layout == ('int' if kind.endswith('numbers') else 'arrow' if large else 'numpy')
    assert swapped.to_list() == mine.to_list()
    fingerprints = swapped.fingerprint()
    assert fingerprints.dtype == np.uint64 and fingerprints.dtype.isnative
    np.testing.assert_array_equal(fingerprints, mine.fingerprint())
    text = NumpyIds.from_values(mine.to_list())
    np.testing.assert_array_equal(fingerprints, text.fingerprint())
    vocabulary, codes = swapped.encode()
    assert vocabulary.to_list() == mine.encode()[0].to_list()
    np.testing.assert_array_equal(codes, mine.encode()[1])
    found = swapped.lookup(mine)
    assert np.all(found >= 0)
    np.testing.assert_array_equal(found, mine.lookup(mine))


def test_words_in_the_other_byte_order_hash_as_native_ones(monkeypatch):
    """The words hashed are a little-endian view, not in the machine's order on a big-endian one: here the
    words in the other byte order (on a little-endian machine, what the view is on a big-endian one) give
    the same fingerprints, in each way of hashing a block (one word an id, by position, by word)."""
    rng = np.random.default_rng(3)
    values = [''.join(map(chr, rng.integers(97, 123, int(n)))) for n in rng.integers(1, 9, 40)]    # one word
    values += ['é€' * int(n) for n in rng.integers(1, 6, 40)]                                        # by position
    values += ['z' * int(n) + '🙂' for n in rng.integers(30, 60, 40)]                                 # by word
    monkeypatch.setattr(base, '_BLOCK', 40)
    column = NumpyIds.from_values(values)
    native = column.fingerprint()
    real = base._masked_words

    def masked_words_of_swapped(words, position, remaining):
        assert words.dtype == np.dtype('<u8')
        return real(_other_order(words), position, remaining)
    monkeypatch.setattr(base, '_masked_words', masked_words_of_swapped)
    np.testing.assert_array_equal(column.fingerprint(), native)


def _rows(seed: int, shift: int) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, float]]]:
    """Qrels rows (query, document, grade) and run rows (query, document, score); documents are numbers from
    ``shift - 40`` (negative ones are no numbers of the integer layout)."""
    rng = np.random.default_rng(seed)
    judged, ranked = [], []
    for q in range(12):
        docs = rng.choice(np.arange(shift - 40, shift + 200), size=60, replace=False).tolist()
        judged += [(f'q{q}', d, int(rng.integers(0, 3))) for d in docs[:25]]
        ranked += [(f'q{q}', d, int(rng.integers(0, 8)) / 4) for d in rng.permutation(docs)[:40].tolist()]
    return judged, ranked


def _swapped_columns(rows: list[tuple], unicode_documents: bool, value_type: type) -> list[np.ndarray]:
    queries, docs, values = zip(*rows, strict=True)
    doc_column = np.array([str(d) for d in docs]) if unicode_documents else np.array(docs, dtype=np.int64)
    return [_swapped(np.array(queries)), _swapped(doc_column), _swapped(np.array(values, dtype=value_type))]


@pytest.mark.parametrize('large', [False, True], ids=['small', 'large'])
@pytest.mark.parametrize('documents', ['numbers', 'with negatives', 'unicode'])
def test_an_evaluation_of_byte_swapped_columns_is_that_of_the_trec_text(documents, large, monkeypatch):
    """Qrels and run built from byte-swapped columns (query ids, document ids, grades, scores), as arrays and
    in DataFrames, evaluate as their TREC text does."""
    import pandas as pd
    if large:
        monkeypatch.setattr(ids, 'ARROW_MIN_ROWS', 1)
    judged, ranked = _rows(1, shift=40 if documents == 'numbers' else 0)
    expected = irm.calc(MEASURES, irm.read_trec_qrels(''.join(f'{q} 0 {d} {g}\n' for q, d, g in judged)),
                        irm.read_trec_run(''.join(f'{q} Q0 {d} 0 {s!r} t\n' for q, d, s in ranked))).values
    assert np.all(np.isfinite(expected)) and len(set(expected.ravel().tolist())) > 10
    qrels = _swapped_columns(judged, documents == 'unicode', np.int64)
    run = _swapped_columns(ranked, documents == 'unicode', np.float64)
    got = irm.calc(MEASURES, irm.Qrels.from_columns(*qrels), irm.Run.from_columns(*run)).values
    np.testing.assert_array_equal(got, expected)
    frames = (pd.DataFrame(dict(zip(['query_id', 'doc_id', 'relevance'], qrels, strict=True))),
              pd.DataFrame(dict(zip(['query_id', 'doc_id', 'score'], run, strict=True))))
    np.testing.assert_array_equal(irm.calc(MEASURES, *frames).values, expected)
