"""``irmetrics.optimize_fusion``: a fusion method's weights or parameters chosen on held-out queries.

A grid search that chooses the setting on the queries it then reports (ranx's ``optimize_fusion``) reports
an optimistic number: the best of many tries on the test data.  Here the qrels' queries are split into
``folds`` folds (shuffled with ``seed``); for each fold the setting with the best mean on the other folds is
chosen, and the fold's queries are scored with it (k-fold cross-validation by query).  The fused run of the
cross-validated settings (each query fused with the setting chosen without it) is a run like any other:
it goes into :func:`irmetrics.compare` beside its parts, with a paired test over the queries.  The
in-sample choice (the best mean over every query) is reported beside it, labelled as such; ``folds=None``
is that search alone, ranx's.

Fusing a query depends on that query's rankings only, so every setting of the grid is fused and evaluated
once, over every query, and each fold's choice is a mean over some of those per-query values: exactly what
fusing the training queries of each fold again would give.  Among settings of equal mean (to within 1e-12:
a mean's last bit depends on the order of its additions) the later one in the grid is chosen, as ranx
chooses among equal means.
"""
from __future__ import annotations

import itertools
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..api.calc import evaluator
from ..api.results import CalcResults, aggregate
from ..constraints import Int, Option
from ..data.inputs import to_qrels
from ..data.run import Run
from ..errors import IrmetricsWarning, OptionError
from .candidates import Candidates, candidates_of
from .fusing import checked_params, checked_weights, fused_scores, method_named, named_runs, run_of
from .methods import Method
from .normalise import normalised

_FOLDS = Option('folds', Int(minimum=2))
_SEED = Option('seed', Int(minimum=0))
#: the grid of each parameter when none is given (ranx's: 10 to 100 by 10 for RRF's k, 0.01 to 1 by 0.01 else)
DEFAULT_GRIDS: dict[str, list[float]] = {
    'k': [float(k) for k in range(10, 101, 10)],
    'phi': [round(float(x), 2) for x in np.arange(0.01, 1.0, 0.01)],
    'gamma': [round(float(x), 2) for x in np.arange(0.01, 1.01, 0.01)],
    'sigma': [round(float(x), 2) for x in np.arange(0.01, 1.01, 0.01)],
}


def weight_grid(n_runs: int, step: float = 0.1) -> list[tuple[float, ...]]:
    """Every weighting of ``n_runs`` runs by multiples of ``step`` that sums to 1 (ranx's grid: the multiples
    rounded to ``step``'s decimals, the combinations whose float sum is exactly 1.0)."""
    digits = max(len(repr(step).split('.')[-1]), 1) if '.' in repr(step) else 0
    values = [round(float(x), digits) for x in np.arange(0, 1 + step, step)]
    return [w for w in itertools.product(values, repeat=n_runs) if sum(w) == 1.0]


@dataclass(frozen=True)
class FoldChoice:
    """One fold: its held-out queries, the setting chosen on the other folds, that setting's mean on them
    (``train_score``) and on the fold's own queries (``test_score``)."""

    fold: int
    query_ids: list[str]
    setting: dict[str, Any]
    train_score: float
    test_score: float


