"""The measure algebra: definitions (data) and immutable measure values.

A :class:`MeasureDef` declares a measure family once: its name, typed
parameters, which parameter ``@`` sets, the value of a query missing from the
run, how per-query values aggregate, its formula and citation.  A
:class:`Measure` is a definition plus validated parameter values, with one
canonical identity: parameters sorted by name and defaults dropped, so
``P(rel=2,judged_only=True)@5 == P(judged_only=True,rel=2)@5`` and
``nDCG@10 == nDCG(cutoff=10)``.  ``repr`` round-trips through
:func:`irmetrics.parse_measure`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..constraints import Int
from ..errors import MeasureError, UnknownMeasureError
from .params import NOT_PROVIDED, REQUIRED, TIES, Param

#: Value of a query that is in the qrels but absent from the run, for measures
#: that are computed on the empty ranking instead (NumQ, NumRel: trec_eval -c).
COMPUTED = None

#: Value of a query for which a measure is undefined (e.g. Accuracy without a relevant document
#: retrieved).  Measures whose definition sets ``skips_undefined`` leave such queries out of the
#: per-query results and of the aggregate, as ir_measures' accuracy provider does.
UNDEFINED = math.nan


#: What a measure's value is computed from (:attr:`MeasureDef.scope`).  ``'query'``: one query's ranking
#: and judgments, a value per query, aggregated over the queries (nearly every measure); ``'run'``: a whole
#: run at once, one value per run that is not a mean over queries (catalogue coverage, the Gini index of
#: recommended items).
SCOPES = ('query', 'run')

#: How a family's values depend on the order of documents with equal scores (:attr:`MeasureDef.tie_order`).
#: ``'irrelevant'``: they do not (set measures, counts); ``'expected'``: the exact expectation over every
#: order of the tied documents has a closed form, which ``ties='expected'`` computes; ``'monotone'``: no
#: closed form of the expectation is known, but ranking a document of a higher grade above one of a lower
#: grade never moves the value the other way, so the orders that put the higher grades first and last
#: give its lowest and highest values; ``'unknown'``: none of these is known.  Both ``'expected'`` and
#: ``'monotone'`` families are monotone in that sense (tested by enumerating tie orders).
TIE_ORDERS = ('irrelevant', 'expected', 'monotone', 'unknown')


@dataclass(frozen=True, eq=False)
class MeasureDef:
    """Declaration of a measure family (see module docstring).

    ``missing_value`` is what a qrels query absent from the run scores
    (``COMPUTED``: evaluate it as an empty ranking).  ``aggregate`` is ``'mean'``
    or ``'sum'``; a family with an ``agg`` parameter lets each measure choose (see
    :attr:`Measure.aggregation`).  ``bounds`` is the range every per-query value lies in, or
    ``None`` if unbounded.  ``formula`` and ``citation`` feed the generated docs.
    ``skips_undefined``: the measure is undefined (:data:`UNDEFINED`, NaN) on some
    queries, and those queries are left out of the per-query results and of the mean.
    ``check`` validates combinations of parameters: it receives the explicitly set
    parameters and raises :class:`MeasureError` when they cannot go together.
    ``subtopics``: the measure reads every judgment of a document, one per subtopic (the qrels'
    iteration column); the others read one grade per document.
    ``scope``: what a value is computed from (:data:`SCOPES`): one query's ranking (the default), or
    a whole run; an engine computes both from one reading of a run
    (:meth:`~irmetrics.providers.base.Prepared.evaluate`).
    ``items``: what the measure reads of the items beyond the judgments ('popularity', 'users',
    'features'), given as :class:`irmetrics.Items` to the evaluation.
    ``tie_order``: how its values depend on the order of tied documents (:data:`TIE_ORDERS`); every family
    that ranks documents takes the parameter ``ties``, and ``ties='expected'`` is refused where the family has
    no closed form.  ``ranks``: False for a family whose values are not computed from a ranking (the RAG
    measures, from nugget assignments): it has no tied documents, so no parameter ``ties``.
    ``reads_to_cutoff``: a measure of the family with an integer cutoff ``k`` that ranks every document
    (not ``judged_only``) reads only the first ``k`` of each ranking, so a ranking cut at ``k`` gives
    the same value (:attr:`Measure.depth`; true of every built-in family, and tested for each).
    ``monotone``: a query's value can only grow when the grade of a ranked document grows, and the family
    reads no judgment beyond the grades of the ranked documents (no R, no count of judged documents), at
    its default parameters; so its values with the unjudged documents taken as non-relevant and as
    relevant bound its value under any judgment of them (:func:`irmetrics.unjudged_bounds`).
    """

    name: str
    params: tuple[Param, ...]
    summary: str
    formula: str
    citation: str = ''
    notes: str = ''
    at_param: str | None = 'cutoff'
    missing_value: float | None = 0.0
    aggregate: str = 'mean'
    bounds: tuple[float, float] | None = (0.0, 1.0)
    higher_is_better: bool = True
    skips_undefined: bool = False
    check: Callable[[Mapping[str, Any]], None] | None = None
    subtopics: bool = False
    scope: str = 'query'
    reads_to_cutoff: bool = True
    items: tuple[str, ...] = ()
    tie_order: str = 'unknown'
    monotone: bool = False
    ranks: bool = True
    _index: dict[str, Param] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.ranks and not any(p.name == TIES.name for p in self.params):
            object.__setattr__(self, 'params', (*self.params, TIES))
        self._index.update({p.name: p for p in self.params})
        if self.tie_order not in TIE_ORDERS:
            raise TypeError(f'{self.name}: tie_order {self.tie_order!r} is not one of {", ".join(TIE_ORDERS)}')
        if self.at_param is not None and self.at_param not in self._index:
            raise TypeError(f'{self.name}: at_param {self.at_param!r} is not a parameter')
        if self.scope not in SCOPES:
            raise TypeError(f'{self.name}: scope {self.scope!r} is not one of {", ".join(SCOPES)}')

    def has_param(self, name: str) -> bool:
        return name in self._index

    def param(self, name: str) -> Param:
        try:
            return self._index[name]
        except KeyError:
            known = ', '.join(sorted(self._index)) or 'none'
            raise MeasureError(f'{self.name} has no parameter {name!r} (parameters: {known})') from None

    @property
    def bare(self) -> Measure:
        """The measure with every parameter at its default."""
        return Measure(self, ())


class Measure:
    """An immutable, hashable measure value such as ``nDCG@10`` or ``P(rel=2)@5``.

    Build new measures with call syntax for parameters and ``@`` for the
    at-parameter (the cutoff; the recall level for ``IPrec``).  Read a parameter
    with ``measure['cutoff']`` (its default when not given).
    """

    __slots__ = ('definition', '_params', '_key')
    definition: MeasureDef
    _params: tuple[tuple[str, Any], ...]
    _key: tuple[str, tuple[tuple[str, Any], ...]]

    def __init__(self, definition: MeasureDef, params: tuple[tuple[str, Any], ...]):
        object.__setattr__(self, 'definition', definition)
        object.__setattr__(self, '_params', params)
        object.__setattr__(self, '_key', (definition.name, params))

    # --- construction ---------------------------------------------------------------------
    def __call__(self, **kwargs: Any) -> Measure:
        values = dict(self._params)
        for name, value in kwargs.items():
            param = self.definition.param(name)
            values[name] = param.validate(value)
        params = _canonical(self.definition, values)
        if values.get(TIES.name) == 'expected' and self.definition.tie_order not in ('irrelevant', 'expected'):
            raise MeasureError(f"{self.definition.name}(ties='expected'): no exact expectation over the orders of tied "
                               f'documents is known for {self.definition.name}; measures with one: '
                               f'{", ".join(_families_with_expectation())}')
        if self.definition.check is not None:
            self.definition.check(dict(params))
        return Measure(self.definition, params)

    def __matmul__(self, value: Any) -> Measure:
        at = self.definition.at_param
        if at is None:
            raise MeasureError(f'{self.definition.name} takes no @ parameter')
        return self(**{at: value})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('Measure objects are immutable; use call syntax to derive a new one')

    # --- access ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.definition.name

    NAME = name  # ir_measures spelling

    @property
    def params(self) -> dict[str, Any]:
        """The explicitly set (non-default) parameters."""
        return dict(self._params)

    def __getitem__(self, name: str) -> Any:
        for key, value in self._params:
            if key == name:
                return value
        return self.definition.param(name).default

    @property
    def aggregation(self) -> str:
        """How per-query values aggregate: ``'mean'``, ``'gmean'`` (the ``agg`` parameter) or ``'sum'``."""
        aggregation: str = self['agg'] if self.definition.has_param('agg') else self.definition.aggregate
        return aggregation

    @property
    def depth(self) -> int | None:
        """How many documents of each ranking the measure reads: its cutoff when its family reads only up
        to it (:attr:`MeasureDef.reads_to_cutoff`) and it ranks every document in trec_eval's order; None (all)
        otherwise (with ``ties='expected'`` the documents tied with the k-th count, however far they go)."""
        d = self.definition
        if not d.reads_to_cutoff or not d.has_param('cutoff') or self['ties'] == 'expected':
            return None
        cutoff = self['cutoff']
        judged_only = d.has_param('judged_only') and self['judged_only']
        return cutoff if isinstance(cutoff, int) and not isinstance(cutoff, bool) and not judged_only else None

    def missing_required(self) -> list[str]:
        return [p.name for p in self.definition.params if p.default is REQUIRED and p.name not in self.params]

    def check_complete(self) -> Measure:
        """Raise :class:`MeasureError` if a required parameter is missing."""
        missing = self.missing_required()
        if missing:
            raise MeasureError(f'{self!r} needs parameter(s) {", ".join(missing)} (e.g. {self._completed(missing)})')
        return self

    def _completed(self, missing: list[str]) -> str:
        """This measure written with its ``missing`` parameters: ``N`` for an integer (``Coverage(catalogue=N)@10``),
        ``...`` for another value, 10 for a cutoff written after ``@``."""
        d = self.definition
        placeholders = {name: 'N' if isinstance(d.param(name).constraint, Int) else '...' for name in missing}
        inner = sorted([f'{k}={d.param(k).constraint.repr_value(v)}' for k, v in self._params if k != d.at_param]
                       + [f'{k}={v}' for k, v in placeholders.items() if k != d.at_param])
        at = '10' if d.at_param in placeholders else self[d.at_param] if d.at_param else NOT_PROVIDED
        return d.name + (f'({",".join(inner)})' if inner else '') + (f'@{at}' if at is not NOT_PROVIDED else '')

    # --- identity -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Measure) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        d = self.definition
        inner = ','.join(f'{k}={d.param(k).constraint.repr_value(v)}'
                         for k, v in self._params if k != d.at_param)
        text = d.name + (f'({inner})' if inner else '')
        at = self[d.at_param] if d.at_param else NOT_PROVIDED
        if at is not NOT_PROVIDED and at is not REQUIRED:
            text += f'@{at}'
        return text

    __str__ = __repr__

    def __lt__(self, other: Measure) -> bool:
        return repr(self) < repr(other)

    def __reduce__(self) -> tuple[Callable[..., Measure], tuple[str, tuple[tuple[str, Any], ...]]]:
        return _rebuild, (self.definition.name, self._params)

    # --- convenience: evaluate this one measure ------------------------------------------
    # As ir_measures' measures do, these call the public package when called: the algebra never
    # imports the API room (irmetrics.api) that is built on it, and registers nothing with it.
    def calc_aggregate(self, qrels: Any, run: Any, **kwargs: Any) -> float:
        """``irmetrics.calc_aggregate([self], qrels, run)[self]``."""
        import irmetrics
        value: float = irmetrics.calc_aggregate([self], qrels, run, **kwargs)[self]
        return value

    def iter_calc(self, qrels: Any, run: Any, **kwargs: Any) -> Iterator[Any]:
        """``irmetrics.iter_calc([self], qrels, run)``: a ``Metric`` per query."""
        import irmetrics
        return irmetrics.iter_calc([self], qrels, run, **kwargs)

    def calc(self, qrels: Any, run: Any, **kwargs: Any) -> Any:
        """``irmetrics.calc([self], qrels, run)``: a ``CalcResults``."""
        import irmetrics
        return irmetrics.calc([self], qrels, run, **kwargs)

    def evaluator(self, qrels: Any, **kwargs: Any) -> Any:
        """``irmetrics.evaluator([self], qrels)``: an ``Evaluator`` reusable across runs."""
        import irmetrics
        return irmetrics.evaluator([self], qrels, **kwargs)


def _families_with_expectation() -> list[str]:
    return sorted(d.name for d in REGISTRY.definitions() if d.tie_order in ('irrelevant', 'expected'))


def _rebuild(name: str, params: tuple[tuple[str, Any], ...]) -> Measure:
    """The measure ``name`` with ``params`` (unpickling)."""
    return REGISTRY.lookup(name)(**dict(params))


def _canonical(definition: MeasureDef, values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Sorted (name, value) pairs without the parameters equal to their default."""
    def is_default(name: str, value: Any) -> bool:
        default = definition.param(name).default
        return type(value) is type(default) and value == default

    return tuple(sorted((k, v) for k, v in values.items() if not is_default(k, v)))


