"""Files irmetrics writes (reports, pools, runs, qrels, plots), written so that nothing is destroyed.

* A path that is one of the command's inputs, however it is named (the same path, a symbolic link
  to it, a hard link, ``./`` and ``..`` spellings), is refused before anything is read or written:
  :func:`check_output`.
* A symbolic link is followed, never replaced: the file it points to is written (a dangling link's
  target is created), as a shell redirection does.
* A regular file (or a new one) is written to a temporary file beside it and renamed into place, so
  an interrupted or failed write leaves the old file as it was, and no temporary file: a SIGTERM or
  SIGHUP while writing ends the program through the cleanup (:func:`.signals.ended_by_signals`).  The
  new file takes the old one's permissions and, where the process may give them, its owner and group,
  or the permissions the umask gives a new file (never a private 0600 file).  A file with other hard
  links is written in place, so that every name keeps seeing it.
* A name ending in a path separator (``out.csv/``) names a directory, never the file ``out.csv``: an
  error.
* A FIFO, a character or block device or a socket is written into as a shell redirection would
  (``> /dev/null`` stays the device); a device that is full is one error (``--output /dev/full``).
* A directory is an error naming it.

Every failure is an :class:`~irmetrics.errors.OutputError` naming the path and the problem.
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from ..errors import OutputError
from .signals import ended_by_signals


def check_output(path: str | os.PathLike[str] | None, inputs: Iterable[str | os.PathLike[str] | None],
                 option: str = '--output') -> None:
    """That ``path`` (given with ``option``) names a file and none of ``inputs``: the output must never
    overwrite what it is computed from.  ``None`` and ``'-'`` (standard output) pass."""
    if path is None or os.fspath(path) == '-':
        return
    name = os.fspath(path)
    if not name.strip():
        raise OutputError(f'{option} needs a file name, got an empty one')
    _no_directory_name(name, option)
    target = os.path.realpath(name)
    for given in inputs:
        if given is None or not isinstance(given, (str, os.PathLike)) or os.fspath(given) == '-':
            continue
        if _same_file(os.fspath(given), name, target):
            raise OutputError(f'{option} {name!r} is one of the inputs ({os.fspath(given)!r}): writing it would '
                              f'destroy that input; write to another file')


def _no_directory_name(name: str, option: str) -> None:
    """A name ending in a separator names a directory (``out.csv/`` is not the file ``out.csv``)."""
    if name.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        raise OutputError(f'{option} {name!r} ends in a path separator, so it names a directory: give a file name '
                          f'(without the trailing {name[-1]!r})')


def _same_file(given: str, name: str, target: str) -> bool:
    if os.path.realpath(given) == target:
        return True
    try:
        return os.path.samefile(given, name)
    except OSError:              # one of them does not exist (yet): not the same file
        return False


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, by the rules of the module docstring; the output is in
    place when the block ends without an exception (and left as it was, for a regular file, when not)."""
    name = os.fspath(path)
    if not name.strip():
        raise OutputError('an output needs a file name, got an empty one')
    _no_directory_name(name, 'an output')
    target = os.path.realpath(name)           # a symbolic link is followed (a dangling one to its target)
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    except OSError as ex:
        raise OutputError(f'{name}: cannot write: {ex.strerror or ex}') from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise OutputError(f'{name} is a directory: give a file name')
    if found is not None and (not stat.S_ISREG(found.st_mode) or found.st_nlink > 1):
        with _reported(name), open(target, 'wb') as into:   # a FIFO, a device, a file with other names: in place
            yield into
        return
    with ended_by_signals():
        with _reported(name):
            handle, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix='.irmetrics-', suffix='.part')
        try:
            with _reported(name):
                with os.fdopen(handle, 'wb') as into:
                    yield into
                if found is not None:
                    _take_owner(temporary, found)
                os.chmod(temporary, stat.S_IMODE(found.st_mode) if found is not None else _new_file_mode())
                os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def _take_owner(path: str, found: os.stat_result) -> None:
    """Give ``path`` the owner and group of the file it replaces, where the process may (root may give any,
    a user a group of its own; otherwise the file stays the writer's, as a copy would be).  Before the
    permissions are set: a change of owner clears the set-user-id and set-group-id bits."""
    chown = getattr(os, 'chown', None)                  # not on Windows
    if chown is None:
        return
    with contextlib.suppress(OSError):
        chown(path, found.st_uid, -1)
    with contextlib.suppress(OSError):
        chown(path, -1, found.st_gid)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` by the rules of the module docstring."""
    with writing(path) as into:
        into.write(text.encode('utf-8'))


@contextlib.contextmanager
def _reported(name: str) -> Iterator[None]:
    """An operating system's error while writing ``name`` as one :class:`OutputError` naming it."""
    try:
        yield
    except OSError as ex:
        if isinstance(ex, OutputError):
            raise
        raise OutputError(f'{name}: cannot write: {ex.strerror or ex}') from None


def _new_file_mode() -> int:
    """The permissions ``open`` gives a new file under the process's umask (0666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_figure_path(path: str, option: str = '--plot') -> str:
    """The image format of ``path`` (its suffix, which matplotlib must know), or an error naming the formats."""
    from matplotlib.backend_bases import FigureCanvasBase
    known = FigureCanvasBase.get_supported_filetypes()
    suffix = os.path.splitext(path)[1].lstrip('.').lower()
    if suffix not in known:
        said = f'the suffix .{suffix}' if suffix else 'a name without a suffix'
        raise OutputError(f'{option} {path!r}: cannot tell the image format from {said}; end the name in one of '
                          f'{", ".join("." + s for s in sorted(known))}')
    return suffix


def save_figure(fig: Any, path: str, option: str = '--plot', **options: Any) -> None:
    """Save a matplotlib figure to ``path`` in the format its suffix names, by the rules of the module docstring."""
    fmt = check_figure_path(path, option)
    with writing(path) as into:
        fig.savefig(into, format=fmt, **options)
