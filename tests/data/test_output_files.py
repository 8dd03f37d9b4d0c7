"""Outputs never destroy anything (irmetrics.data.output_files): inputs refused however named, links followed and
kept, FIFOs and devices written into, a full device one error, permissions as the umask says."""
import os
import signal
import stat
import subprocess
import sys
import threading

import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.data.output_files import check_output, write_text, writing


def test_a_regular_file_is_replaced_whole_with_the_umask_permissions(tmp_path):
    target = tmp_path / 'report.txt'
    old = os.umask(0o022)
    try:
        write_text(target, 'first\n')
    finally:
        os.umask(old)
    assert target.read_text() == 'first\n'
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    target.chmod(0o640)
    write_text(target, 'second\n')
    assert target.read_text() == 'second\n'
    assert stat.S_IMODE(target.stat().st_mode) == 0o640             # an existing file keeps its permissions
    assert [p.name for p in tmp_path.iterdir()] == ['report.txt']    # no temporary file left


def test_a_failed_write_leaves_the_old_file(tmp_path):
    from irmetrics.data.output_files import writing
    target = tmp_path / 'report.txt'
    target.write_text('old\n')
    with pytest.raises(RuntimeError), writing(target) as into:
        into.write(b'half')
        raise RuntimeError('interrupted')
    assert target.read_text() == 'old\n'
    assert [p.name for p in tmp_path.iterdir()] == ['report.txt']


def test_a_symlink_is_followed_never_replaced(tmp_path):
    real = tmp_path / 'real.txt'
    real.write_text('old\n')
    link = tmp_path / 'link.txt'
    link.symlink_to(real)
    write_text(link, 'new\n')
    assert link.is_symlink() and real.read_text() == 'new\n'
    dangling = tmp_path / 'dangling.txt'
    dangling.symlink_to(tmp_path / 'created.txt')
    write_text(dangling, 'made\n')
    assert dangling.is_symlink() and (tmp_path / 'created.txt').read_text() == 'made\n'


def test_a_hard_link_keeps_both_names(tmp_path):
    first = tmp_path / 'a.txt'
    first.write_text('old\n')
    os.link(first, tmp_path / 'b.txt')
    write_text(tmp_path / 'b.txt', 'new\n')
    assert first.read_text() == 'new\n' and os.path.samefile(first, tmp_path / 'b.txt')


def test_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    got = []

    def read():
        with open(fifo, 'rb') as f:
            got.append(f.read())
    reader = threading.Thread(target=read)
    reader.start()
    write_text(fifo, 'through the pipe\n')
    reader.join(10)
    assert got == [b'through the pipe\n'] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_devices_are_written_into_and_a_full_one_is_an_error():
    write_text('/dev/null', 'gone\n')
    assert stat.S_ISCHR(os.stat('/dev/null').st_mode)
    if not os.path.exists('/dev/full'):
        pytest.skip('no /dev/full on this system')
    with pytest.raises(irm.OutputError, match='/dev/full: cannot write: No space left on device'):
        write_text('/dev/full', 'x' * 100_000)


def test_a_directory_is_an_error(tmp_path):
    with pytest.raises(irm.OutputError, match='is a directory'):
        write_text(tmp_path, 'x')


def test_inputs_are_refused_however_named(tmp_path):
    run = tmp_path / 'run.txt'
    run.write_text('q 0 d 1 1 t\n')
    (tmp_path / 'sub').mkdir()
    (tmp_path / 'link').symlink_to(run)
    os.link(run, tmp_path / 'hard')
    for name in (run, tmp_path / 'sub' / '..' / 'run.txt', tmp_path / 'link', tmp_path / 'hard'):
        with pytest.raises(irm.OutputError, match='is one of the inputs'):
            check_output(str(name), [str(run)])
    check_output(str(tmp_path / 'other.txt'), [str(run), None, '-'])
    check_output('-', [str(run)])
    with pytest.raises(irm.OutputError, match='needs a file name'):
        check_output(' ', [])


def test_writers_of_runs_and_qrels_go_through_the_rules(tmp_path):
    run = irm.to_run({'q': {'d1': 2.0, 'd2': 1.0}})
    real = tmp_path / 'real.txt'
    real.write_text('old\n')
    (tmp_path / 'link.txt').symlink_to(real)
    run.to_trec(tmp_path / 'link.txt')
    assert (tmp_path / 'link.txt').is_symlink()
    assert irm.calc_aggregate(['P@2'], {'q': {'d1': 1}}, str(real)) == {irm.P @ 2: 0.5}
    run.to_parquet(tmp_path / 'run.parquet')
    assert irm.to_run(str(tmp_path / 'run.parquet')).scores.tolist() == [2.0, 1.0]


_WRITER = """
import sys, time
from irmetrics.data.output_files import writing
with writing(sys.argv[1]) as into:
    into.write(b'x' * (8 << 20))
    print('writing', flush=True)
    time.sleep(60)
"""


def test_a_sigterm_while_writing_leaves_the_old_file_and_no_temporary_one(tmp_path):
    target = tmp_path / 'report.txt'
    target.write_text('old\n')
    writer = subprocess.Popen([sys.executable, '-c', _WRITER, str(target)], stdout=subprocess.PIPE,
                              cwd=ROOT)
    assert writer.stdout is not None and writer.stdout.readline() == b'writing\n'
    assert len(list(tmp_path.iterdir())) == 2                     # the temporary file, being written
    writer.send_signal(signal.SIGTERM)
    assert writer.wait(timeout=30) == 128 + signal.SIGTERM
    assert [p.name for p in tmp_path.iterdir()] == ['report.txt'] and target.read_text() == 'old\n'


def test_the_signal_handlers_are_restored_after_writing(tmp_path):
    with writing(tmp_path / 'a.txt') as into:
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
        into.write(b'a')
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_a_name_ending_in_a_separator_names_a_directory(tmp_path):
    path = str(tmp_path / 'report.csv') + os.sep
    with pytest.raises(irm.OutputError, match=r"--output '.*report.csv/' ends in a path separator, so it names a "
                                              r'directory: give a file name'):
        check_output(path, [])
    with pytest.raises(irm.OutputError, match='ends in a path separator'):
        write_text(path, 'x')
    assert list(tmp_path.iterdir()) == []


def test_a_replaced_file_keeps_its_owner_and_group(tmp_path):
    """As root, a file of another user stays theirs (a user can give only its own ids: the same check)."""
    target = tmp_path / 'report.txt'
    target.write_text('old\n')
    owner = (12345, 23456) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    os.chown(target, *owner)
    target.chmod(0o640)
    write_text(target, 'new\n')
    found = target.stat()
    assert (found.st_uid, found.st_gid, stat.S_IMODE(found.st_mode)) == (*owner, 0o640)
