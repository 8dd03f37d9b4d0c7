"""The one door for inputs: every supported input becomes a columnar :class:`Qrels` or :class:`Run`, and
what the rest of irmetrics asks of an input is asked here.

Accepted for both: a path to a TREC file (plain, ``.gz``, ``.bz2``, ``.xz``, ``.zst``) or raw TREC text, a
Parquet file (a path ending in ``.parquet``) or a directory of Parquet files, an already converted
object, a pandas DataFrame, an Arrow table or a polars DataFrame (columns named as in
:mod:`.columns`), a dict of dicts (``{query_id: {doc_id: relevance_or_score}}``), a ``ranx`` object, an
iterable of named tuples or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
ir_datasets' record types among them), or arrays (a top-k or score matrix, a grade matrix, dense or
scipy.sparse).  Each is an input kind of :mod:`.input_kinds`, which knows how to recognise, read and
cut it; :mod:`.paths` holds the one rule for what is a path.
"""
from __future__ import annotations

from typing import Any

from ..errors import InputError
from .input_kinds import RunFile, classify, find_kind
from .large import Reading, RunParts
from .prefs import JudgmentGroups, Preferences
from .qrels import Qrels
from .run import Run


def to_qrels(obj: Any, *, duplicates: str = 'error') -> Qrels:
    """Convert any supported qrels input to :class:`Qrels`.

    Parameters
    ----------
    obj : any qrels input
        A path to a TREC file (plain, ``.gz``, ``.bz2``, ``.xz``, ``.zst``) or raw TREC text, a Parquet file or
        directory, :class:`Qrels`, a pandas DataFrame, an Arrow table or a polars DataFrame, a dict of dicts
        ``{query_id: {doc_id: relevance}}``, a ``ranx`` object, an iterable of records in ``Qrel`` field
        order, or a grade matrix (dense or scipy.sparse); see the module docstring.
    duplicates : str
        ``'error'`` or ``'max'``: see :func:`~.trec.reader.read_trec_qrels`.

    Returns
    -------
    Qrels
        The judgments in columns.

    Raises
    ------
    InputError
        For an input irmetrics cannot read (the message lists the kinds it reads), or a malformed one.
    DuplicateError
        For a document judged twice for a query under one iteration, with ``duplicates='error'``.

    Examples
    --------
    >>> irmetrics.to_qrels({'q1': {'d1': 2, 'd2': 0}})
    <Qrels qrels dict: 1 queries, 2 judgments>
    """
    if isinstance(obj, (Preferences, JudgmentGroups)):
        raise InputError(f'{type(obj).__name__} are not qrels: irmetrics.calc (calc_aggregate, iter_calc) evaluates '
                         f'them with their own measures; an evaluator reads qrels only', obj.source)
    return classify(obj, 'qrels').qrels(obj, duplicates)


def to_run(obj: Any, *, duplicates: str = 'error', depth: int | None = None) -> Run:
    """Convert any supported run input to :class:`Run`.

    Parameters
    ----------
    obj : any run input
        A path to a TREC run file or raw TREC text, a Parquet file or directory, :class:`Run`, a pandas,
        Arrow or polars table, a dict of dicts ``{query_id: {doc_id: score}}``, a ``ranx`` object, an
        iterable of records in ``ScoredDoc`` field order, or arrays (a top-k or score matrix, dense or
        scipy.sparse); see the module docstring.
    duplicates : str
        The same document twice for a query: ``'error'``, or keep the ``'first'``, ``'last'`` or ``'max'``
        scored occurrence.
    depth : int or None
        Rankings given as arrays may be ranked only this deep (what the measures read).

    Returns
    -------
    Run
        The ranking in columns.

    Raises
    ------
    InputError
        For an input of no kind irmetrics reads, or a malformed one.
    DuplicateError
        For a document retrieved twice for a query, with ``duplicates='error'``.

    Examples
    --------
    >>> import numpy as np
    >>> list(irmetrics.to_run(np.array([[0.1, 0.9, 0.5]]), depth=2))      # one user's scores of three items
    [ScoredDoc(query_id='0', doc_id='1', score=0.9), ScoredDoc(query_id='0', doc_id='2', score=0.5)]
    """
    return classify(obj, 'run').run(obj, duplicates, depth)


def open_run(obj: Any, reading: Reading) -> Run | RunParts:
    """The run ``obj`` as an evaluation reads it on the terms of ``reading`` (:class:`~.large.Reading`):
    whole, or as :class:`~.large.RunParts` of complete queries (or users) when it would pass the memory
    budget whole, or is ranked where it lives (arrays)."""
    return classify(obj, 'run').open_run(obj, reading)


def run_chunks(obj: Any, budget: int, duplicates: str = 'error') -> RunParts:
    """A run file (TREC text or Parquet) in chunks of complete queries of about a quarter of ``budget``
    each, whatever its size; any other run is an :class:`~irmetrics.errors.InputError`."""
    kind = classify(obj, 'run')
    if not isinstance(kind, RunFile):
        raise InputError(f'{kind.described} is read whole: only a run file is read in chunks')
    return kind.chunks(obj, budget, duplicates)


def looks_like_data(obj: Any) -> bool:
    """Whether ``obj`` is a run or qrels rather than measures (arguments given in each other's place): a
    file that exists, raw text, a Run or Qrels, arrays, a table or DataFrame, a dict of dicts (or of runs by
    name); never a word or a list of words."""
    kind = find_kind(obj)
    return kind is not None and kind.is_data(obj)


def source_path(obj: Any) -> str | None:
    """The path of a qrels or run given as a file (TREC text or Parquet), else None (its rows are given)."""
    kind = find_kind(obj)
    return None if kind is None else kind.path(obj)
