"""Reading TREC qrels and run files: where the bytes come from, and which path splits them.

Sources: a path (plain, ``.gz``, ``.bz2``, ``.xz``, ``.zst``), raw text, or bytes.  Small inputs (up to
:data:`SMALL_FILE` bytes) are brought into canonical form and split by Python's string methods
(:mod:`.small`: no pyarrow import, so a small job starts fast); larger ones are split by Arrow's
multi-threaded CSV reader (:mod:`.arrow`): straight from the file when one streaming pass finds it
single-spaced, otherwise after canonicalisation in memory.  Both paths follow :mod:`.format`, the
one statement of the format, and give the same columns.
"""
from __future__ import annotations

import errno
import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from ...errors import DuplicateError, InputError, warn
from .. import numeric
from ..duplicates import Duplicates
from ..ids import Ids
from ..locate import Positions, RowLocator, id_at
from ..paths import compression_of, is_text
from ..policies import GRADES
from ..qrels import Qrels
from ..ranking import canonical_order
from ..run import Run
from ..segments import offsets_of
from . import small
from .format import BOM, QRELS, RUN, BlankLines, Data, FileData, Layout, canonical, is_single_spaced
from .stream import longest_line
from .tag import last_tag

#: Inputs up to this size (1 MiB) are split by Python's string methods, without importing pyarrow; above it Arrow
#: splits faster than Python, its import included (a 2 MB qrels: 0.2 s by Python, 0.1 s by Arrow).
SMALL_FILE = 1 << 20
#: Bytes a compressed file is decompressed by at a time.
DECOMPRESS_PIECE = 1 << 24


def load(source: Any) -> tuple[Data, str]:
    """(content, display name) of a path (plain, .gz, .bz2, .xz, .zst), raw text or bytes.

    A large plain file is not read here: the Arrow reader streams it (see :class:`FileData`).
    """
    if isinstance(source, bytes):
        return bytes(source), getattr(source, 'name', '<bytes>')
    if is_text(source):
        return _encoded(source), '<text>'
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(f'cannot read a TREC file from {type(source).__name__}: expected a path, raw text or bytes')
    path = os.fspath(source)
    compression = compression_of(path)
    try:
        if compression is None:
            if os.path.isdir(path):
                raise IsADirectoryError(path)
            if os.path.getsize(path) <= SMALL_FILE:
                with open(path, 'rb') as f:
                    return f.read(), path
            file = FileData(path)
            return (bytes(file) if file.head(len(BOM)) == BOM else file), path
        return _decompress(path, importlib.import_module(compression)), path
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError('no such file', path) from None
    except IsADirectoryError:
        raise InputError('is a directory, not a file', path) from None
    except (OSError, EOFError, ValueError) as ex:     # ValueError: a NUL in the path
        if isinstance(ex, OSError) and ex.errno == errno.ELOOP:
            raise InputError('a loop of symbolic links (each names the next, and none a file)', path) from None
        raise InputError(f'cannot read: {ex}', path) from None


class StandardInput(bytes):
    """The bytes of standard input (a run given as ``-``), named so in messages."""

    name = '<stdin>'


def read_stdin() -> StandardInput:
    """Standard input, whole, as bytes (``-`` as a run file on the command line)."""
    import sys
    return StandardInput(sys.stdin.buffer.read())


def _encoded(text: str) -> bytes:
    """Raw text as UTF-8; a lone surrogate (which no file can hold) is an error naming its line."""
    try:
        return text.encode('utf-8')
    except UnicodeEncodeError as ex:
        raise InputError('ids must be valid UTF-8 text (the text holds a lone surrogate)', '<text>',
                         text.count('\n', 0, ex.start) + 1) from None


def _decompress(path: str, module: ModuleType) -> bytes:
    """The decompressed text, read in pieces, each checked as it arrives (:class:`.stream.TextGuard`:
    a NUL byte, an endless line or a flood of blank lines is refused at once, never held); text that
    would take more than the memory budget to evaluate (:func:`.budget.fits`) is a
    :class:`TextOverBudget` as soon as it is seen."""
    from ..budget import TextOverBudget, fits
    from .stream import TextGuard
    guard = TextGuard(path)
    pieces, size = [], 0
    try:
        with module.open(path, 'rb') as f:
            while piece := f.read(DECOMPRESS_PIECE):
                guard.check(piece)
                size += len(piece)
                if not fits(size, guard.lines):
                    raise TextOverBudget(f'decompresses to more text than the memory budget holds while '
                                         f'evaluating it (more than {size:,} bytes, {guard.lines:,} lines; '
                                         f'--memory-limit)', path)
                pieces.append(piece)
        return b''.join(pieces)
    except (FileNotFoundError, IsADirectoryError, InputError):
        raise
    except MemoryError:
        raise InputError('out of memory while decompressing', path) from None
    except Exception as ex:           # gzip, bz2 and lzma each raise their own kind of corrupt-data error
        raise InputError(f'cannot read: corrupt {module.__name__.rpartition(".")[2]} data: {ex}', path) from None


