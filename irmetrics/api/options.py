"""The options every evaluating function takes, declared once: the fields of :class:`Options`.

Every public function that evaluates runs (``calc`` and its siblings, ``evaluator`` and ``Evaluator``,
``compare``, the risk functions, the functions checking the evaluation, the Dask functions, the
torchmetrics bridge, the curves) takes the measures, the qrels and the run or runs, its own keyword-only
options, and then these, as ``**options``; each field's ``metadata['doc']`` says what it means:

* ``provider``: force one engine (``'native'``, ``'pytrec_eval'``, ...); None lets the registry choose;
* ``duplicates``: a run that retrieves a document twice for a query: ``'error'`` (trec_eval refuses it),
  or keep the ``'first'``, ``'last'`` or ``'max'`` scored occurrence;
* ``items``: what is known of the items (:class:`~irmetrics.Items`), for the measures beyond accuracy;
* ``exclude``: the cells of runs given as arrays that no ranking holds (a users x items matrix);
* ``strict``: suspicious input is an error, not a warning;
* ``dialect``: how measure names are read (``'irmetrics'``, ``'trec_eval'``, ``'ranx'``);
* ``memory_limit``: the memory budget of a run read from a file (bytes or a size such as ``'4G'``);
* ``grades``: ``'real'`` keeps a fractional grade (0.5, 2.7) as a real-valued grade; ``'trec_eval'`` takes
  each grade's integer part, as trec_eval 10 does (docs/conventions.md).

:meth:`Options.of` checks them at run time (an unknown name is a ``TypeError`` naming the accepted ones, a
bad value an :class:`~irmetrics.errors.OptionError`), so no function can drift from the others.
:class:`EvaluationOptions` is the same fields for type checkers (``**options: Unpack[EvaluationOptions]``,
which needs a ``TypedDict``): this module checks when imported that its names and types are the fields'.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ..data.items import Items
from ..data.policies import DUPLICATES, GRADES
from ..errors import OptionError

#: the memory budget of a run: bytes, a size such as ``'4G'``, or None (half of the machine's memory)
MemoryLimit = int | str | None


def _option(default: Any, doc: str) -> Any:
    return field(default=default, metadata={'doc': doc})


@dataclass(frozen=True)
class Options:
    """The shared options, checked, with their defaults: the one declaration of their names."""

    provider: str | None = _option(None, "force one engine ('native', 'pytrec_eval', ...); None: the registry's "
                                         "choice for each measure")
    duplicates: str = _option('error', "a document retrieved twice for a query: 'error', 'first', 'last', 'max'")
    items: Items | None = _option(None, 'what is known of the items (irmetrics.Items), for the measures that '
                                        'read it')
    exclude: Any = _option(None, 'the cells of runs given as arrays that no ranking holds (users x items)')
    strict: bool = _option(False, 'suspicious input is an error, not a warning')
    dialect: str | None = _option(None, "how measure names are read: 'irmetrics', 'trec_eval', 'ranx'")
    memory_limit: MemoryLimit = _option(None, "the memory budget of a run read from a file: bytes or '4G'")
    grades: str = _option('real', "fractional grades: 'real' (kept: real-valued gains) or 'trec_eval' (each "
                                  "grade's integer part, as trec_eval 10 reads them)")

    @classmethod
    def names(cls) -> list[str]:
        """The options' names, in their declared order."""
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def of(cls, options: Mapping[str, Any], function: str) -> Options:
        """The options given to ``function`` (its name, for messages), checked."""
        unknown = sorted(set(options) - set(cls.names()))
        if unknown:
            raise TypeError(f'{function}() got an unexpected keyword argument {unknown[0]!r} (its shared options: '
                            f'{", ".join(sorted(cls.names()))})')
        found = cls(**options)
        DUPLICATES.check(found.duplicates)
        GRADES.check(found.grades)
        if not isinstance(found.strict, bool):
            raise OptionError(f'strict: expected True or False, got {found.strict!r}')
        if found.items is not None and not isinstance(found.items, Items):
            raise OptionError(f'items: expected irmetrics.Items(...), got {type(found.items).__name__}')
        return found

    @classmethod
    def split(cls, given: Mapping[str, Any], function: str) -> tuple[Options, dict[str, Any]]:
        """The shared options among ``given`` (checked), and the others (a bridge's own, for its library)."""
        return (cls.of({k: v for k, v in given.items() if k in cls.names()}, function),
                {k: v for k, v in given.items() if k not in cls.names()})

    def given(self) -> dict[str, Any]:
        """Every option by name: what an :class:`~irmetrics.Evaluator` is built with."""
        return {name: getattr(self, name) for name in self.names()}

    def run_options(self) -> dict[str, Any]:
        """The options :meth:`Evaluator.calc` applies to a run."""
        return {'duplicates': self.duplicates, 'memory_limit': self.memory_limit}


class EvaluationOptions(TypedDict, total=False):
    """The fields of :class:`Options`, for type checkers (see the module docstring)."""

    provider: str | None
    duplicates: str
    items: Items | None
    exclude: Any
    strict: bool
    dialect: str | None
    memory_limit: MemoryLimit
    grades: str


if ({name: getattr(kind, '__forward_arg__', kind) for name, kind in EvaluationOptions.__annotations__.items()}
        != {f.name: f.type for f in dataclasses.fields(Options)}):
    raise TypeError('EvaluationOptions must list the fields of Options, with their types')      # pragma: no cover
