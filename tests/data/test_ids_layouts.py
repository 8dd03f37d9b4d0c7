"""The id layouts (numpy objects for small inputs, Arrow for large, numbers for integer ids) give the same
numbers, also when qrels and run use different layouts (a small qrels file with a large run is the MS MARCO
case), and the fingerprints written out below on every machine."""
import numpy as np
import pyarrow as pa
import pytest

import irmetrics as irm
from irmetrics.data.ids import base
from irmetrics.data.ids.arrow_ids import ArrowIds
from irmetrics.data.ids.base import Ids
from irmetrics.data.ids.int_ids import IntIds
from irmetrics.data.ids.numpy_ids import NumpyIds

QRELS = """q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d9 1\nq2 0 d10 -1\nq3 0 x 1\n"""
RUN = """q1 Q0 d3 1 1.0 t\nq1 Q0 d1 2 1.0 t\nq1 Q0 zz 3 0.5 t\nq1 Q0 d2 4 0.2 t
q2 Q0 d10 1 3 t\nq2 Q0 d9 2 3 t\nq2 Q0 d8 3 1 t\nq4 Q0 d1 1 1 t\n"""
MEASURES = ['AP', 'nDCG@3', 'P@2', 'RR', 'Bpref', 'infAP', 'NumRet(rel=1)', 'NumRel', 'Judged@3']


def _as_arrow(obj, cls):
    fields = {f: getattr(obj, f) for f in obj.__dataclass_fields__}
    for name in ('query_ids', 'doc_ids', 'iteration'):
        if name in fields:
            fields[name] = ArrowIds.adopt(fields[name])
    return cls(**fields)


@pytest.mark.parametrize('arrow_qrels', [False, True])
@pytest.mark.parametrize('arrow_run', [False, True])
def test_mixed_layouts_agree(arrow_qrels, arrow_run):
    qrels, run = irm.read_trec_qrels(QRELS), irm.read_trec_run(RUN)
    assert qrels.doc_ids.layout == run.doc_ids.layout == 'numpy'
    expected = irm.calc(MEASURES, qrels, run).values
    if arrow_qrels:
        qrels = _as_arrow(qrels, irm.Qrels)
    if arrow_run:
        run = _as_arrow(run, irm.Run)
    assert (run.doc_ids.layout == 'arrow') == arrow_run
    got = irm.calc(MEASURES, qrels, run).values
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_fingerprints_do_not_depend_on_layout_or_process():
    values = ['a', '', 'abcdefgh', 'abcdefghi', 'é€x', 'D401-017']      # '' is no id of an input: built directly
    as_numpy = NumpyIds(np.array(values, dtype=object)).fingerprint()
    assert np.array_equal(as_numpy, ArrowIds(pa.array(values)).fingerprint())
    assert np.array_equal(as_numpy, ArrowIds(pa.array(values).dictionary_encode()).fingerprint())
    assert len(set(as_numpy.tolist())) == len(values)


def test_a_fingerprint_does_not_depend_on_the_other_ids_of_its_column():
    # Hashing runs eight bytes at a time over a block of ids; a short id must not take extra rounds
    # because a longer one shares its block (the join prefilter would then miss judged documents).
    values = ['d0', 'unjudged-last', '', 'abcdefgh', 'abcdefghi', 'é€x' * 5]
    alone = [int(NumpyIds(np.array([v], dtype=object)).fingerprint()[0]) for v in values]
    assert NumpyIds(np.array(values, dtype=object)).fingerprint().tolist() == alone
    assert ArrowIds(pa.array(values)).fingerprint().tolist() == alone
    qrels = {'q': {'d0': 1}}
    assert irm.calc_aggregate(['P@1'], qrels, {'q': {'d0': 1.0, 'unjudged-last': 0.0}})[irm.P@1] == 1.0