def parse(data: Data, name: str, layout: Layout, file_start: bool = True, small_split: bool = True,
          first_line: int | Callable[[], int] = 1,
          blanks: BlankLines | None = None) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """Columns (``layout.keep``) of a TREC file, and a function giving each row's line number.

    Id columns are id columns (:mod:`.ids`), numeric ones numpy arrays (float64 scores, int64 grades).
    ``data`` may be a block of whole lines of a file (:mod:`.blocks`): ``file_start`` says whether it
    starts the file (only there is a byte-order mark skipped), ``first_line`` is the file line the
    block starts at (or a function counting it, called only when needed); ``small_split=False`` splits
    even a small block with Arrow, so that every block's columns have the same Arrow types.  Blank
    lines are skipped with a warning (:func:`irmetrics.errors.warn`) giving their number and the
    first one; with ``blanks`` (the tally of a file read block by block) they are added to it instead,
    for one warning at the end (:func:`warn_blank_lines`).
    """
    if file_start and isinstance(data, bytes) and data.startswith(BOM):   # never part of a query id
        data = data[len(BOM):]
    parsed, blank = _split(data, name, layout, small_split)

    def first() -> int | None:             # the first blank line's number in the file
        if blank.first_line is None:
            return None
        return blank.first_line + (first_line() if callable(first_line) else first_line) - 1
    if blanks is not None:
        blanks.then(blank, first() if blanks.first_line is None else None)
    elif blank.count:
        warn_blank_lines(BlankLines(blank.count, None, first()), name)
    return parsed


def warn_blank_lines(blank: BlankLines, name: str) -> None:
    """The warning for the blank lines a file's reading skipped (none if it skipped none)."""
    if blank.count and blank.first_line is not None:
        plural = 's' if blank.count > 1 else ''
        warn(f'{blank.count} blank line{plural} skipped (the first is line {blank.first_line})', name)


def _split(data: Data, name: str, layout: Layout,
           small_split: bool) -> tuple[tuple[dict[str, object], Callable[[], np.ndarray]], BlankLines]:
    if small_split and isinstance(data, bytes) and len(data) <= SMALL_FILE:
        text, blank = canonical(data, name, layout)
        return small.split(text, name, layout), blank
    from . import arrow
    single_spaced, blank = is_single_spaced(data)
    if single_spaced:
        parsed = arrow.split(data, name, layout)
        if parsed is not None:
            return parsed, blank
    if isinstance(data, FileData):      # read whole next: refuse an endless line first, in bounded memory
        longest_line(arrow.pieces(data), name)
    text, blank = canonical(bytes(data), name, layout)
    parsed = arrow.split(text, name, layout) or arrow.split(text, name, layout, typed=False)
    assert parsed is not None                       # untyped, only bad UTF-8 can fail, and that raises
    return parsed, blank


def read_trec_qrels(source: str | os.PathLike[str] | bytes, *, duplicates: str = 'error',
                    grades: str = 'real') -> Qrels:
    """Read a TREC qrels file (``query_id iteration doc_id relevance``) from a path, raw text or bytes.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path (plain, ``.gz``, ``.bz2``, ``.xz``, ``.zst``), or the file's text (a string holding a newline) or bytes.
    duplicates : str
        A document judged more than once for a query is an error for the measures that read one grade
        per document (as in trec_eval) unless ``duplicates='max'``: see :meth:`Qrels.from_columns`.
    grades : str
        How a grade is read: ``'real'`` (its value: ``0.5`` is a real-valued grade, the gain of nDCG, ERR
        and RBP, compared with ``rel=`` as a real number) or ``'trec_eval'`` (as trec_eval 10 reads it, with
        C's ``atol``: the sign and the leading digits, ``2.7`` is 2 and ``1e-3`` is 1).  Either way a grade
        is a decimal number; see docs/conventions.md.

    Returns
    -------
    Qrels
        The judgments, in the file's order.

    Raises
    ------
    InputError
        For a missing file or a malformed line (the message names the line).
    DuplicateError
        When ``duplicates='error'`` and the file judges a document twice for a query under one iteration.

    Examples
    --------
    >>> qrels = irmetrics.read_trec_qrels('examples/qrels.txt')
    >>> qrels
    <Qrels examples/qrels.txt: 10 queries, 400 judgments>
    >>> next(iter(qrels))
    Qrel(query_id='401', doc_id='D401-022', relevance=2, iteration='0')
    """
    GRADES.check(grades)
    data, name = load(source)
    cols, lines = parse(data, name, QRELS._replace(grades=grades))
    return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols['iteration'],
                              source=name, lines=lines, duplicates=duplicates)


