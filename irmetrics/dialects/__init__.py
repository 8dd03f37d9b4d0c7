"""Measure names in three dialects, and the one rule that reads a word when no dialect is named.

* ``'irmetrics'``: irmetrics' own syntax (``nDCG@10``, ``P(rel=2)@5``; :mod:`irmetrics.algebra.parse`);
* ``'trec_eval'``: trec_eval's names (``map``, ``P.5,10``, ``ndcg_cut_10``, ``official``; :mod:`.trec_eval`);
* ``'ranx'``: ranx's metric names (``ndcg@10``, ``precision@5-l2``, ``rbp.95``; :mod:`.ranx`).

The default (``dialect=None``), the same in Python and on the command line: every dialect reads the
word, and a reading that fails (an unknown name, or a measure that lacks a parameter, such as
irmetrics' ``P`` without a cutoff) does not count.  The word means what the dialects that read it
agree on; when two of them read it as different measures (``recall``: trec_eval's R@5 ... R@1000,
ranx's SetR), it is an error that names each reading and how to choose one.  docs/conventions.md
lists the words that differ.
"""
from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterable, KeysView, Set
from typing import Any

from ..algebra import parse as irmetrics_syntax
from ..algebra.measure import Measure
from ..errors import AmbiguousMeasureError, MeasureError, MeasureSyntaxError, UnknownMeasureError
from . import ranx, trec_eval

#: The dialects, in the order errors and readings are reported: name -> word -> its measures.
DIALECTS: dict[str, Callable[[str], list[Measure]]] = {
    'irmetrics': lambda word: [irmetrics_syntax.parse_measure(word)],
    'trec_eval': trec_eval.parse_trec_measure,
    'ranx': lambda word: [ranx.parse_ranx_measure(word)],
}


def check_dialect(dialect: str | None) -> None:
    """Refuse a dialect that is not one of :data:`DIALECTS` (None: the default rule)."""
    if dialect is not None and dialect not in DIALECTS:
        raise MeasureError(f'unknown measure dialect {dialect!r}; dialects: {", ".join(DIALECTS)}')


def read_word(word: str, dialect: str | None = None) -> list[Measure]:
    """The measures one word names (``'nDCG@10'``, ``'P.5,10'``, ``'ndcg@10'``), read by ``dialect``
    or by the default rule (module docstring)."""
    check_dialect(dialect)
    if dialect is not None:
        return DIALECTS[dialect](word)
    readings, failures = _readings(word)
    distinct = {tuple(ms) for ms in readings.values()}
    if len(distinct) == 1:
        return next(iter(readings.values()))
    if readings:
        raise AmbiguousMeasureError(word, dict(readings))
    raise _most_useful(failures)


def _readings(word: str) -> tuple[dict[str, list[Measure]], dict[str, MeasureError]]:
    """What each dialect reads ``word`` as, and why the others read nothing."""
    readings: dict[str, list[Measure]] = {}
    failures: dict[str, MeasureError] = {}
    for name, read in DIALECTS.items():
        if name == 'ranx' and not ranx.is_ranx_name(word):
            continue
        try:
            readings[name] = read(word)
        except MeasureError as ex:
            failures[name] = ex
    return readings, failures


def _most_useful(failures: dict[str, MeasureError]) -> MeasureError:
    """The error to show when no dialect reads a word: the one from a dialect that knew the name (and
    found its parameters wrong), else irmetrics' own (with its suggestions)."""
    own = failures['irmetrics']
    if not isinstance(own, (UnknownMeasureError, MeasureSyntaxError)):
        return own                     # irmetrics knows the name: its message is about the parameters
    for name in ('trec_eval', 'ranx'):
        if name in failures and not isinstance(failures[name], UnknownMeasureError):
            return failures[name]
    return own