def test_fingerprint_collisions_never_merge_different_documents(monkeypatch):
    """With every fingerprint equal, duplicates are still found exactly (the exact fallback)."""
    monkeypatch.setattr(NumpyIds, 'fingerprint', lambda ids: np.zeros(len(ids), dtype=np.uint64))
    run = irm.read_trec_run('q1 Q0 a 1 1 t\nq1 Q0 b 2 3 t\nq1 Q0 a 3 5 t\nq2 Q0 a 1 1 t\nq1 Q0 c 4 2 t\n',
                            duplicates='max')
    assert sorted((d.query_id, d.doc_id, d.score) for d in run) == \
        [('q1', 'a', 5.0), ('q1', 'b', 3.0), ('q1', 'c', 2.0), ('q2', 'a', 1.0)]
    assert run.resolved_duplicates == 1
    clean = irm.read_trec_run('q1 Q0 a 1 1 t\nq1 Q0 b 2 3 t\nq2 Q0 a 1 1 t\n')
    assert len(clean) == 3


@pytest.mark.parametrize('collide', [False, True], ids=['fingerprints', 'all-colliding'])
def test_first_repeated_key_is_the_first_group_of_all_duplicates(monkeypatch, collide):
    """``Duplicates.first_of`` (what the judged-twice message names) gives ``find().first()``: the rows of
    the repeated key whose first row comes first; with every fingerprint equal it falls back to exact ids."""
    from irmetrics.data.duplicates import Duplicates
    if collide:
        monkeypatch.setattr(NumpyIds, 'fingerprint', lambda ids: np.zeros(len(ids), dtype=np.uint64))
    rng = np.random.default_rng(5)
    for size in (2, 7, 60, 400):
        docs = NumpyIds.from_values([f'd{v}' for v in rng.integers(0, size, size)])
        codes = rng.integers(0, 3, size)
        found = Duplicates.find(docs, docs.fingerprint(), codes)
        first = Duplicates.first_of(docs, docs.fingerprint(), codes)
        if found is None:
            assert first is None
        else:
            assert first is not None and first.tolist() == found.first().tolist()
    unique = NumpyIds.from_values(['a', 'b', 'c'])
    assert Duplicates.first_of(unique, unique.fingerprint(), np.zeros(3, dtype=np.int64)) is None