@dataclass(frozen=True)
class FusionTuning:
    """What :func:`optimize_fusion` found.

    ``settings``: the grid, each a dict of the method's weights and parameters; ``in_sample_scores``: each
    setting's mean over every query; ``in_sample_setting`` and ``in_sample_score``: the best of them
    (optimistic: chosen on the queries it is scored on); ``folds``: each fold's :class:`FoldChoice`;
    ``results``: the per-query values of the cross-validated fused run (``run``), and ``score`` their
    aggregate: the number to report; ``queries``: how many queries the judgments have.
    """

    measure: Any
    method: str
    norm: str | None
    settings: list[dict[str, Any]]
    in_sample_scores: np.ndarray
    in_sample_setting: dict[str, Any]
    in_sample_score: float
    folds: list[FoldChoice]
    results: CalcResults | None
    run: Run
    queries: int

    @property
    def score(self) -> float:
        """The cross-validated score (the in-sample one when ``folds=None``)."""
        if self.results is None:
            return self.in_sample_score
        return aggregate(self.measure, self.results.values[:, 0])

    def to_dataframe(self) -> Any:
        """One row a fold (the fold, its queries, the setting chosen, its training and held-out means), and one
        for the in-sample choice."""
        import pandas as pd
        rows = [{'fold': f.fold, 'queries': len(f.query_ids), 'setting': f.setting, 'train': f.train_score,
                 'held_out': f.test_score} for f in self.folds]
        rows.append({'fold': 'in-sample', 'queries': self.queries, 'setting': self.in_sample_setting,
                     'train': self.in_sample_score, 'held_out': np.nan})
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        lines = [f'<FusionTuning {self.method} (norm={self.norm!r}) for {self.measure}: '
                 f'{len(self.settings)} settings>']
        if self.folds:
            lines.append(f'  cross-validated ({len(self.folds)} folds): {self.score:.4f}')
            lines += [f'    fold {f.fold}: {f.setting}  train {f.train_score:.4f}  held-out {f.test_score:.4f}'
                      for f in self.folds]
        lines.append(f'  in-sample (chosen on the queries it is scored on, optimistic): {self.in_sample_score:.4f} '
                     f'with {self.in_sample_setting}')
        return '\n'.join(lines)


def optimize_fusion(measure: Any, qrels: Any, runs: Any, *, method: str = 'wsum', norm: str | None = 'auto',
                    grid: Any = None, folds: int | None = 5, seed: int = 0, name: str | None = None) -> FusionTuning:
    """A fusion method's weights or parameters chosen by cross-validation over queries (module docstring).

    Parameters
    ----------
    measure : str or Measure
        What is maximised: the mean (the measure's aggregate) of a measure of each query.
    qrels : qrels input
        The judgments; their queries are the ones split into folds.
    runs : list or dict of run inputs
        The runs to fuse (as :func:`irmetrics.fuse`).
    method, norm :
        As :func:`irmetrics.fuse`.
    grid : float, list or dict
        The settings tried: for a weighted method a step (weights by multiples of it summing to 1, 0.1 by
        default) or a list of weightings; for a method with parameters a dict ``{parameter: [values]}``
        (ranx's ranges by default); a dict may also hold ``'weights'``.  Every combination is tried.
    folds : int or None
        The number of folds (at least 2, at most the number of queries); None: the in-sample search alone.
    seed : int
        The seed of the queries' shuffle into folds.
    name : str
        The fused run's name.

    Returns
    -------
    FusionTuning
        The per-fold choices, the cross-validated run and its per-query values, and the in-sample choice.
    """
    m = method_named(method)
    if m.trained:
        raise OptionError(f'{m.name} is trained on judged queries already: optimize_fusion tunes the methods '
                          f'that need no training')
    named = named_runs(runs)
    settings = _settings(m, grid, len(named))
    ev = evaluator([measure], to_qrels(qrels))
    if ev.run_measures:
        raise OptionError(f'{ev.run_measures[0]} is a measure of a whole run: optimize_fusion maximises the mean '
                          f'of a measure of each query')
    (the_measure,) = ev.measures
    candidates = candidates_of(list(named.values()))
    norm = m.default_norm if norm == 'auto' else norm
    normed = normalised(candidates, norm)                # once: the same for every setting
    label = name or f'{m.name} (cross-validated)'

    def scores_of(setting: dict[str, Any]) -> np.ndarray:
        params = {k: v for k, v in setting.items() if k != 'weights'}
        weights = checked_weights(m, setting.get('weights'), len(named))
        return fused_scores(m, candidates, norm, weights, checked_params(m, params), runs=normed)

    per_query = np.array([_values(ev, run_of(candidates, scores_of(s), label), quiet=i > 0)
                          for i, s in enumerate(settings)])
    query_ids = ev.query_ids
    in_sample = np.array([aggregate(the_measure, row) for row in per_query])
    best = _last_best(in_sample)
    if folds is None:
        run = run_of(candidates, scores_of(settings[best]), label)
        return FusionTuning(the_measure, m.name, norm, settings, in_sample, settings[best], float(in_sample[best]),
                            [], None, run, len(query_ids))
    folds = _FOLDS.check(folds)
    if folds > len(query_ids):
        raise OptionError(f'folds={folds}: more folds than the {len(query_ids)} queries of the judgments')
    fold_of = np.random.default_rng(_SEED.check(seed)).permutation(len(query_ids)) % folds
    choices, chosen = [], np.zeros(len(query_ids), dtype=np.int64)
    for f in range(folds):
        held = fold_of == f
        train = np.array([aggregate(the_measure, row[~held]) for row in per_query])
        pick = _last_best(train)
        chosen[held] = pick
        choices.append(FoldChoice(f, [query_ids[i] for i in np.flatnonzero(held)], settings[pick],
                                  float(train[pick]), aggregate(the_measure, per_query[pick, held])))
    run = _cross_validated_run(candidates, query_ids, chosen, scores_of, settings, label)
    values = per_query[chosen, np.arange(len(query_ids))][:, None]
    return FusionTuning(the_measure, m.name, norm, settings, in_sample, settings[best], float(in_sample[best]),
                        choices, CalcResults(list(query_ids), [the_measure], values), run, len(query_ids))