def read_trec_run(source: str | os.PathLike[str] | bytes, *, duplicates: str = 'error') -> Run:
    """Read a TREC run file (``query_id Q0 doc_id rank score tag``) from a path, raw text or bytes.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        The file's path (compressed or not), or its content as text or bytes.
    duplicates : str
        The same document twice for a query is an error (``'error'``) unless ``duplicates`` is ``'first'``,
        ``'last'`` (ir_measures' and ranx's silent behaviour) or ``'max'`` (the occurrence with the
        highest score).

    Returns
    -------
    Run
        The scored documents, ranked as trec_eval ranks them: by score, ties by document id, both
        descending (the rank column is ignored).

    Raises
    ------
    InputError
        When the file is missing or a line cannot be read.
    DuplicateError
        For a document retrieved twice for a query, unless ``duplicates`` keeps one.

    Examples
    --------
    >>> run = irmetrics.read_trec_run('examples/run_bm25.txt')
    >>> run.num_queries, len(run), next(iter(run))
    (10, 500, ScoredDoc(query_id='401', doc_id='D401-078', score=17.25))
    """
    data, name = load(source)
    return _run(data, name, duplicates)


def read_trec_run_with_tag(source: str | os.PathLike[str] | bytes, duplicates: str = 'error') -> tuple[Run, str | None]:
    """:func:`read_trec_run`, and the tag of the run's last line, which trec_eval reports as its ``runid``
    (None for a run without lines)."""
    data, name = load(source)
    return _run(data, name, duplicates), last_tag(data)


def read_trec_run_as_trec_eval(source: str | os.PathLike[str] | bytes, evaluated: Ids,
                               depth: int | None) -> tuple[Run, str | None]:
    """The run as trec_eval 10 reads it, and its tag: a document retrieved twice is refused only where
    trec_eval looks for one (form_res_rels.c), among the first ``depth`` documents of the ranking of a
    query of ``evaluated`` (the qrels' queries), duplicates counted in the ranking; elsewhere (below
    ``depth``, or in a query trec_eval does not evaluate) the higher-ranked occurrence is kept, which
    leaves the first ``depth`` documents as trec_eval ranks them.  ``depth`` 0: trec_eval inspects no
    document (its measures are num_q and runid only)."""
    data, name = load(source)
    cols, lines = parse(data, name, RUN)
    try:
        run = Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source=name, lines=lines)
    except DuplicateError:
        _refuse_duplicates_trec_eval_sees(cols, lines, name, evaluated, depth)
        run = Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source=name, duplicates='max',
                               lines=lines)
    return run, last_tag(data)


def _refuse_duplicates_trec_eval_sees(cols: dict[str, Any], lines: Positions | None, name: str, evaluated: Ids,
                                      depth: int | None) -> None:
    """A DuplicateError for the first document that appears twice within the first ``depth`` of the
    ranking (duplicates included) of a query of ``evaluated``; nothing if there is none."""
    where = RowLocator(name, lines)
    queries, docs = where.ids(cols['query_id'], 'query_id'), where.ids(cols['doc_id'], 'doc_id')
    scores = numeric.column(cols['score'], 'score', where).astype(np.float64)
    vocab, codes = queries.encode()
    order = canonical_order(codes, scores, docs)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order)) - offsets_of(codes[order], len(vocab))[codes[order]]
    dups = Duplicates.find(docs, docs.fingerprint(), codes)
    assert dups is not None                              # Run.from_columns found one
    ranked = np.lexsort((position[dups.rows], dups.group))
    rows, group = dups.rows[ranked], dups.group[ranked]
    second = rows[np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1]))) + 1]   # each group's 2nd
    seen = (vocab.lookup(evaluated) >= 0)[codes[second]] & (position[second] < (np.inf if depth is None else depth))
    if seen.any():
        row = int(second[np.argmax(seen)])
        same = rows[group == group[np.flatnonzero(rows == row)[0]]]
        raise where.error(DuplicateError, f'duplicate document {id_at(docs, row)!r}: retrieved more than once for '
                                          f'query {id_at(queries, row)!r}{where.at(np.sort(same))}, within the '
                                          f'documents trec_eval evaluates (the first -M of each query of the '
                                          f'qrels): trec_eval 10 refuses the run ("duplicate docs")', row)


def _run(data: Data, name: str, duplicates: str) -> Run:
    cols, lines = parse(data, name, RUN)
    return Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source=name,
                            duplicates=duplicates, lines=lines)