def test_both_ways_of_hashing_a_block_give_the_same_fingerprints():
    """A block of short ids is hashed word position by position, a block holding a long id word by word
    (linear in the bytes: a 1 MB id costs what its bytes cost); each id's fingerprint is the same either
    way, in both layouts."""
    rng = np.random.default_rng(0)
    ids = [''.join(map(chr, rng.integers(97, 123, int(n)))) for n in rng.integers(1, 40, 300)] + ['é€' * 7, 'a']
    alone = [int(NumpyIds(np.array([v], dtype=object)).fingerprint()[0]) for v in ids]     # short: by position
    with_long = ids + ['x' * 100_000]                                                       # long: by word
    assert NumpyIds(np.array(with_long, dtype=object)).fingerprint().tolist()[:-1] == alone
    assert ArrowIds(pa.array(with_long)).fingerprint().tolist()[:-1] == alone
    assert len(set(alone)) == len(set(ids))


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks as small as a test can afford: a column of a thousand ids is many blocks."""
    from irmetrics.data import duplicates
    from irmetrics.data.ids import base
    monkeypatch.setattr(duplicates, '_BLOCK_ROWS', 64)
    monkeypatch.setattr(base, '_BLOCK', 16)


def test_fingerprints_hashed_in_blocks_are_those_of_each_id_alone(small_blocks):
    """Blocks of ids of one word each, of words up to the word-by-position limit and beyond it."""
    rng = np.random.default_rng(5)
    values = [''.join(rng.choice(list('abcdefgh'), size=int(n))) for n in rng.integers(0, 40, 1000)]
    values += [str(n) for n in rng.integers(1, 10 ** 8, 100)]          # whole blocks of 1 to 8 bytes
    alone = [int(NumpyIds(np.array([v], dtype=object)).fingerprint()[0]) for v in values]
    assert ArrowIds(pa.array(values)).fingerprint().tolist() == alone


@pytest.mark.parametrize('counted', [True, False], ids=['counted', 'sorted'])
@pytest.mark.parametrize('planted', [None, 0, 63, 64, 500, 999], ids=lambda p: f'duplicate-at-{p}')
def test_duplicates_of_a_grouped_run_found_in_blocks_are_those_found_whole(small_blocks, planted, counted,
                                                                            monkeypatch):
    """A run grouped by query is searched for repeated (document, query) pairs in blocks of whole queries,
    each block's keys counted in a table of slots (or sorted, for a block too long to count);
    a repeat anywhere (a block's first or last row, across a cut between blocks of one query) is found as
    the whole column's sort finds it, and an ungrouped run is searched whole."""
    from irmetrics.data import duplicates
    from irmetrics.data.duplicates import Duplicates
    monkeypatch.setattr(duplicates, '_COUNTED_ROWS', 1 << 18 if counted else 0)
    rng = np.random.default_rng(11)
    codes = np.sort(rng.integers(0, 40, 1000)).astype(np.int32)
    docs = np.array([f'd{i}' for i in range(1000)], dtype=object)
    if planted is not None:
        earlier = int(np.flatnonzero(codes == codes[planted])[0])
        if earlier == planted:
            earlier = int(np.flatnonzero(codes == codes[planted])[-1])
        docs[planted] = docs[earlier]
    for grouped in (codes, rng.permutation(codes)):
        ids = NumpyIds(docs)
        found = Duplicates.find(ids, ids.fingerprint(), grouped)
        monkeypatch.setattr(duplicates, '_BLOCK_ROWS', 1 << 30)
        whole = Duplicates.find(ids, ids.fingerprint(), grouped)
        monkeypatch.setattr(duplicates, '_BLOCK_ROWS', 64)
        if whole is None:
            assert found is None and (planted is None or grouped is not codes)
        else:
            assert found is not None
            assert found.rows.tolist() == whole.rows.tolist() and found.group.tolist() == whole.group.tolist()
    ids = NumpyIds(docs)
    assert duplicates._none_repeated_in_blocks(ids.fingerprint(), (codes,)) == (planted is None)
    if planted is not None:
        assert Duplicates.find(ids, ids.fingerprint(), codes) is not None


@pytest.mark.parametrize('most_slots', [1 << 24, 64], ids=['table', 'crowded'])
def test_an_index_finds_every_id_of_its_vocabulary_and_no_other(most_slots, monkeypatch):
    """Ids found through a table of slots: alone in their slot, or (a table too small for its keys, when
    most share a slot) in the sorted keys that share one; absent ids -1."""
    from irmetrics.data.ids import index
    monkeypatch.setattr(index, '_MOST_SLOTS', most_slots)
    vocabulary = ArrowIds(pa.array([f'doc-{i}' for i in range(5000)]))
    rng = np.random.default_rng(7)
    wanted = rng.integers(0, len(vocabulary) + 3000, 20000)        # some beyond the vocabulary: absent
    values = ArrowIds(pa.array([f'doc-{i}' for i in wanted.tolist()]))
    expected = np.where(wanted < len(vocabulary), wanted, -1)
    np.testing.assert_array_equal(index.IdIndex(vocabulary).lookup(values), expected)


def test_a_key_table_knows_whether_its_keys_are_distinct():
    from irmetrics.data.ids.index import KeyTable
    keys = np.array([5, 1 << 40, 7, (1 << 40) + 8, 3], dtype=np.uint64)
    assert KeyTable(keys).distinct
    assert KeyTable(keys).find(np.array([7, 9, 1 << 40, (1 << 40) + 8], dtype=np.uint64)).tolist() == [2, -1, 1, 3]
    assert not KeyTable(np.append(keys, np.uint64(1 << 40))).distinct
    assert KeyTable(np.zeros(0, dtype=np.uint64)).find(keys).tolist() == [-1] * 5


@pytest.mark.parametrize('grouped', [True, False])
def test_the_judged_documents_fingerprints_are_those_of_the_rows_kept(grouped):
    """The qrels keep their rows' fingerprints, in their own row order (re-grouped by query or not); the
    join's index of judged documents takes them for its vocabulary."""
    from irmetrics.providers.native.table import QrelsIndex
    lines = QRELS.splitlines(keepends=True)
    text = QRELS if grouped else ''.join(lines[i] for i in (0, 3, 1, 4, 5, 2))     # q1 q2 q1 q2 q3 q1
    qrels = irm.read_trec_qrels(text)
    assert qrels.query_ids.to_list() == ['q1', 'q2', 'q3'] and np.all(np.diff(qrels.qidx) >= 0)
    np.testing.assert_array_equal(qrels.doc_fingerprints, qrels.doc_ids.fingerprint())
    index = QrelsIndex(qrels)
    np.testing.assert_array_equal(index.doc_index.table.keys, index.doc_vocab.fingerprint())


def _fingerprints_as(monkeypatch, same_as: dict[str, str]):
    """Ids fingerprinted as others are (``same_as``: id -> the id whose fingerprint it takes)."""
    real = NumpyIds.fingerprint

    def fingerprint(ids):
        values = [same_as.get(v, v) for v in ids.to_list()]
        return real(NumpyIds(np.array(values, dtype=object)))
    monkeypatch.setattr(NumpyIds, 'fingerprint', fingerprint)


def test_a_run_document_sharing_a_judged_documents_fingerprint_is_not_judged(monkeypatch):
    """The join finds a ranked document's judgment by the fingerprint of its (document, query) pair and
    confirms it by the ids: an unjudged document whose fingerprint is a judged one's stays unjudged."""
    expected = irm.calc(MEASURES, irm.read_trec_qrels(QRELS), irm.read_trec_run(RUN)).values
    _fingerprints_as(monkeypatch, {'zz': 'd1', 'd8': 'd9'})
    got = irm.calc(MEASURES, irm.read_trec_qrels(QRELS), irm.read_trec_run(RUN)).values
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_judgments_sharing_a_pairs_fingerprint_are_joined_through_document_codes(monkeypatch):
    """Two judged documents of one query with one fingerprint: the join goes through the documents' codes."""
    from irmetrics.providers.native.table import QrelsIndex
    expected = irm.calc(MEASURES, irm.read_trec_qrels(QRELS), irm.read_trec_run(RUN)).values
    _fingerprints_as(monkeypatch, {'d2': 'd1', 'zz': 'd1'})
    qrels = irm.read_trec_qrels(QRELS)
    assert not QrelsIndex(qrels)._pairs.distinct
    got = irm.calc(MEASURES, qrels, irm.read_trec_run(RUN)).values
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


#: ids (ASCII, multibyte UTF-8, of 0 to 17 bytes, characters across the 8-byte word boundary, numbers) and
#: their fingerprints written out, as :func:`_model_fingerprint` gives them: the same on every machine (words
#: read in the machine's byte order gave others on a big-endian one, and different ones beside different
#: neighbours).  These values are also what the library gave before words were read as little-endian.
GOLDEN = [
    ('', 0x0000000000000000),                     # 0 bytes ('' is no id of an input: built directly)
    ('a', 0x73103DDAFF819ED7),                    # 1
    ('é', 0xDE99D58AE425FB0E),                    # 2
    ('€', 0x5AE821FCE5C07BD7),                    # 3
    ('d401', 0xFB48F166BFD5C205),                 # 4
    ('🙂', 0xF254E37C659E0C23),                   # 4
    ('q1-07', 0x0CEA86787AD1A3D9),                # 5
    ('D55598', 0x106980C6FBE6C556),               # 6
    ('abcdefg', 0xEF5C9152A4FD211A),              # 7
    ('abcdefgh', 0x344DCE6167448B59),             # 8
    ('éééé', 0x5795FF657E9CA405),                 # 8
    ('abcdef€', 0xAFF80BC677994A70),              # 9: the euro sign's bytes 6 to 8, across the word boundary
    ('abcdef🙂', 0xC181D0F6398FC162),             # 10: bytes 6 to 9 across it
    ('abcdefg€', 0xBE68010D3E8F678B),             # 10
    ('日本語', 0x158D7C6B7A55822A),                # 9
    ('clueweb09', 0xFC749931E9B2F63B),            # 9
    ('D1555982-x', 0x69171453FEFC4AE3),           # 10
    ('msmarco_p_0', 0xD1ACFF987D7B76E6),          # 11
    ('passage-0012', 0x826A5CE04B71C49F),         # 12
    ('clueweb12-013', 0xE62F23E665E31D38),        # 13
    ('MED-1400-abcde', 0x654A255B9B410E5D),       # 14
    ('wiki:Zürich_14', 0x49DC6DE045012649),       # 15
    ('abcdefghijklmnop', 0x596C288403620FC2),     # 16
    ('abcdefghijklmn€', 0x0F3103D76389B292),      # 17: bytes 14 to 16 across the second boundary
    ('abcdefghijklmnopq', 0xB0FB74DC29688FB8),    # 17
    ('0', 0xE6765E433B2A96E8),
    ('7', 0xE5A5875932195A11),
    ('42', 0x1B4E3D141A9A57E7),
    ('12345678', 0xB175D56325A638D4),
    ('123456789', 0x4C480B971CB15371),
    ('10000000000000000', 0xFA45F0BC27109488),
    ('99999999999999999', 0xE850378B55FF568A),
]
_GOLDEN_RATIO = 0x9E3779B97F4A7C15
_TO_64_BITS = (1 << 64) - 1


def _finalised(z: int) -> int:
    """splitmix64's finaliser, on a Python integer of 64 bits."""
    z ^= z >> 30
    z = z * 0xBF58476D1CE4E5B9 & _TO_64_BITS
    z ^= z >> 27
    z = z * 0x94D049BB133111EB & _TO_64_BITS
    return z ^ (z >> 31)


def _model_fingerprint(text: str) -> int:
    """The fingerprint in Python integers, apart from the library's numpy: word j of the UTF-8 bytes (8 bytes,
    the last one fewer) read little-endian, plus (j + 1) golden ratios, finalised; the words' sum (mod 2**64),
    xor the length in golden ratios, finalised again."""
    data = text.encode('utf-8')
    total = 0
    for j in range(0, len(data), 8):
        word = int.from_bytes(data[j:j + 8], 'little')
        total = total + _finalised(word + (j // 8 + 1) * _GOLDEN_RATIO & _TO_64_BITS) & _TO_64_BITS
    return _finalised(total ^ len(data) * _GOLDEN_RATIO & _TO_64_BITS)


def test_the_golden_fingerprints_are_the_models():
    assert [_model_fingerprint(text) for text, _ in GOLDEN] == [f for _, f in GOLDEN]
    assert len({f for _, f in GOLDEN}) == len(GOLDEN)


def _in_every_layout(values: list[str]) -> dict[str, Ids]:
    """``values`` as numpy objects, as every kind of Arrow string array, and as numbers where they all are."""
    arrow = pa.array(values)
    layouts: dict[str, Ids] = {
        'numpy': NumpyIds(np.array(values, dtype=object)),
        'arrow string': ArrowIds(arrow),
        'arrow large_string': ArrowIds(arrow.cast(pa.large_string())),
        'arrow dictionary': ArrowIds(arrow.dictionary_encode()),
        'arrow slice': ArrowIds(pa.array(['before the slice'] + values)[1:]),     # an offset into its buffers
    }
    if all(v.isascii() and v.isdecimal() and str(int(v)) == v for v in values):
        layouts['int'] = IntIds(np.array([int(v) for v in values], dtype=np.int64))
    return layouts


@pytest.fixture
def paths_taken(monkeypatch) -> list[str]:
    """The way each block was hashed ('one word', 'by position', 'by word'), block after block."""
    taken: list[str] = []

    def spy(real, path):
        def sum_spy(*args):
            taken.append(path)
            return real(*args)
        return sum_spy
    monkeypatch.setattr(base, '_sum_by_position', spy(base._sum_by_position, 'by position'))
    monkeypatch.setattr(base, '_sum_by_word', spy(base._sum_by_word, 'by word'))
    real_block = base._fingerprint_block

    def block_spy(*args):
        before = len(taken)
        real_block(*args)
        if len(taken) == before:
            taken.append('one word')
    monkeypatch.setattr(base, '_fingerprint_block', block_spy)
    return taken


def test_golden_fingerprints_of_each_id_alone(paths_taken):
    for text, expected in GOLDEN:
        for name, ids in _in_every_layout([text]).items():
            assert ids.fingerprint().tolist() == [expected], (text, name)
    assert set(paths_taken) == {'one word', 'by position'}


#: neighbours of each golden id, such that a block of (neighbour, id, neighbour) is hashed in each way (but the
#: empty id's, and those of more than 8 bytes among one-word neighbours, which are hashed by position); the
#: bytes after an id are its next neighbour's: high bits (ÿ is C3 BF, U+10FFFF is F4 8F BF BF) or letters
NEIGHBOURS = {'one word': ('ÿ', '\U0010FFFF'), 'by position': ('ÿ' * 10, '\U0010FFFF' * 5),
              'by word': ('z' * 40, '\U0010FFFF' * 12)}


@pytest.mark.parametrize('block', [3, 1 << 13], ids=['a block of 3 ids', 'one block'])
@pytest.mark.parametrize('path', list(NEIGHBOURS))
@pytest.mark.parametrize('order', [1, -1], ids=['in order', 'reversed'])
def test_golden_fingerprints_in_every_layout_beside_other_ids(path, block, order, paths_taken, monkeypatch):
    """Every golden id between two neighbours, in blocks of three ids (each block hashed the way its
    neighbours call for) or all in one block, in every string layout."""
    monkeypatch.setattr(base, '_BLOCK', block)
    before, after = NEIGHBOURS[path]
    golden = GOLDEN[::order]
    values = [v for text, _ in golden for v in (before, text, after)]
    for name, ids in _in_every_layout(values).items():
        assert ids.fingerprint()[1::3].tolist() == [f for _, f in golden], name
    if block == 3:
        assert path in paths_taken
    else:
        assert set(paths_taken) == {'by word' if path == 'by word' else 'by position'}


@pytest.mark.parametrize('block', [2, 1 << 13])
def test_golden_fingerprints_of_numbers_held_as_numbers(block, monkeypatch):
    """Integer ids (their decimal text's fingerprints) beside other numbers, and repeated in a small range
    (fingerprinted once each, as the range, and gathered)."""
    monkeypatch.setattr(base, '_BLOCK', block)
    numbers = [(int(text), f) for text, f in GOLDEN if text.isascii() and text.isdecimal()]
    assert len(numbers) == 7
    values = np.array([v for n, _ in numbers for v in (n, 10 ** 17 - 1 - n)], dtype=np.int64)
    assert IntIds(values).fingerprint()[::2].tolist() == [f for _, f in numbers]
    small = [(n, f) for n, f in numbers if n < 100]
    repeated = np.tile([n for n, _ in small], 50)
    assert IntIds(repeated).fingerprint().tolist() == [f for _, f in small] * 50


@pytest.mark.parametrize('shape', ['grouped', 'scattered', 'grouped after a scattered head'])
def test_arrow_codes_are_first_seen_codes_whether_the_column_is_grouped_or_not(shape):
    """A column whose head comes in long runs is encoded through its runs, any other by dictionary_encode
    (bench_structures.py: counting the runs of document ids cost a third of their encoding): the same codes."""
    rng = np.random.default_rng(3)
    grouped = np.repeat(rng.permutation(3000), 50).astype(str)
    scattered = rng.integers(0, 50_000, 150_000).astype(str)
    values = {'grouped': grouped, 'scattered': scattered,
              'grouped after a scattered head': np.concatenate([scattered[:70_000], grouped])}[shape]
    vocabulary, codes = ArrowIds(pa.array(values)).encode()
    want, want_codes = base.first_seen_codes(values.tolist(), np.int32)
    assert vocabulary.to_list() == want and np.array_equal(codes, want_codes)
