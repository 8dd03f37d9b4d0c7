"""``irmetrics.fuse``: several runs combined into one, by any method of :mod:`.methods` or :mod:`.trained`."""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..constraints import Bool, Int, Option
from ..data.arrays import is_array, is_array_pair
from ..data.inputs import to_run
from ..data.ranking import canonical_order
from ..data.run import Run
from ..data.segments import offsets_of
from ..errors import InputError, OptionError
from .arrays import array_runs, as_matrix
from .candidates import Candidates, Ranked, candidates_of
from .methods import ALIASES, METHODS, Method
from .normalise import normalised

_DEPTH = Option('depth', Int(minimum=1))
_IN_SAMPLE = Option('in_sample', Bool())


def method_named(name: Any) -> Method:
    """The method called ``name`` (a name of :data:`METHODS`, of the trained methods, or an alias)."""
    from .trained import TRAINED
    known = {**METHODS, **TRAINED}
    key = ALIASES.get(name, name) if isinstance(name, str) else name
    if key not in known:
        close = difflib.get_close_matches(str(name), list(known) + list(ALIASES), n=3)
        hint = f' (did you mean {" or ".join(map(repr, close))}?)' if close else ''
        raise OptionError(f'method={name!r} is no fusion method irmetrics knows{hint}: `irmetrics fuse --list` '
                          f'lists them')
    return known[key]


def named_runs(runs: Any) -> dict[str, Run]:
    """The runs to fuse as ``{name: Run}``: a mapping keeps its names, a sequence's runs are named by their
    source (a file's path) or their position."""
    if isinstance(runs, Mapping):
        items = list(runs.items())
    elif isinstance(runs, (list, tuple)):
        items = [(None, run) for run in runs]
    else:
        raise InputError(f'runs: a list of runs (or a dict of named runs) to fuse; got {type(runs).__name__}')
    out: dict[str, Run] = {}
    for i, (name, given) in enumerate(items):
        run = given if isinstance(given, Run) else to_run(given)
        label = str(name) if name is not None else (run.source if run.source not in out and run.source != 'run'
                                                     else f'run {i + 1}')
        if len(run) == 0:
            raise InputError(f'run {label!r} ranks no document: there is nothing of it to fuse')
        out[label] = run
    if len(out) < 2:
        raise InputError(f'fusing takes two runs or more; got {len(out)}')
    return out


def checked_params(method: Method, params: Mapping[str, Any]) -> dict[str, Any]:
    """The method's parameters: the given ones checked, the others at their defaults."""
    unknown = sorted(set(params) - set(method.params))
    if unknown:
        takes = ', '.join(f'{k}={d!r}' for k, (d, _) in method.params.items()) or 'no parameter'
        raise OptionError(f'{method.name} has no parameter {unknown[0]!r}: it takes {takes}')
    return {k: (check(k, params[k], 'parameter of ' + method.name, OptionError) if k in params else default)
            for k, (default, check) in method.params.items()}


def checked_weights(method: Method, weights: Any, n: int) -> np.ndarray | None:
    """One weight a run (non-negative, finite, not all 0; equal weights 1/n when not given), or None for a
    method without weights."""
    if not method.weighted:
        if weights is not None:
            weighted = sorted(name for name, m in METHODS.items() if m.weighted)
            raise OptionError(f'{method.name} takes no weights; the weighted methods are {", ".join(weighted)}')
        return None
    if weights is None:
        return np.full(n, 1 / n)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError(f'weights: one number a run; got {weights!r}') from None
    if w.ndim != 1 or len(w) != n:
        raise OptionError(f'weights: one number for each of the {n} runs; got {w.size}')
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise OptionError(f'weights: finite numbers >= 0, not all 0; got {w.tolist()}')
    return w


