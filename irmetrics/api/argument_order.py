"""One argument order for every evaluating function: the measures, then the qrels, then the run or runs,
then keyword-only options.

Before 1.0, ``compare`` and the functions built on it took the runs first and the measures last, and the risk
functions the run and its baseline first.  :func:`measures_first` wraps such a function so that a call in an
old order is one :class:`~irmetrics.errors.ArgumentOrderError` that says so and shows the call to write,
rather than a confusing error from deep inside (or, worse, an evaluation of the wrong thing).
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from ..data.inputs import looks_like_data
from ..dialects import parse_measures
from ..errors import ArgumentOrderError, MeasureError

P = ParamSpec('P')
R = TypeVar('R')


def measures_first(old: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Wrap an evaluating function whose order before 1.0 was ``old`` (its signature as text, e.g.
    ``'compare(runs, qrels, measures)'``): a call in that order is one error showing the new call."""
    return _ordered(old, _data_before_measures, 'every evaluating function now takes the measures first, then the '
                                                'qrels, then the run(s)')


def qrels_first(old: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Wrap a function of qrels and runs without measures whose order before 1.0 was ``old`` (the runs
    first, e.g. ``'judgment_coverage(runs, qrels, cutoffs)'``): a call in that order is one error showing
    the new call."""
    return _ordered(old, _runs_before_qrels, 'a function of qrels and runs without measures now takes the qrels '
                                             'first, then the run(s)')


def _ordered(old: str, looks_old: Callable[[tuple[Any, ...], dict[str, Any], list[str]], bool],
             order: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The wrapper of :func:`measures_first` and :func:`qrels_first`: a call that ``looks_old`` (given the
    positional arguments, the keyword ones and the names of the positional parameters) is an error
    naming the old order; a call in the new order with an option given by position is told the option
    is keyword-only (never that it is in the old order)."""
    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        options = [p.name for p in signature.parameters.values() if p.kind == p.KEYWORD_ONLY]

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            if looks_old(args, kwargs, positional):
                raise ArgumentOrderError(f'{fn.__name__}: the arguments look to be in the order before 1.0, {old}; '
                                         f'{order}, then keyword-only options: '
                                         f'{fn.__name__}({_new_call(signature)})')
            if len(args) > len(positional):
                extra = ', '.join(f'{n}=...' for n in options[:len(args) - len(positional)]) or 'the others'
                raise ArgumentOrderError(f'{fn.__name__} takes {len(positional)} positional arguments '
                                         f'({", ".join(positional)}) and {len(args)} were given: give {extra} by '
                                         f'keyword: {fn.__name__}({_new_call(signature)})')
            return fn(*args, **kwargs)
        return call
    return wrap


def _data_before_measures(args: tuple[Any, ...], kwargs: dict[str, Any], positional: list[str]) -> bool:
    """Whether the first argument is data (a run or runs) where the measures belong, and the measures come
    later: by position, or by the keyword of their old place (``measure=``), or the call has more positional
    arguments than the new order takes."""
    if not args or not _is_data(args[0]):
        return False
    return len(args) > len(positional) or positional[0] in kwargs or any(_names_measures(a) for a in args[1:])


def _runs_before_qrels(args: tuple[Any, ...], kwargs: dict[str, Any], positional: list[str]) -> bool:
    """Whether the first argument is runs (a list or dict of run inputs) where the qrels belong, and the
    second is not (a single input: the qrels), or is not given at all (``pool(runs, depth=10)``), or the qrels
    come by keyword, or by more positions than the new order takes.  (Qrels given as a dict of dicts are no
    runs: their values are dicts of grades.)"""
    if not args or not _is_runs(args[0]):
        return False
    return (len(args) > len(positional) or positional[0] in kwargs
            or (len(args) > 1 and not _is_runs(args[1])) or (len(args) == 1 and positional[1] not in kwargs))


def _is_runs(obj: Any) -> bool:
    """A non-empty list, tuple or dict of run inputs."""
    if isinstance(obj, (list, tuple)) and obj:
        return all(looks_like_data(item) for item in obj)
    return isinstance(obj, dict) and bool(obj) and all(looks_like_data(v) for v in obj.values())


def _is_data(obj: Any) -> bool:
    return looks_like_data(obj) or _is_runs(obj)


def _names_measures(obj: Any) -> bool:
    if _is_data(obj):
        return False
    try:
        return bool(parse_measures(obj))
    except (MeasureError, TypeError):
        return False


def _new_call(signature: inspect.Signature) -> str:
    """The call as the signature now reads: its positional parameters, then ``...`` for the options."""
    names = [p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p.name for p in signature.parameters.values()
                if p.kind == p.KEYWORD_ONLY and p.default is inspect.Parameter.empty]
    return ', '.join([*names, *(f'{n}=...' for n in required), '...'])
