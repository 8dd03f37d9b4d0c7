"""The one path rule and the one list of file suffixes (irmetrics/data/paths.py): every module that asks
"is this a path?" or "is this file compressed?" asks there."""
import ast
import gzip
from pathlib import Path

import pyarrow as pa
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.api.run_names import stem
from irmetrics.cli.sources import _could_be_dataset_id
from irmetrics.data import paths
from irmetrics.data.large import text_footprint
from irmetrics.data.paths import compression_of, has_input_suffix, is_parquet, is_path, is_text

RUN_TEXT = 'q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n'


@pytest.mark.parametrize('obj, path', [('run.txt', True), ('AP', True), (Path('run.txt'), True), ('a b', True),
                                       (RUN_TEXT, False), ('', False), ('  \t', False), (b'run.txt', False),
                                       (5, False), (None, False)])
def test_a_string_is_a_path_or_text_never_both(obj, path):
    assert is_path(obj) is path
    assert is_text(obj) is (isinstance(obj, str) and not path)


def test_a_file_whose_name_holds_a_newline_is_a_path(tmp_path):
    odd = tmp_path / 'odd\nname.txt'
    odd.write_text(RUN_TEXT)
    assert is_path(str(odd)) and not is_text(str(odd))
    assert irm.to_run(str(odd)).source == str(odd)


def test_suffixes_are_read_in_any_case(tmp_path):
    assert compression_of('run.TXT.GZ') == 'gzip' and compression_of('run.bz2') == 'bz2'
    assert compression_of('run.xz') == 'lzma' and compression_of('run.txt') is None
    assert is_parquet('run.Parquet') and is_parquet(tmp_path) and not is_parquet('run.txt')
    assert has_input_suffix('bm25.RES') and has_input_suffix('bm25.txt.gz') and not has_input_suffix('msmarco/dev')


def test_the_compression_suffixes_are_spelled_in_one_place():
    spelled = set()
    for path in (ROOT / 'irmetrics').rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in ('.gz', '.bz2', '.xz', '.zst'):
                spelled.add(path.relative_to(ROOT).as_posix())
    assert spelled == {'irmetrics/data/paths.py'}


def test_a_suffix_added_to_the_list_is_known_everywhere(tmp_path, monkeypatch):
    monkeypatch.setitem(paths.COMPRESSION, '.zz', 'gzip')
    packed = tmp_path / 'bm25.txt.zz'
    packed.write_bytes(gzip.compress(RUN_TEXT.encode()))
    assert len(irm.read_trec_run(packed)) == 2                            # the reader decompresses it
    assert stem(packed) == 'bm25'                                          # a run's name leaves it out
    assert not _could_be_dataset_id('runs/bm25.zz')                        # the command line takes it for a file
    assert text_footprint(str(packed)) > 3 * packed.stat().st_size         # its text is taken to be larger
    ev = irm.evaluator(['AP'], {'q1': {'d1': 1}})
    assert ev.calc(packed, memory_limit=1000).aggregated == ev.calc(RUN_TEXT).aggregated    # in chunks too


def _zstd(path: Path, data: bytes) -> Path:
    with pa.CompressedOutputStream(str(path), 'zstd') as f:
        f.write(data)
    return path


def test_a_zstd_file_is_read_as_gzip_files_are(tmp_path):
    """pyarrow's codec decompresses ``.zst`` (a NUL-free text, not "a binary file"), whole and in chunks."""
    packed = _zstd(tmp_path / 'bm25.txt.zst', RUN_TEXT.encode())
    assert compression_of('RUN.ZST') == 'irmetrics.data.zstd' and stem(packed) == 'bm25'
    assert irm.read_trec_run(packed).doc_ids.to_list() == ['d1', 'd2']
    ev = irm.evaluator(['AP'], {'q1': {'d1': 1}})
    assert ev.calc(packed, memory_limit=1000).aggregated == ev.calc(RUN_TEXT).aggregated    # in chunks too
    qrels = _zstd(tmp_path / 'qrels.zst', b'q1 0 d2 1\n')
    assert irm.calc_aggregate(['P@1', 'RR'], qrels, packed) == {irm.parse_measure('P@1'): 0.0,
                                                               irm.parse_measure('RR'): 0.5}


def test_a_corrupt_zstd_file_is_named_as_such(tmp_path):
    whole = (tmp_path / 'whole.zst')
    _zstd(whole, RUN_TEXT.encode() * 1000)
    broken = tmp_path / 'broken.zst'
    broken.write_bytes(whole.read_bytes()[:40] + b'not zstd' * 50)
    with pytest.raises(irm.InputError, match=r'broken.zst: cannot read: corrupt zstd data'):
        irm.read_trec_run(broken)
    with pytest.raises(irm.InputError, match='missing.zst: no such file'):
        irm.read_trec_run(tmp_path / 'missing.zst')