def fuse(runs: Any, *, method: str = 'rrf', norm: str | None = 'auto', weights: Any = None,
         depth: int | None = None, name: str | None = None, train: Any = None, in_sample: bool = False,
         **params: Any) -> Any:
    """The runs combined into one :class:`~irmetrics.Run` by a fusion method (arrays into one score matrix).

    Parameters
    ----------
    runs : list or dict of run inputs
        Two runs or more, each anything :func:`irmetrics.read_trec_run` or ``calc`` takes (paths, DataFrames,
        dicts, :class:`~irmetrics.Run` s); a dict names them.  Or two arrays or more of the same users (score
        matrices, top-k arrays, ``(items, scores)`` pairs; numpy or torch): see :mod:`irmetrics.fusion.arrays`.
    method : str
        One of ``irmetrics fuse --list`` (ranx's names: ``'rrf'``, ``'wsum'``, ``'comb_mnz'``, ...).
    norm : str or None
        How each run's scores for a query are normalised first: ``'min-max'``, ``'min-max-inverted'``,
        ``'max'``, ``'sum'``, ``'zmuv'``, ``'rank'``, ``'borda'``, or None for the scores as given; ``'auto'``:
        none for the methods that read only ranks (RRF, ISR, RBC, Borda, Condorcet), min-max for the others.
    weights : sequence of float
        One weight a run (in the runs' order) for the weighted methods (``wsum``, ``mixed``, ``wmnz``,
        ``w_bordafuse``, ``w_condorcet``); equal weights when not given.
    depth : int
        Keep this many documents of each fused ranking (all when not given); arrays are also ranked only this
        deep before they are fused (the fusion of each retriever's top ``depth``).
    name : str
        The fused run's name (the method's by default).
    train : (qrels, runs)
        The training data of a trained method (``posfuse``, ``probfuse``, ``segfuse``, ``slidefuse``,
        ``bayesfuse``, ``mapfuse``; :mod:`irmetrics.fusion.trained`): the judgments of training queries and
        the same systems' runs on them, as many as ``runs`` and in their order (or a dict with their names).
    in_sample : bool
        Let a trained method fuse its own training queries (refused by default: estimates from a query's own
        judgments make the fusion of that query look better than it is).
    **params
        The method's parameters (``k=60`` for RRF, ``phi`` for RBC, ``gamma``, ``sigma``, ...).

    Returns
    -------
    Run
        Per query, every document of any of the runs with its fused score, ranked by trec_eval's rule; for
        arrays, a users x items score matrix in the first array's library and device (``-inf``: not ranked).
    """
    m = method_named(method)
    arrays = _arrays(runs)
    if arrays is not None:
        parts, library, users, width = array_runs(arrays, None if depth is None else _DEPTH.check(depth))
        fused = fuse(parts, method=method, norm=norm, weights=weights, depth=depth, name=name, train=train,
                     in_sample=in_sample, **params)
        return as_matrix(fused, library, users, width)
    named = named_runs(runs)
    chosen = checked_params(m, params)
    w = checked_weights(m, weights, len(named))
    if depth is not None:
        depth = _DEPTH.check(depth)
    candidates = candidates_of(list(named.values()))
    scores = fused_scores(m, candidates, m.default_norm if norm == 'auto' else norm, w, chosen, train, list(named),
                          _IN_SAMPLE.check(in_sample))
    out = run_of(candidates, scores, name or m.name)
    return out if depth is None else out.top(depth)


def _arrays(runs: Any) -> list[Any] | None:
    """The runs when every one is an array (score matrix, top-k array, ``(items, scores)`` pair), else None;
    arrays beside runs of named queries are an error (an item index is no document id)."""
    values = list(runs.values()) if isinstance(runs, Mapping) else list(runs) if isinstance(runs, (list, tuple)) else []
    kinds = [is_array(v) or is_array_pair(v) for v in values]
    if values and all(kinds):
        return values
    if any(kinds):
        raise InputError('fuse arrays with arrays (score matrices, top-k arrays), and runs of named queries with '
                         'runs: write the arrays as runs first (irmetrics.to_run) to fuse them with other runs')
    return None


def fused_scores(method: Method, candidates: Candidates, norm: str | None, weights: np.ndarray | None,
                 params: dict[str, Any], train: Any = None, names: list[str] | None = None,
                 in_sample: bool = False, runs: tuple[Ranked, ...] | None = None) -> np.ndarray:
    """Every candidate's fused score by ``method`` after ``norm`` (``runs``: the candidates' runs normalised so
    already, where the caller fuses them several times)."""
    runs = normalised(candidates, norm) if runs is None else runs
    if method.trained:
        from .trained import trained_scores
        return trained_scores(method, candidates, runs, norm, params, train, names or [], in_sample)
    elif train is not None or in_sample:
        raise OptionError(f'{method.name} needs no training: give train= and in_sample= only to a trained method')
    return method.combine(candidates, runs, weights if weights is not None else np.zeros(0), params)


def run_of(candidates: Candidates, scores: np.ndarray, source: str) -> Run:
    """The candidates as a :class:`~irmetrics.Run` with ``scores``, ranked by trec_eval's rule."""
    order = canonical_order(candidates.query, scores, candidates.doc_ids)
    return Run(candidates.query_ids, candidates.query, candidates.doc_ids, scores, order,
               offsets_of(candidates.query[order], candidates.num_queries), source)