def parse_measure(text: str | Measure, *, dialect: str | None = None) -> Measure:
    """Parse one measure: ``'nDCG@10'``, ``"P(rel=2)@5"``, ``'ndcg_cut.10'``, ``'ndcg@10'``.

    Parameters
    ----------
    text : str or Measure
        A measure's name in one of the dialects, or a :class:`Measure` (checked to be complete).
    dialect : str or None
        ``'irmetrics'``, ``'trec_eval'``, ``'ranx'``, or None for the default rule (module docstring):
        every dialect reads the word, and the word means what the dialects that read it agree on.

    Returns
    -------
    Measure
        The measure, with its parameters.

    Raises
    ------
    MeasureError
        For syntax errors, invalid parameters and words that name several measures (trec_eval's ``P`` is
        P@5 ... P@1000: see :func:`parse_measures`).
    UnknownMeasureError
        For unknown names (with suggestions).
    AmbiguousMeasureError
        Under the default rule, for a word that two dialects read as different measures (``recall``).

    Examples
    --------
    >>> irmetrics.parse_measure('ndcg_cut.10'), irmetrics.parse_measure('P(rel=2)@5')
    (nDCG@10, P(rel=2)@5)
    """
    if isinstance(text, Measure):
        check_dialect(dialect)
        return text.check_complete()
    if not isinstance(text, str):
        raise MeasureError(f'expected a measure or a measure string, got {type(text).__name__}')
    measures = read_word(text, dialect)
    if len(measures) != 1:
        own = '' if dialect is not None else _readings(text)[1].get('irmetrics')
        why = f' (and in irmetrics\' syntax: {own})' if own else ''
        raise MeasureError(f'{text!r} names {len(measures)} measures ({", ".join(map(repr, measures))}): '
                           f'use parse_measures for several, or name one{why}')
    return measures[0]


def parse_measures(measures: Any, *, dialect: str | None = None) -> list[Measure]:
    """Measures from a measure, a string of one or several words, or an iterable of those.

    Each word is read as :func:`parse_measure` reads it, except that a word may name several measures
    (``'P.5,10'``).  Duplicates are dropped, order is kept; measures given as a set (which has no order:
    Python iterates it in an order that changes with each process's hash seed) are put in one order, by
    their names, so that the columns of results are the same in every process.

    Parameters
    ----------
    measures : str, Measure or iterable of them
        A measure, a string (one or several words, space-separated) or an iterable of those.
    dialect : str or None
        How the words are read, as in :func:`parse_measure`.

    Returns
    -------
    list of Measure
        The measures, each once, in the order given (sorted by name for a set).

    Raises
    ------
    MeasureError
        For what is neither a measure, a string nor an iterable, and for a word :func:`parse_measure`
        refuses for a reason other than naming several measures.

    Examples
    --------
    >>> irmetrics.parse_measures('AP nDCG@10 P.5,10')
    [AP, nDCG@10, P@5, P@10]
    >>> irmetrics.parse_measures(['AP', 'map'])
    [AP]
    >>> irmetrics.parse_measures({'nDCG@10', 'AP', 'R@20'})
    [AP, R@20, nDCG@10]
    """
    check_dialect(dialect)
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    elif not isinstance(measures, Iterable):
        raise MeasureError(f'expected a measure, a measure string or a list of them, not {type(measures).__name__}'
                           f' (e.g. "AP nDCG@10" or [AP, nDCG@10])')
    out: dict[Measure, None] = {}       # a dict, not a list: the first of each measure, found in one step
    for item in _words(measures):
        found = read_word(item, dialect) if isinstance(item, str) else [parse_measure(item)]
        out.update(dict.fromkeys(found))
    return sorted(out, key=repr) if _unordered(measures) else list(out)


def _unordered(measures: Iterable[Any]) -> bool:
    """Whether ``measures`` is a collection without an order of its own: a set (a dict's keys or items keep
    the dict's order)."""
    return isinstance(measures, Set) and not isinstance(measures, (KeysView, ItemsView))


def _words(items: Iterable[Any]) -> Iterable[Any]:
    for item in items:
        if isinstance(item, str):
            yield from irmetrics_syntax.split_measure_list(item)
        else:
            yield item
