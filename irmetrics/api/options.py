"""The options every evaluating function takes, declared once.

Every public function that evaluates runs (``calc`` and its siblings, ``evaluator``, ``compare``, the
risk functions, the functions checking the evaluation) takes the measures, the qrels and the run or
runs, its own keyword-only options, and then these, as ``**options``:

* ``provider``: force one engine (``'native'``, ``'pytrec_eval'``, ...); None lets the registry choose;
* ``duplicates``: a run that retrieves a document twice for a query: ``'error'`` (trec_eval refuses it),
  or keep the ``'first'``, ``'last'`` or ``'max'`` scored occurrence;
* ``items``: what is known of the items (:class:`~irmetrics.Items`), for the measures beyond accuracy;
* ``exclude``: the cells of runs given as arrays that no ranking holds (a users x items matrix);
* ``strict``: suspicious input is an error, not a warning;
* ``dialect``: how measure names are read (``'irmetrics'``, ``'trec_eval'``, ``'ranx'``);
* ``memory_limit``: the memory budget of a run read from a file (bytes or a size such as ``'4G'``).

:class:`EvaluationOptions` types them for type checkers (``**options: Unpack[EvaluationOptions]``);
:meth:`Options.of` checks them at run time (an unknown name is a ``TypeError`` naming the accepted
ones, a bad value an :class:`~irmetrics.errors.OptionError`), so no function can drift from the others.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from ..data.items import Items
from ..data.policies import DUPLICATES
from ..errors import OptionError
from .evaluator import Evaluator, MemoryLimit


class EvaluationOptions(TypedDict, total=False):
    """The shared keyword options (see the module docstring)."""

    provider: str | None
    duplicates: str
    items: Items | None
    exclude: Any
    strict: bool
    dialect: str | None
    memory_limit: MemoryLimit


@dataclass(frozen=True)
class Options:
    """The shared options, checked, with their defaults."""

    provider: str | None = None
    duplicates: str = 'error'
    items: Items | None = None
    exclude: Any = None
    strict: bool = False
    dialect: str | None = None
    memory_limit: MemoryLimit = None

    @classmethod
    def of(cls, options: Mapping[str, Any], function: str) -> Options:
        """The options given to ``function`` (its name, for messages), checked."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise TypeError(f'{function}() got an unexpected keyword argument {unknown[0]!r} (its shared options: '
                            f'{", ".join(sorted(names))})')
        found = cls(**options)
        DUPLICATES.check(found.duplicates)
        if not isinstance(found.strict, bool):
            raise OptionError(f'strict: expected True or False, got {found.strict!r}')
        if found.items is not None and not isinstance(found.items, Items):
            raise OptionError(f'items: expected irmetrics.Items(...), got {type(found.items).__name__}')
        return found

    def evaluator(self, measures: Any, qrels: Any) -> Evaluator:
        """An :class:`~irmetrics.Evaluator` of ``measures`` against ``qrels`` with these options."""
        return Evaluator(measures, qrels, **self.evaluator_options())

    def evaluator_options(self) -> dict[str, Any]:
        """The options an :class:`~irmetrics.Evaluator` is built with (the others apply to each run)."""
        return {'provider': self.provider, 'strict': self.strict, 'dialect': self.dialect, 'items': self.items,
                'exclude': self.exclude}

    def run_options(self) -> dict[str, Any]:
        """The options :meth:`Evaluator.calc` applies to a run."""
        return {'duplicates': self.duplicates, 'memory_limit': self.memory_limit}
