"""The provider interface, supported-measure patterns, and the provider registry.

A provider is an engine that computes measures.  It declares, as data, the
parameter patterns it supports (``Pattern(nDCG, cutoff=ANY, gains=ANY)``:
parameters not named must be at their default) and whether its library is
installed.  The registry walks providers in preference order (native first);
``provider=`` forces one.  An unsupported measure is an error that names the
providers that could compute it and how to install them.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..data.qrels import Qrels
from ..data.run import Run
from ..errors import InputError, ProviderError, UnsupportedMeasureError


class _AnyValue:
    def __repr__(self) -> str:
        return 'ANY'


#: In a pattern: any value (or none) is accepted for this parameter.
ANY: Any = _AnyValue()


class Pattern:
    """A measure family and the parameter values a provider accepts for it.

    ``measure`` is the family's bare measure (``nDCG``), so the pattern is keyed by the definition
    itself, never by its spelling.  Each keyword is ``ANY`` or a tuple of accepted values, which must
    list the parameter's default if the default is accepted (:data:`NOT_PROVIDED` included); parameters
    not named must be at their default.  A keyword that is not a parameter of the family, or a listed
    value the parameter refuses, is an error when the pattern is built (at import of the provider).
    """

    def __init__(self, measure: Measure, **accepted: Any):
        self.definition = measure.definition
        for key, rule in accepted.items():
            param = self.definition.param(key)          # MeasureError for a parameter it does not have
            if rule is not ANY:
                for value in rule:
                    if value is not param.default:      # the default (NOT_PROVIDED too) is always valid
                        param.validate(value)
        self.accepted = accepted

    @property
    def name(self) -> str:
        return self.definition.name

    def matches(self, measure: Measure) -> bool:
        """The family, every parameter given named by the pattern, and every parameter the pattern lists
        values for at one of them, the default included (a pattern for ``AP(divisor='num_rel_ret')``
        does not match plain ``AP``, whose divisor is ``'num_rel'``)."""
        if measure.definition is not self.definition:
            return False
        if any(key not in self.accepted for key in measure.params):
            return False
        return all(rule is ANY or measure[key] in rule for key, rule in self.accepted.items())

    def __repr__(self) -> str:
        inner = ','.join(f'{k}={v!r}' for k, v in self.accepted.items())
        return f'{self.name}({inner})' if inner else self.name


class Prepared(ABC):
    """A provider's evaluator for fixed measures and qrels, reusable across runs."""

    @abstractmethod
    def evaluate(self, run: Run) -> Mapping[Measure, np.ndarray | float]:
        """The values of every measure the engine was prepared for, from one reading of ``run``: for a
        measure of one query (scope ``'query'``), its per-query values aligned with the qrels' query ids;
        for a measure of a whole run (scope ``'run'``), its one value.

        Values of queries absent from the run may be anything (the caller fills
        them from the measure definition) unless the definition says they are
        computed (``missing_value is COMPUTED``): then they must be correct.
        """

    # --- capabilities beyond measures: an engine that lacks one says so -------------------------------
    def relevance_strings(self, run: Run, depth: int, judged_only: bool = False) -> list[str]:
        """trec_eval's ``relstring`` of each qrels query (in the qrels' order): one character per
        document of the top ``depth`` of its ranking (of judged documents only with ``judged_only``):
        the grade 0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` judged negative; '' for a query
        missing from the run."""
        raise ProviderError(f'{type(self).__name__} gives no relevance strings')

    def roc_curves(self, run: Run, rel: int, cutoff: int | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each qrels query's ROC curve over its judged documents, ``{query_id: (fpr, tpr)}`` (the
        curve whose area is ``AUC(rel=rel)@cutoff``)."""
        raise ProviderError(f'{type(self).__name__} gives no ROC curves')


class Provider(ABC):
    """An engine that computes measures (see the module docstring)."""

    name: str = ''
    install: str = ''
    description: str = ''
    @property
    def patterns(self) -> Sequence[Pattern]:
        """The parameter patterns of the measures this provider computes."""
        return ()

    def is_available(self) -> bool:
        return True

    def supports(self, measure: Measure) -> bool:
        return any(p.matches(measure) for p in self.patterns)

    @abstractmethod
    def prepare(self, measures: Sequence[Measure], qrels: Qrels) -> Prepared:
        """An evaluator of ``measures`` (all supported) against ``qrels``."""


class ExternalProvider(Provider):
    """A provider wrapping a third-party library, imported on first use (never by ``import irmetrics``).

    Subclasses name the library (``library_name``) and their :class:`Prepared`
    class, built as ``prepared_class(library, measures, qrels)``.
    """

    library_name: str = ''
    prepared_class: type = Prepared

    def __init__(self) -> None:
        self._library: Any = None

    def library(self) -> Any:
        """The imported library (raises ImportError when it is not installed)."""
        if self._library is None:
            import importlib
            self._library = self.configure(importlib.import_module(self.library_name))
        return self._library

    def configure(self, library: Any) -> Any:
        """Adjust the library once after import (default: nothing)."""
        return library

    def is_available(self) -> bool:
        try:
            self.library()
            return True
        except ImportError:
            return False

    def supports(self, measure: Measure) -> bool:
        """As :meth:`Provider.supports`; a real-valued ``rel`` (1.5) is the native provider's alone: the wrapped
        libraries read whole grades and whole thresholds (trec_eval's ``-l`` is read by ``atol``)."""
        return super().supports(measure) and not isinstance(measure.params.get('rel'), float)

    def prepare(self, measures: Sequence[Measure], qrels: Qrels) -> Prepared:
        if qrels.fractional:
            grade = qrels.relevance[np.flatnonzero(qrels.relevance != np.round(qrels.relevance))[0]]
            raise InputError(f'{self.name} reads whole grades only, and the qrels hold a fractional one '
                             f'({float(grade)!r}): the native provider computes real-valued grades; '
                             f'grades=\'trec_eval\' takes each grade\'s integer part, as trec_eval 10 does',
                             qrels.source)
        prepared: Prepared = self.prepared_class(self.library(), measures, qrels)
        return prepared


class ProviderRegistry:
    """Providers in preference order.

    A provider may be registered by the dotted path of its class: its module is
    imported the first time the registry needs the provider, so a job the
    preferred provider covers never imports the others.
    """

    def __init__(self) -> None:
        self._providers: dict[str, Provider | str] = {}

    def register(self, provider: Provider | str, name: str | None = None) -> None:
        """Register a provider, or ``'package.module:Class'`` under ``name`` (imported on first use)."""
        if name is None:
            if isinstance(provider, str):
                raise ValueError(f'a provider registered by path ({provider}) needs a name')
            name = provider.name
        if name in self._providers:
            raise ValueError(f'provider {name} registered twice')
        self._providers[name] = provider

    def _provider(self, name: str) -> Provider:
        entry = self._providers[name]
        if isinstance(entry, str):
            import importlib
            module, _, cls = entry.partition(':')
            entry = getattr(importlib.import_module(module), cls)()
            self._providers[name] = entry
        assert isinstance(entry, Provider)
        return entry

    def __iter__(self) -> Iterator[Provider]:
        return (self._provider(name) for name in list(self._providers))

    def names(self) -> list[str]:
        return list(self._providers)

    def get(self, name: str) -> Provider:
        if name not in self._providers:
            raise ProviderError(f'unknown provider {name!r}; providers: {", ".join(self._providers)}')
        provider = self._provider(name)
        if not provider.is_available():
            raise ProviderError(f'provider {name!r} is not installed; install it with: {provider.install}')
        return provider

    def resolve(self, measures: Iterable[Measure], provider: str | None = None) -> list[tuple[Provider, list[Measure]]]:
        """Which provider computes which measures: the forced one, or the first available that supports each."""
        plan: dict[str, list[Measure]] = {}
        forced = self.get(provider) if provider else None
        for measure in measures:
            chosen = forced if forced is not None and forced.supports(measure) else None
            if forced is None:
                chosen = next((p for p in self if p.supports(measure) and p.is_available()), None)
            if chosen is None:
                raise UnsupportedMeasureError(self._unsupported_message(measure, forced))
            plan.setdefault(chosen.name, []).append(measure)
        return [(self._provider(name), ms) for name, ms in plan.items()]

    def _unsupported_message(self, measure: Measure, forced: Provider | None) -> str:
        capable = [p for p in self if p.supports(measure)]
        head = (f'provider {forced.name!r} does not support {measure!r}' if forced
                else f'{measure!r} is not supported by any installed provider')
        if not capable:
            return f'{head}; no provider supports it'
        parts = [f'{p.name}' + ('' if p.is_available() else f' (not installed: {p.install})') for p in capable]
        return f'{head}; it can be computed by: {", ".join(parts)}'


PROVIDERS = ProviderRegistry()
