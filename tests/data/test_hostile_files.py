"""Files built to hurt a reader: compressed bombs, endless lines, floods of blank lines, runs
spilled to disk under tiny budgets, signals during the spill.  Every bomb is generated here (nothing is
stored), and each must end in one error line with memory bounded by what the reader checks, not by what
the file decompresses to.
"""
import bz2
import gzip
import io
import lzma
import os
import random
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics import InputError
from irmetrics.data import chunks
from irmetrics.data.budget import TextOverBudget, reading_within
from irmetrics.data.trec.blocks import file_blocks
from irmetrics.data.trec.format import FileData, is_single_spaced, row_lines
from irmetrics.data.trec.stream import MAX_BLANK_RUN, MAX_LINE

pytestmark = pytest.mark.slow          # bombs, floods and spills of many megabytes

QRELS = ROOT / 'examples' / 'qrels.txt'


def gzip_of(path: Path, piece: bytes, total: int) -> Path:
    """``path``: ``piece`` repeated to ``total`` bytes, gzipped as it is written (never held whole)."""
    with gzip.open(path, 'wb', compresslevel=1) as f:
        for _ in range(total // len(piece)):
            f.write(piece)
    return path


#: Runs a command and prints its exit status and peak resident KB: started from this small process, so
#: that the peak is the command's own (a child forked from the test process would count the test
#: process's pages, which Linux keeps in the peak across exec).
_MEASURE = ('import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL); '
            '_, s, u = os.wait4(p.pid, 0); print(os.waitstatus_to_exitcode(s), u.ru_maxrss)')


def cli(*args: str) -> tuple[int, str, float]:
    """(exit status, stderr, peak resident MB) of ``irmetrics ARGS`` in a child process."""
    done = subprocess.run([sys.executable, '-c', _MEASURE, sys.executable, '-m', 'irmetrics', *args],
                          capture_output=True, text=True, cwd=ROOT)
    status, peak = done.stdout.split()
    return int(status), done.stderr, int(peak) / 1024


@pytest.mark.parametrize('piece, message', [
    (b'a' * (1 << 20), 'line longer than 67,108,864 bytes'),
    (b'\n' * (1 << 20), f'more than {MAX_BLANK_RUN:,} bytes of blank lines in a row, from line 1'),
    (b'\0' * (1 << 20), 'a NUL byte'),
])
@pytest.mark.parametrize('limit', [[], ['--memory-limit', '200M']])
def test_a_compressed_bomb_is_refused_as_soon_as_it_shows(tmp_path, piece, message, limit):
    """256 MB of one line, of newlines or of zeros, gzipped to a few hundred KB: one error line, and the
    reader holds at most one line's worth (64 MiB) beyond the interpreter (which takes about 120 MB),
    whatever the budget (before: 2 GB of them reached 4.2 GB)."""
    bomb = gzip_of(tmp_path / 'run.gz', piece, 256 << 20)
    status, err, peak = cli(str(QRELS), str(bomb), '-m', 'AP', *limit)
    assert status == 2 and err.count('\n') == 1 and message in err, err
    assert 'corrupt' not in err and 'cannot read' not in err
    assert peak < 350, peak


def test_the_trec_eval_command_refuses_a_bomb_as_well(tmp_path):
    bomb = gzip_of(tmp_path / 'qrels.gz', b'a' * (1 << 20), 128 << 20)
    status, err, peak = cli('trec_eval', str(bomb), str(ROOT / 'examples' / 'run_bm25.txt'))
    assert status == 2 and 'line longer than' in err and peak < 350, (err, peak)


def test_text_that_does_not_fit_the_budget_once_decompressed_is_read_in_chunks(tmp_path):
    """A compressed run much smaller than its text (whose footprint the file's size underestimates):
    decompressing it stops at the budget (TextOverBudget) and the evaluation reads it in chunks, with
    the numbers of the whole file."""
    lines = [f'q{q} Q0 d{d} {d + 1} {100 - d} r\n' for q in range(300) for d in range(60)]
    plain, packed = tmp_path / 'run.txt', tmp_path / 'run.txt.gz'
    plain.write_text(''.join(lines))
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    qrels = {f'q{q}': {f'd{(q * 7) % 60}': 1, f'd{(q * 3) % 60}': 2} for q in range(300)}
    budget = 1 << 20                      # the text is 0.6 MB: 1.8 MB to evaluate; the file, 27 KB, says 0.6 MB
    with reading_within(budget), pytest.raises(TextOverBudget):
        irm.read_trec_run(packed)
    ev = irm.evaluator(['AP', 'nDCG@10'], qrels)
    assert ev.calc(packed, memory_limit=budget).aggregated == ev.calc(plain).aggregated


def test_a_query_larger_than_a_chunk_is_one_error(tmp_path):
    run = tmp_path / 'run.txt'
    run.write_text(''.join(f'q1 Q0 d{d} {d + 1} {-d} r\n' for d in range(3_000_000)))
    with pytest.raises(InputError, match="query 'q1' alone takes more than a chunk of the memory budget"):
        irm.calc_aggregate(['AP'], {'q1': {'d1': 1}}, run, memory_limit='3M')


def test_out_of_memory_while_decompressing_is_not_corruption(tmp_path, monkeypatch):
    class Exhausted(io.BytesIO):
        def read(self, *args):
            raise MemoryError
    path = tmp_path / 'run.gz'
    path.write_bytes(gzip.compress(b'q1 Q0 d1 1 1 r\n'))
    monkeypatch.setattr(gzip, 'open', lambda *args, **kw: Exhausted())
    with pytest.raises(InputError, match='out of memory while decompressing') as info:
        irm.read_trec_run(path)
    assert 'corrupt' not in str(info.value)


def test_a_long_line_read_in_tiny_blocks_is_joined_once(tmp_path):
    """file_blocks keeps the pieces of an unfinished line and joins them when it ends: a 4 MB line read
    64 bytes at a time (65,536 pieces) is one join, where joining piece by piece copied 128 GB."""
    path = tmp_path / 'run.txt'
    long_id = 'x' * (4 << 20)
    path.write_text(f'q1 Q0 a 1 2 r\nq1 Q0 {long_id} 2 1 r\nq2 Q0 b 1 1 r\n')
    blocks = list(file_blocks(str(path), 64))
    assert b''.join(b for b, _ in blocks) == path.read_bytes()
    assert [line for _, line in blocks][:2] == [1, 2] and all(b.endswith(b'\n') for b, _ in blocks)


def test_a_line_longer_than_the_reader_takes_is_refused_while_read_in_chunks(tmp_path):
    path = tmp_path / 'run.txt'
    with open(path, 'wb') as f:
        f.write(b'q1 Q0 a 1 2 r\nq1 Q0 ')
        for _ in range(MAX_LINE // (1 << 20) + 1):
            f.write(b'y' * (1 << 20))
    with pytest.raises(InputError, match=r'run.txt:2: line longer than'):
        list(file_blocks(str(path), 1 << 20))


def test_blank_lines_of_a_run_read_in_chunks_are_one_warning_with_the_right_line(tmp_path):
    lines = [f'q{q} Q0 d{d} {d + 1} {10 - d} r\n' for q in range(40) for d in range(10)]
    text = lines[:5] + ['\n'] + lines[5:300] + ['\n', '\n'] + lines[300:]
    run = tmp_path / 'run.txt'
    run.write_text(''.join(text))
    qrels = {f'q{q}': {'d1': 1} for q in range(40)}
    with pytest.warns(irm.IrmetricsWarning) as caught:
        chunked = irm.calc_aggregate(['AP'], qrels, run, memory_limit='20k')
    blank = [str(w.message) for w in caught if 'blank' in str(w.message)]
    assert blank == [f'{run}: 3 blank lines skipped (the first is line 6)']
    assert chunked == irm.calc_aggregate(['AP'], qrels, run)


@pytest.mark.parametrize('text', [b'\nq 0 d 1\n', b'q 0 d 1\n\nq 0 e 1\n', b'\n\n\nq 0 d 1\n\n'])
def test_blank_lines_are_found_at_the_same_lines_in_bytes_and_in_a_file(tmp_path, text):
    (tmp_path / 'f').write_bytes(text)
    assert is_single_spaced(text) == is_single_spaced(FileData(str(tmp_path / 'f')))


def test_a_spill_keeps_few_files_open(tmp_path, monkeypatch):
    """A run not grouped by query, spilled into hundreds of buckets under a tiny budget: at most
    MAX_OPEN_SPILLS files open at once (before: one a bucket, and "Too many open files" at 1,024)."""
    rows = [f'q{q} Q0 d{d} {d + 1} {50 - d} r\n' for q in range(400) for d in range(25)]
    random.Random(3).shuffle(rows)
    run = tmp_path / 'run.txt'
    run.write_text(''.join(rows))
    qrels = {f'q{q}': {f'd{q % 25}': 1} for q in range(400)}
    opened, most = [0], [0]

    class Counted(chunks.pq.ParquetWriter):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened[0] += 1
            most[0] = max(most[0], opened[0])

        def close(self):
            opened[0] -= 1
            super().close()
    monkeypatch.setattr(chunks.pq, 'ParquetWriter', Counted)
    monkeypatch.setattr(chunks, 'MAX_OPEN_SPILLS', 3)
    spilled = irm.calc_aggregate(['AP', 'P@5'], qrels, run, memory_limit='40k')
    assert spilled == irm.calc_aggregate(['AP', 'P@5'], qrels, run)
    assert most[0] == 3 and opened[0] == 0


def _default_signals() -> None:
    """The child's SIGTERM and SIGHUP at their default (under nohup SIGHUP is ignored, and irmetrics leaves
    an ignored signal ignored)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.parametrize('name', ['SIGTERM', 'SIGHUP'])
def test_a_signal_during_the_spill_removes_the_spill_files(tmp_path, name):
    rows = [f'q{q} Q0 d{d} {d + 1} {500 - d} r\n' for q in range(200) for d in range(400)]
    random.Random(5).shuffle(rows)
    run = tmp_path / 'run.txt'
    run.write_text(''.join(rows))
    spill = tmp_path / 'tmp'
    spill.mkdir()
    proc = subprocess.Popen([sys.executable, '-m', 'irmetrics', str(QRELS), str(run), '-m', 'AP', '--memory-limit',
                             '1M'], cwd=ROOT, env=dict(os.environ, TMPDIR=str(spill)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_default_signals)
    deadline = time.monotonic() + 60
    while not any(spill.glob('irmetrics-*/*.parquet')) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, 'the spill ended before the signal'
    proc.send_signal(getattr(signal, name))
    assert proc.wait(60) == 128 + getattr(signal, name)
    assert list(spill.iterdir()) == []


#: bytes of text in each piece of an evasive bomb (the reader's own piece of decompressed text)
_PIECE = 16 << 20
_COMPRESSORS = {'gz': gzip.compress, 'bz2': bz2.compress, 'xz': lzma.compress}


def evasive_bomb(path: Path, pieces: int, filler: bytes = b'\n') -> tuple[Path, int]:
    """``path`` (compressed by its suffix): ``pieces`` pieces of 16 MiB, each one valid run line followed by
    ``filler`` to the piece's end, so that no piece is a flood of blank lines in a row; and the number of
    blank lines it holds before its last field.  Each line is compressed alone and the filler once, and the
    streams written one after the other (gzip, bz2 and xz read such a file as one): megabytes to write,
    whatever the text's size."""
    compress = _COMPRESSORS[path.suffix[1:]]
    lines = [f'q1 Q0 d{i} {i + 1} {pieces - i} evasive\n'.encode() for i in range(pieces)]
    fill = compress(filler * ((_PIECE - len(lines[0])) // len(filler)))
    assert all(len(line) == len(lines[0]) for line in lines)
    with open(path, 'wb') as f:
        for line in lines:
            f.write(compress(line))
            f.write(fill)
    blank = (_PIECE - len(lines[0])) // len(filler) if filler == b'\n' else 0
    return path, blank * (pieces - 1)


@pytest.fixture(scope='module')
def ordinary_peak(tmp_path_factory) -> float:
    """Peak MB of evaluating a small, ordinary compressed run under a budget of 128 MB (the interpreter,
    numpy and Arrow, which a bomb's reading imports too)."""
    run = tmp_path_factory.mktemp('ordinary') / 'plain.gz'
    run.write_bytes(gzip.compress(''.join(f'{401 + q} Q0 D{d} {d + 1} {-d} r\n'
                                          for q in range(10) for d in range(40_000)).encode()))
    status, err, peak = cli(str(QRELS), str(run), '-m', 'AP', '--memory-limit', '128M')
    assert status == 0, err
    return peak


@pytest.mark.parametrize('suffix, filler', [('gz', b'\n'), ('bz2', b'\n'), ('xz', b'\n'), ('gz', b'#\n')])
def test_an_evasive_bomb_is_read_within_the_budget(tmp_path, ordinary_peak, suffix, filler):
    """32 MiB of text in pieces of one run line and 16 MiB of newlines (or of comment lines) each: the
    blank-run check never fires, and the run is read in chunks whose memory follows the budget, whatever
    the text's lines (before: 330 MB and more under a budget of 128 MB, as the line numbers of every blank
    line were held; at 2 GiB, 15 GB with no option given).  Its lines' values and the blank lines' count
    are those of the whole text."""
    bomb, blank = evasive_bomb(tmp_path / f'run.{suffix}', 2, filler)
    status, err, peak = cli(str(QRELS), str(bomb), '-m', 'P@10', '--memory-limit', '128M')
    assert status == 0, err
    assert peak < ordinary_peak + 128, (peak, ordinary_peak)
    assert (f'{blank} blank lines skipped (the first is line 2)' in err) == (blank > 0), err


def _data_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    return apply


def test_the_default_budget_holds_an_evasive_bomb(tmp_path):
    """With no --memory-limit, the budget is half the memory the process may use: under a data limit of
    1.5 GB, 768 MB.  The evasive bomb stays within it (before: out of memory)."""
    bomb, blank = evasive_bomb(tmp_path / 'run.gz', 2)
    done = subprocess.run([sys.executable, '-c', _MEASURE, sys.executable, '-m', 'irmetrics', str(QRELS), str(bomb),
                           '-m', 'AP'], capture_output=True, text=True, cwd=ROOT, preexec_fn=_data_limit(3 << 29))
    status, peak = done.stdout.split()
    assert int(status) == 0 and f'{blank} blank lines skipped' in done.stderr, done.stderr
    assert int(peak) / 1024 < 768, peak


@pytest.mark.parametrize('size', [100, 4096, 1 << 20])
def test_blank_lines_are_counted_alike_in_blocks_of_any_size(tmp_path, size):
    """Blank lines at the end of a block are no trailing blank lines of the file: the count of a file read in
    blocks is that of the whole file (before: each block's trailing ones were lost, so that the count
    depended on the memory budget)."""
    pieces = [f'q1 Q0 d{i} 1 {i} r\n' + '\n' * (1000 * i + 7) for i in range(1, 9)]
    run = tmp_path / 'run.txt'
    run.write_text(''.join(pieces))
    expected = sum(1000 * i + 7 for i in range(1, 8))
    with pytest.warns(irm.IrmetricsWarning, match=f'{expected} blank lines skipped') as caught:
        list(chunks.run_tables(str(run), False, 10, size))
    assert len(caught) == 1
    with pytest.warns(irm.IrmetricsWarning, match=f'{expected} blank lines skipped'):
        irm.read_trec_run(run)


def test_line_numbers_of_rows_among_millions_of_blank_lines(tmp_path):
    """Each row's line is counted block by block (a flood of blank lines costs no memory a line), in bytes
    and in a file alike, a row on either side of a block's edge included."""
    text = b'a b c d 1 f\n' + b'\n' * ((1 << 22) - 13) + b'g h i j 2 l\n\n\nm n o p 3 r'
    (tmp_path / 'f').write_bytes(text)
    expected = [1, (1 << 22) - 11, (1 << 22) - 8]
    assert row_lines(text).tolist() == expected
    assert row_lines(FileData(str(tmp_path / 'f'))).tolist() == expected


def test_the_line_of_text_that_is_not_utf8_is_found_block_by_block():
    """Beyond the first blocks of lines, among a flood of blank lines (the text Arrow splits)."""
    text = b'q1 Q0 a 1 2 r\n' * 50_000 + b'\n' * (3 << 20) + b'q1 Q0 b\xff 1 1 r\n'
    with pytest.raises(InputError, match='ids must be valid UTF-8') as info:
        irm.read_trec_run(text)
    assert info.value.line == 50_000 + (3 << 20) + 1


def test_a_budget_too_small_for_a_large_ungrouped_run_is_refused_at_once(tmp_path):
    """200,000 lines of 10 queries, shuffled, under --memory-limit 1k: one error line within a second, naming
    the budget that would do (before: nothing for minutes, thousands of temporary files); under that budget
    the run is spilled and evaluated in seconds, with the numbers of the whole run, and nothing is left in
    TMPDIR."""
    rng = random.Random(11)
    rows = [f'q{q} Q0 d{q}-{d} {d + 1} {-d} r\n' for q in range(10) for d in range(20_000)]
    rng.shuffle(rows)
    run = tmp_path / 'run.txt'
    run.write_text(''.join(rows))
    qrels = tmp_path / 'qrels.txt'
    qrels.write_text(''.join(f'q{q} 0 d{q}-{d} {rng.randint(0, 2)}\n' for q in range(10)
                             for d in rng.sample(range(20_000), 200)))
    spill = tmp_path / 'tmp'
    spill.mkdir()
    env = dict(os.environ, TMPDIR=str(spill))

    def timed(*limit: str) -> tuple[subprocess.CompletedProcess, float]:
        start = time.monotonic()
        done = subprocess.run([sys.executable, '-m', 'irmetrics', str(qrels), str(run), '-m', 'AP nDCG@10', '-f',
                               'csv', *limit], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
        return done, time.monotonic() - start
    refused, seconds = timed('--memory-limit', '1k')
    assert refused.returncode == 2 and refused.stderr.count('\n') == 1 and seconds < 10, (refused.stderr, seconds)
    assert 'a memory limit of 1K cuts this run' in refused.stderr and 'more than 1,024 chunks' in refused.stderr
    least = refused.stderr.rsplit('give a memory limit of ', 1)[1].split()[0]
    chunked, seconds = timed('--memory-limit', least)
    whole, _ = timed()
    assert chunked.returncode == 0 and chunked.stdout == whole.stdout and seconds < 30, (chunked.stderr, seconds)
    assert list(spill.iterdir()) == []


@pytest.mark.parametrize('buckets', [2, 63, 64, 65, 200, 4097])
def test_a_spill_of_any_number_of_buckets_gives_each_once_in_file_order(tmp_path, buckets):
    """Rows go to ranges of buckets, at most MAX_OPEN_SPILLS files written at once, a range split again until a
    file is one bucket's: every bucket comes out once, whole, its rows in file order; no file is left."""
    rng = np.random.default_rng(buckets)
    queries = [f'q{i}' for i in rng.integers(0, 5000, 3000)]
    table = pa.table({'query_id': queries, 'doc_id': [f'd{i}' for i in range(3000)],
                      'score': rng.random(3000), 'position': np.arange(1, 3001)})
    tables = iter([table.slice(i, 300) for i in range(0, 3000, 300)])
    out = list(chunks.spilled(tables, buckets, str(tmp_path)))
    got = pa.concat_tables(out)
    assert sorted(got.column('position').to_pylist()) == list(range(1, 3001))
    seen = set()
    for part in out:
        names = set(part.column('query_id').to_pylist())
        assert not names & seen and part.column('position').to_pylist() == sorted(part.column('position').to_pylist())
        seen |= names
    assert len(out) <= buckets and list(tmp_path.iterdir()) == []
