"""Dask's TREC run reader: the rows of the in-memory reader, line for line, across block boundaries and
in compressed files; an error names the file and the line counted in the whole file."""
import gzip
import pickle

import numpy as np
import pytest
from trec_text_cases import make_case

import irmetrics as irm
from irmetrics import InputError

irmd = pytest.importorskip('irmetrics.dask')


def memory_rows(path):
    run = irm.read_trec_run(path, duplicates='first')
    q = run.query_ids.to_list()
    return [[q[i] for i in run.qidx.tolist()], run.doc_ids.to_list(), run.scores.view(np.uint64).tolist()]


def dask_rows(path, blocksize):
    frame = irmd.read_trec_run(path, blocksize=blocksize).compute(scheduler='sync')
    return [frame["query_id"].tolist(), frame["doc_id"].tolist(), frame["score"].to_numpy().view(np.uint64).tolist()]


@pytest.mark.parametrize('seed', [0, 3, 7, 11, 19, 23, 31, 42, 45])
def test_the_rows_of_the_in_memory_reader(tmp_path, seed):
    case = make_case(seed)
    path = tmp_path / 'run.txt'
    path.write_bytes(case.run)
    want = memory_rows(path)
    for blocksize in (61 if len(case.run) < 10_000 else 4001, 997 if len(case.run) < 10_000 else 1 << 14, None):
        assert dask_rows(path, blocksize) == want, blocksize
    gz = tmp_path / 'run.gz'
    gz.write_bytes(gzip.compress(case.run))
    assert dask_rows(gz, 100) == want


def test_a_byte_order_mark_only_at_the_start_of_the_file(tmp_path):
    path = tmp_path / 'run.txt'
    path.write_bytes(b'\xef\xbb\xbfq1 Q0 a 1 1 t\n\xef\xbb\xbfq2 Q0 b 1 1 t\n')
    want = memory_rows(path)
    assert want[0] == ['q1', '\ufeffq2']
    assert dask_rows(path, 18) == want


def test_several_files_and_patterns(tmp_path):
    for name, seed in (('a.run', 1), ('b.run', 2)):
        (tmp_path / name).write_bytes(make_case(seed).run)
    a, b = memory_rows(tmp_path / 'a.run'), memory_rows(tmp_path / 'b.run')
    both = [x + y for x, y in zip(a, b, strict=True)]
    assert dask_rows(str(tmp_path / '*.run'), 500) == both
    assert dask_rows([tmp_path / 'a.run', tmp_path / 'b.run'], 500) == both
    with pytest.raises(InputError, match='no file matches this pattern'):
        irmd.read_trec_run(str(tmp_path / '*.txt'))
    with pytest.raises(InputError, match='nope.run: no such file'):
        irmd.read_trec_run(tmp_path / 'nope.run')


@pytest.mark.parametrize('fault', ['fields', 'score', 'utf8'])
@pytest.mark.parametrize('where', [5, 150, 290])
def test_errors_name_the_line_in_the_file(tmp_path, fault, where):
    lines = [f'q{i // 20} Q0 d{i} {i} {1000 - i} tag\n'.encode() for i in range(300)]
    lines[where] = {'fields': b'q9 Q0 d9 1 tag\n', 'score': b'q9 Q0 d9 1 high tag\n',
                    'utf8': b'q9 Q0 d\xff 1 1 tag\n'}[fault]
    path = tmp_path / 'run.txt'
    path.write_bytes(b''.join(lines))
    with pytest.raises(InputError) as whole:
        irm.read_trec_run(path)
    assert whole.value.line == where + 1
    for blocksize in (200, 1000, None):
        with pytest.raises(InputError) as block:
            dask_rows(path, blocksize)
        assert (str(block.value), block.value.line) == (str(whole.value), whole.value.line)


def test_errors_from_a_worker_keep_file_and_line(dask_client, tmp_path):
    path = tmp_path / 'run.txt'
    path.write_bytes(b''.join(f'q Q0 d{i} 1 {i} t\n'.encode() for i in range(100)) + b'q Q0 x 1 t\n')
    with pytest.raises(InputError) as caught:
        irmd.read_trec_run(path, blocksize=300).compute()
    assert caught.value.source == str(path) and caught.value.line == 101
    error = pickle.loads(pickle.dumps(InputError('bad', 'f.txt', 3)))
    assert (str(error), error.source, error.line) == ('f.txt:3: bad', 'f.txt', 3)