def _values(ev: Any, run: Run, quiet: bool) -> np.ndarray:
    """The measure's value for each of the judgments' queries; the warnings about the run (queries it lacks)
    are the same for every setting, and given once."""
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter('ignore', IrmetricsWarning)
        values: np.ndarray = ev.calc(run).values[:, 0]
    return values


def _last_best(means: np.ndarray) -> int:
    """The last of the greatest means, means within rounding (1e-12) of the greatest counted as equal: a mean
    depends in its last bit on the order its values are added in, and ranx keeps a later setting of equal
    mean."""
    top = means.max()
    return int(np.flatnonzero(means >= top - 1e-12 * max(abs(top), 1.0))[-1])


def _settings(method: Method, grid: Any, n_runs: int) -> list[dict[str, Any]]:
    """Every setting the grid holds, each a dict of the weights and the parameters."""
    axes: dict[str, Sequence[Any]] = {}
    given = dict(grid) if isinstance(grid, Mapping) else ({} if grid is None else {'weights': grid})
    unknown = sorted(set(given) - set(method.params) - ({'weights'} if method.weighted else set()))
    if unknown:
        raise OptionError(f'grid: {method.name} has no {unknown[0]!r} to tune; it takes '
                          f'{", ".join(list(method.params) + (["weights"] if method.weighted else [])) or "nothing"}')
    if method.weighted:
        w = given.get('weights', 0.1)
        axes['weights'] = weight_grid(n_runs, float(w)) if isinstance(w, (int, float)) \
            else [tuple(float(v) for v in x) for x in w]
    for param in method.params:
        axes[param] = list(given.get(param, DEFAULT_GRIDS.get(param, [method.params[param][0]])))
    if not axes:
        raise OptionError(f'{method.name} has no weights or parameters to tune')
    combos = [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]
    if not combos:
        raise OptionError(f'grid: no setting to try for {method.name}')
    return combos


def _cross_validated_run(candidates: Candidates, query_ids: list[str], chosen: np.ndarray, scores_of: Any,
                         settings: list[dict[str, Any]], label: str) -> Run:
    """One run: each query fused with the setting its fold chose."""
    position = {q: i for i, q in enumerate(query_ids)}
    query_of = np.array([position.get(q, -1) for q in candidates.query_ids.to_list()], dtype=np.int64)
    qrels_query = query_of[candidates.query]
    setting_of = np.where(qrels_query >= 0, chosen[np.maximum(qrels_query, 0)], -1)
    scores = np.zeros(len(candidates))
    for pick in np.unique(chosen):
        rows = setting_of == pick
        scores[rows] = scores_of(settings[int(pick)])[rows]
    keep = np.flatnonzero(setting_of >= 0)           # queries without judgments are not part of the run
    kept = Candidates(candidates.query_ids, candidates.query[keep], candidates.doc_ids.take(keep), ())
    return run_of(kept, scores[keep], label)
