"""Custom measures: user functions registered as measures, usable wherever a built-in one is.

    >>> @irmetrics.define(name='TopRel', params=('cutoff', 'rel'))
    ... def top_rel(qrels, run, cutoff, rel):          # one query: its Qrel rows, its ranked ScoredDoc rows
    ...     grades = {q.doc_id: q.relevance for q in qrels}
    ...     return float(any(grades.get(d.doc_id, 0) >= rel for d in run[:cutoff]))
    >>> irmetrics.calc_aggregate(['TopRel(rel=3)@5', 'Success(rel=3)@5'], 'examples/qrels.txt',
    ...                          'examples/run_bm25.txt')
    {'TopRel(rel=3)@5': 0.9, 'Success(rel=3)@5': 0.9}

A definition goes into the measure registry (so ``parse_measure`` and the CLI know its name) and
its computation into the native engine's kernel table (:mod:`irmetrics.providers.native.custom`).
The per-query form receives, for each query of the qrels present in the run, the query's qrels rows
(``Qrel``) and run rows (``ScoredDoc``, in irmetrics' ranking order: score descending, docno
descending); ``vectorized=True`` functions receive the native
:class:`~irmetrics.providers.native.table.RankedTable` instead and return one value per qrels query.  Parameters are
passed as keyword arguments (``None`` when an optional one is not given).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..algebra.measure import COMPUTED, REGISTRY, MeasureDef
from ..algebra.params import CUTOFF, GAINS, JUDGED_ONLY, P_PERSISTENCE, REL, Param
from ..constraints import Bool, Constraint, Float, Int
from ..errors import MeasureError
from ..providers.native.custom import forget_kernel, register_kernel

#: Shared parameters a custom measure can name instead of declaring.
SHARED_PARAMS = {p.name: p for p in (CUTOFF, REL, JUDGED_ONLY, GAINS, P_PERSISTENCE)}
_CUSTOM: set[str] = set()


def define(fn: Callable[..., Any] | None = None, *, name: str,
           params: Iterable[Param | str] | dict[str, Any] = (),
           vectorized: bool = False, summary: str = '', formula: str = '', citation: str = '',
           notes: str = '', missing_value: float | None = 0.0, aggregate: str = 'mean',
           bounds: tuple[float, float] | None = None, higher_is_better: bool = True,
           skips_undefined: bool = False, aliases: Iterable[str] = ()) -> Any:
    """Register ``fn`` as measure ``name`` and return the bare :class:`Measure` (or a decorator).

    The measure is then usable wherever a built-in one is, by name too (:func:`parse_measure` and the
    command line know it).  A custom measure may be defined again under the same name (e.g. in a
    notebook); a built-in one may not.

    Parameters
    ----------
    fn : callable or None
        ``fn(qrels_rows, run_rows, **params) -> float``, called once per query with the query's ``Qrel``
        rows and its ranked ``ScoredDoc`` rows; with ``vectorized=True``, ``fn(table, **params) -> array``
        once per run.  None: return a decorator that defines the function it decorates.
    name : str
        The measure's name.
    params : iterable of Param or str, or dict
        :class:`Param` objects, names of shared parameters (``'cutoff'`` — settable with ``@`` —,
        ``'rel'``, ``'judged_only'``, ``'gains'``, ``'p'``) or a ``{name: default}`` mapping (typed by the
        default: bool, int or float).
    vectorized : bool
        ``fn`` takes the native engine's ranked table of the whole run and returns one value per qrels
        query.
    summary : str
        One line describing the measure (default: the first line of ``fn``'s docstring).
    formula : str
        The formula, for the measure's description.
    citation : str
        Where the measure is defined.
    notes : str
        Anything else a reader of the measure's description should know.
    missing_value : float or None
        The value of a qrels query absent from the run (``None``: call ``fn`` with no run rows).
    aggregate : str
        How per-query values aggregate: ``'mean'`` or ``'sum'``.
    bounds : tuple of two floats or None
        The range every per-query value lies in, or None if unbounded.
    higher_is_better : bool
        Whether a higher value means a better ranking.
    skips_undefined : bool
        ``fn`` may return NaN for a query where the measure is undefined; such queries are left out of
        the per-query results and of the mean.
    aliases : iterable of str
        Other names of the measure.

    Returns
    -------
    Measure or callable
        The measure without parameters set, or, when ``fn`` is None, a decorator that returns it.

    Raises
    ------
    MeasureError
        For the name of a built-in measure, an unknown shared parameter, or a default whose type cannot
        be inferred.

    Examples
    --------
    >>> def first_grade(qrels, run):                # the grade of the first document retrieved
    ...     grades = {q.doc_id: q.relevance for q in qrels}
    ...     return float(grades.get(run[0].doc_id, 0)) if run else 0.0
    >>> FirstGrade = irmetrics.define(first_grade, name='FirstGrade')
    >>> irmetrics.calc_aggregate([FirstGrade, 'RR'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    {'FirstGrade': 2.0, 'RR': 0.85}
    """
    if fn is None:
        return lambda f: define(f, name=name, params=params, vectorized=vectorized, summary=summary,
                                formula=formula, citation=citation, notes=notes, missing_value=missing_value,
                                aggregate=aggregate, bounds=bounds, higher_is_better=higher_is_better,
                                skips_undefined=skips_undefined, aliases=aliases)
    declared = _params(params)
    if name in REGISTRY and name not in _CUSTOM:
        raise MeasureError(f'{name} is a built-in measure name; choose another name for a custom measure')
    if name in _CUSTOM:
        _forget(name)
    definition = MeasureDef(
        name=name, params=declared,
        summary=summary or (fn.__doc__ or '').strip().split('\n')[0] or f'custom measure {name}',
        formula=formula or f'computed by {getattr(fn, "__qualname__", repr(fn))}',
        citation=citation, notes=notes,
        at_param='cutoff' if any(p.name == 'cutoff' for p in declared) else None,
        missing_value=COMPUTED if missing_value is None else missing_value,
        aggregate=aggregate, bounds=bounds, higher_is_better=higher_is_better, skips_undefined=skips_undefined,
        reads_to_cutoff=False)          # nothing is known of what ``fn`` reads
    bare = REGISTRY.register(definition, aliases=list(aliases))
    register_kernel(definition, fn, vectorized=vectorized, call_missing=missing_value is None)
    _CUSTOM.add(name)
    return bare


def undefine(name: str) -> None:
    """Forget the custom measure ``name`` (built-in measures cannot be removed)."""
    if name not in _CUSTOM:
        raise MeasureError(f'{name} is not a custom measure')
    _forget(name)
    _CUSTOM.discard(name)


def _forget(name: str) -> None:
    """Remove the custom measure ``name``'s definition and its kernel."""
    forget_kernel(REGISTRY.lookup(name).definition)
    REGISTRY.remove(name)


def custom_measures() -> list[str]:
    """Names of the custom measures defined in this process."""
    return sorted(_CUSTOM)


def _params(params: Iterable[Param | str] | dict[str, Any]) -> tuple[Param, ...]:
    if isinstance(params, dict):
        return tuple(_typed(k, v) for k, v in params.items())
    out = []
    for p in params:
        if isinstance(p, Param):
            out.append(p)
        elif p in SHARED_PARAMS:
            out.append(SHARED_PARAMS[p])
        else:
            raise MeasureError(f'unknown shared parameter {p!r} (shared: {", ".join(SHARED_PARAMS)}); '
                               f'declare it with irmetrics.algebra.params.Param')
    return tuple(out)


def _typed(name: str, default: Any) -> Param:
    constraint: Constraint
    if isinstance(default, bool):
        constraint = Bool()
    elif isinstance(default, int):
        constraint = Int()
    elif isinstance(default, float):
        constraint = Float()
    else:
        raise MeasureError(f'cannot infer the type of parameter {name!r} from {default!r}; declare a Param')
    return Param(name, constraint, default, f'{name} (default {default!r})')