# --- the registry of definitions and aliases ------------------------------------------------
class MeasureRegistry:
    """Every measure definition and alias known to irmetrics, by name."""

    def __init__(self) -> None:
        self._defs: dict[str, MeasureDef] = {}
        self._aliases: dict[str, Measure] = {}
        self._other: dict[str, MeasureDef] = {}
        self._plugins_loaded = False

    def register(self, definition: MeasureDef,
                 aliases: Mapping[str, Mapping[str, Any]] | Iterable[str] = ()) -> Measure:
        """Register a definition (and aliases, optionally with preset parameters); return its bare measure."""
        if definition.name in self._defs or definition.name in self._aliases:
            raise ValueError(f'measure {definition.name} defined twice')
        self._defs[definition.name] = definition
        bare = definition.bare
        if not isinstance(aliases, Mapping):
            aliases = {a: {} for a in aliases}
        for alias, preset in aliases.items():
            self.alias(alias, bare(**preset))
        return bare

    def register_other(self, definition: MeasureDef) -> Measure:
        """Register a measure of other judgments than qrels (preferences, judgment groups): known by name, so
        that its measures parse and print back, but not among :meth:`definitions`, which engines compute
        from qrels; return its bare measure."""
        if definition.name in self:
            raise ValueError(f'measure {definition.name} defined twice')
        self._other[definition.name] = definition
        return definition.bare

    def remove(self, name: str) -> None:
        """Forget a definition and its aliases (used to redefine a custom measure)."""
        self._defs.pop(name, None)
        for alias in [a for a, m in self._aliases.items() if m.name == name]:
            del self._aliases[alias]

    def alias(self, name: str, measure: Measure) -> None:
        if name in self:
            raise ValueError(f'measure name {name} registered twice')
        self._aliases[name] = measure

    def lookup(self, name: str) -> Measure:
        """The bare measure (or alias preset) for ``name``; unknown names suggest the closest ones."""
        if name in self._defs:
            return self._defs[name].bare
        if name in self._aliases:
            return self._aliases[name]
        if name in self._other:
            return self._other[name].bare
        if self.load_plugins():
            return self.lookup(name)
        raise UnknownMeasureError(f'unknown measure {name!r}{self.suggest(name)}')

    def load_plugins(self) -> bool:
        """Import, once, the modules that register custom measures; True if any was imported.

        They are the entry points of group ``irmetrics.measures`` of installed packages and the
        modules named in the environment variable ``IRMETRICS_PLUGINS`` (comma-separated), so a
        measure defined with ``irmetrics.define`` there is known to the CLI too.
        """
        if self._plugins_loaded:
            return False
        self._plugins_loaded = True
        import importlib
        import os
        from importlib.metadata import entry_points
        loaded = False
        for ep in entry_points(group='irmetrics.measures'):
            ep.load()
            loaded = True
        for module in filter(None, (m.strip() for m in os.environ.get('IRMETRICS_PLUGINS', '').split(','))):
            try:
                importlib.import_module(module)
            except ImportError as ex:
                raise MeasureError(f'cannot import plugin module {module!r} (IRMETRICS_PLUGINS): {ex}') from None
            loaded = True
        return loaded

    def suggest(self, name: str) -> str:
        import difflib
        names = list(self._aliases) + list(self._defs)
        folded = {n.lower(): n for n in names}          # a definition's own name wins over an alias (NDCG)
        close = []
        if name.lower() in folded:
            close.append(folded[name.lower()])
        close += [folded[c] for c in difflib.get_close_matches(name.lower(), list(folded), n=4, cutoff=0.5)]
        close = list(dict.fromkeys(close))[:4]
        return f'; did you mean {", ".join(close)}?' if close else ''

    def definitions(self) -> list[MeasureDef]:
        return list(self._defs.values())

    def aliases(self) -> dict[str, Measure]:
        return dict(self._aliases)

    def __contains__(self, name: str) -> bool:
        return name in self._defs or name in self._aliases or name in self._other


REGISTRY = MeasureRegistry()
register = REGISTRY.register
