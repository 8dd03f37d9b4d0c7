"""Exceptions and warnings raised by irmetrics.

Every error a user can cause derives from :class:`IrmetricsError`, so the CLI
can print it as one line without a traceback.  The classes also derive from
the builtin exception a Python user would expect (``ValueError`` for bad
values, ``KeyError``-free lookups, ...), so ``except ValueError`` keeps working.

Input that is valid but probably not what the user meant (no run query in the
qrels, queries missing from the run, skipped blank lines) gives an
:class:`IrmetricsWarning` through :func:`warn`; inside :func:`strict` it is an
:class:`InputError` instead (``strict=True`` in the API, ``--strict`` in the CLI).
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from types import FrameType


class IrmetricsError(Exception):
    """Base class of every error caused by the user's input or request."""


class MeasureError(IrmetricsError, ValueError):
    """A measure string or parameter is invalid (syntax, unknown name, bad value)."""


class UnknownMeasureError(MeasureError):
    """The measure name is not known; the message suggests the closest names."""


class AmbiguousMeasureError(MeasureError):
    """A measure name that two dialects read as different measures (``recall``: trec_eval's R@5 ...
    R@1000, ranx's SetR).  ``readings`` maps each dialect to what it reads; the message says how to
    choose, in Python (``dialect=``) or, with ``option``, on the command line."""

    def __init__(self, word: str, readings: Mapping[str, Sequence[object]], option: str = ''):
        self.word, self.readings, self.option = word, readings, option
        said = '; '.join(f'{name}: {", ".join(map(repr, ms))}' for name, ms in readings.items())
        choices = ' or '.join(repr(name) for name in readings)
        how = (f'choose with {option} {" or ".join(readings)}' if option else
               f'say which with dialect={choices} (parse_measures, calc, evaluator, ...)')
        super().__init__(f'measure {word!r} names different measures in different dialects ({said}); {how}, '
                         f"or write the measure in irmetrics' syntax")

    def __reduce__(self) -> tuple[type, tuple[str, Mapping[str, Sequence[object]], str]]:
        return type(self), (self.word, self.readings, self.option)


class MeasureSyntaxError(MeasureError):
    """A measure string is not of the syntax of its dialect (a bracket missing, a stray character)."""


class OptionError(IrmetricsError, ValueError):
    """An option of the API or the command line has a value it does not accept (``duplicates='bogus'``)."""


class InputError(IrmetricsError, ValueError):
    """Qrels or run input is malformed.

    ``source`` names the file (or the kind of object), ``line`` the 1-based line
    number when the problem is tied to one line.
    """

    def __init__(self, problem: str, source: str | None = None, line: int | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        where = source or ''
        if line is not None:
            where = f'{where}:{line}' if where else f'line {line}'
        super().__init__(f'{where}: {problem}' if where else problem)

    def __reduce__(self) -> tuple[type, tuple[str, str | None, int | None]]:
        # keep source and line when pickled (an error raised on a worker of a cluster)
        return type(self), (self.problem, self.source, self.line)


class ArgumentOrderError(IrmetricsError, TypeError):
    """An evaluating function called with its arguments in another order than measures, qrels, run(s): the
    message shows the call to write."""


class ComparisonError(IrmetricsError, ValueError):
    """A comparison that cannot be made as asked: fewer than two runs, an unknown baseline, a run given
    twice, or too few paired queries (a bad option value is an :class:`OptionError`)."""


class OutputError(IrmetricsError, OSError):
    """A file irmetrics was asked to write cannot be written, or writing it would destroy something (one of
    the inputs, a directory): the message names the path and the problem."""


class DuplicateError(InputError):
    """The same (query, document) pair occurs more than once."""


class UnsupportedMeasureError(IrmetricsError, ValueError):
    """No available provider supports the measure (message names who could)."""


class ProviderError(IrmetricsError, ValueError):
    """A provider is unknown or not installed."""


class IrmetricsWarning(UserWarning):
    """Input that evaluates, but probably not as meant (see docs/conventions.md, "Warnings")."""


_STRICT: contextvars.ContextVar[bool] = contextvars.ContextVar('irmetrics_strict', default=False)


@contextlib.contextmanager
def strict(enabled: bool = True) -> Iterator[None]:
    """Within this block, :func:`warn` raises an :class:`InputError` instead of warning."""
    token = _STRICT.set(enabled or _STRICT.get())
    try:
        yield
    finally:
        _STRICT.reset(token)


def warn(problem: str, source: str | None = None, line: int | None = None) -> None:
    """Warn about suspicious input (an :class:`InputError` under :func:`strict`), attributed to the
    caller's line outside irmetrics."""
    error = InputError(problem, source, line)
    if _STRICT.get():
        raise error
    warnings.warn(IrmetricsWarning(str(error)), stacklevel=_user_level())


@contextlib.contextmanager
def recorded_warnings() -> Iterator[list[str]]:
    """Within this block, the messages of the :class:`IrmetricsWarning` s raised are collected, in order and
    once each, into the list it gives (filled when the block ends), for a result to carry them; every warning
    is still issued, under the caller's filters, when the block ends."""
    seen: list[str] = []
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as recorded:
            warnings.simplefilter('always')
            try:
                yield seen
            finally:
                caught = list(recorded or ())
    finally:
        seen.extend(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, IrmetricsWarning)))
        for w in caught:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def _user_level() -> int:
    """The stack level of the first frame outside this package, counted from :func:`warn`'s caller."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame: FrameType | None = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level
