"""Every command that writes a file (compare --output, pool -o, agree --plot) refuses its inputs however named,
keeps symbolic links, writes into FIFOs and devices, reports a full device and an unknown plot type in one line."""
import os
import shutil
import stat

import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

EXAMPLES = ROOT / 'examples'


@pytest.fixture
def inputs(tmp_path):
    for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / 'third.txt').write_text((EXAMPLES / 'run_bm25.txt').read_text().replace(' 1.', ' 0.'))
    return tmp_path


def _names(directory, target):
    """Every spelling of ``target`` in ``directory``: itself, through '..', a symbolic link, a hard link."""
    (directory / 'sub').mkdir(exist_ok=True)
    link, hard = directory / f'link-{target}', directory / f'hard-{target}'
    link.symlink_to(directory / target)
    os.link(directory / target, hard)
    return [target, f'sub/../{target}', link.name, hard.name]


@pytest.mark.parametrize('target', ['run_bm25.txt', 'qrels.txt'])
def test_pool_never_overwrites_an_input(inputs, target):
    before = (inputs / target).read_bytes()
    for name in _names(inputs, target):
        proc = irmetrics('pool', 'run_bm25.txt', 'run_dense.txt', '--depth', '5', '--qrels', 'qrels.txt', '-o', name,
                         cwd=inputs)
        assert_user_error(proc, f"-o {name!r} is one of the inputs")
    assert (inputs / target).read_bytes() == before


@pytest.mark.parametrize('target', ['run_bm25.txt', 'qrels.txt'])
def test_compare_and_agree_never_overwrite_an_input(inputs, target):
    before = (inputs / target).read_bytes()
    for name in _names(inputs, target):
        assert_user_error(irmetrics('compare', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', '-m', 'AP', '--output',
                                    name, cwd=inputs), 'is one of the inputs')
        assert_user_error(irmetrics('agree', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', 'third.txt', '-m', 'AP',
                                    '-m', 'P@5', '--plot', name, cwd=inputs), 'is one of the inputs')
    assert (inputs / target).read_bytes() == before


def test_outputs_through_a_symlink_keep_the_link(inputs):
    for args in (['pool', 'run_bm25.txt', 'run_dense.txt', '--depth', '5', '-o'],
                 ['compare', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', '-m', 'AP', '--output']):
        real, link = inputs / 'real.out', inputs / 'link.out'
        link.symlink_to(real)                         # dangling: the file it names is created
        proc = irmetrics(*args, 'link.out', cwd=inputs)
        assert proc.returncode == 0, proc.stderr
        assert link.is_symlink() and real.stat().st_size > 0
        link.unlink()
        real.unlink()


def test_outputs_into_a_device(inputs):
    for args in (['pool', 'run_bm25.txt', 'run_dense.txt', '--depth', '5', '-o'],
                 ['compare', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', '-m', 'AP', '--output']):
        proc = irmetrics(*args, '/dev/null', cwd=inputs)
        assert proc.returncode == 0, proc.stderr
        assert stat.S_ISCHR(os.stat('/dev/null').st_mode)
        if os.path.exists('/dev/full'):
            assert_user_error(irmetrics(*args, '/dev/full', cwd=inputs), '/dev/full: cannot write: No space left')


def test_outputs_keep_the_umask(inputs):
    proc = irmetrics('compare', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', '-m', 'AP', '--output', 'report.txt',
                     cwd=inputs)
    assert proc.returncode == 0, proc.stderr
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE((inputs / 'report.txt').stat().st_mode) == 0o666 & ~mask


def test_a_plot_of_an_unknown_type_is_one_error(inputs):
    proc = irmetrics('agree', 'qrels.txt', 'run_bm25.txt', 'run_dense.txt', 'third.txt', '-m', 'AP', '-m', 'P@5',
                     '--plot', 'out.txt', cwd=inputs)
    assert_user_error(proc, "--plot 'out.txt': cannot tell the image format from the suffix .txt", '.png', '.svg')
    assert not (inputs / 'out.txt').exists()
