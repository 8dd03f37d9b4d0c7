"""Exceptions raised by irmetrics.

Every error a user can cause derives from :class:`IrmetricsError`, so the CLI
can print it as one line without a traceback.  The classes also derive from
the builtin exception a Python user would expect (``ValueError`` for bad
values, ``KeyError``-free lookups, ...), so ``except ValueError`` keeps working.
"""
from __future__ import annotations


class IrmetricsError(Exception):
    """Base class of every error caused by the user's input or request."""


class MeasureError(IrmetricsError, ValueError):
    """A measure string or parameter is invalid (syntax, unknown name, bad value)."""


class UnknownMeasureError(MeasureError):
    """The measure name is not known; the message suggests the closest names."""


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


class DuplicateError(InputError):
    """The same (query, document) pair occurs more than once."""


class UnsupportedMeasureError(IrmetricsError, ValueError):
    """No available provider supports the measure (message names who could)."""


class ProviderError(IrmetricsError, ValueError):
    """A provider is unknown or not installed."""
