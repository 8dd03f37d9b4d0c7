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
    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            if len(args) > len(positional) or _swapped(args):
                raise ArgumentOrderError(f'{fn.__name__}: the arguments look to be in the order before 1.0, {old}; '
                                         f'every evaluating function now takes the measures first, then the qrels, '
                                         f'then the run(s), then keyword-only options: '
                                         f'{fn.__name__}({_new_call(signature)})')
            return fn(*args, **kwargs)
        return call
    return wrap


def _swapped(args: tuple[Any, ...]) -> bool:
    """Whether the first argument is data (a run or runs) where the measures belong, and a later one names
    measures."""
    if not args or not _is_data(args[0]):
        return False
    return any(_names_measures(a) for a in args[1:])


def _is_data(obj: Any) -> bool:
    if looks_like_data(obj):
        return True
    if isinstance(obj, (list, tuple)) and obj:
        return all(looks_like_data(item) for item in obj)
    return isinstance(obj, dict) and bool(obj) and all(looks_like_data(v) for v in obj.values())


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
