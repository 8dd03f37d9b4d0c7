"""A regression gate for CI: a run against the per-query values stored from an earlier evaluation.

The stored result is irmetrics' own JSON (``irmetrics QRELS RUN -m MEASURES -q -f json``): each
query's value of each measure.  The new run is evaluated on the same measures, paired query by query
with the stored values (the queries both have), and compared by a paired test as :func:`.compare`
compares two runs, the stored values as the baseline.  A measure fails the gate when the run is
significantly worse on it (after the correction, and never where the exact randomisation test could
not be: see :mod:`.small_samples`), or, with ``margin``, when its mean dropped by more than
``margin`` whatever the test says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .base import ComparisonError, Evaluator, Measure, Options, measures_first, parse_measures
from .comparison import Comparison, build_comparison
from .settings import Settings

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .base import EvaluationOptions


@dataclass(frozen=True)
class GateVerdict:
    """One measure's outcome: the stored and new means, the difference, the corrected p-value, and
    whether it failed and why (``'worse'``: significantly; ``'margin'``: dropped by more than it)."""

    measure: Measure
    stored: float
    new: float
    delta: float
    p_adjusted: float
    failed: str | None


@dataclass(frozen=True)
class GateResult:
    verdicts: tuple[GateVerdict, ...]
    comparison: Comparison
    paired_queries: int

    @property
    def passed(self) -> bool:
        return not any(v.failed for v in self.verdicts)


def stored_values(document: dict[str, Any], source: str) -> tuple[str, list[str], dict[str, dict[str, float]]]:
    """(run name, measure strings, per-query values) of irmetrics' JSON of one run evaluated with ``-q``."""
    runs = document.get('runs') if isinstance(document, dict) else None
    if not isinstance(runs, list) or not runs:
        raise ComparisonError(f'{source}: not irmetrics\' JSON of an evaluation (no "runs"): write it with '
                              f'irmetrics QRELS RUN -m MEASURES -q -f json')
    if len(runs) > 1:
        raise ComparisonError(f'{source} holds {len(runs)} runs ({", ".join(repr(r.get("run")) for r in runs)}): '
                              f'store one run to gate against')
    per_query = runs[0].get('per_query')
    if not isinstance(per_query, dict) or not per_query:
        raise ComparisonError(f'{source} holds no per-query values: write it with -q (irmetrics QRELS RUN -m '
                              f'MEASURES -q -f json)')
    return str(runs[0].get('run', 'stored')), list(document.get('measures', [])), per_query


@measures_first('gate(run, qrels, stored, measures)')
def gate(measures: Any, qrels: Any, run: Any, *, stored: dict[str, dict[str, float]], test: str = 't',
         alpha: float = 0.05, correction: str | None = 'holm', margin: float | None = None,
         name: str = 'run', stored_name: str = 'stored', **options: Unpack[EvaluationOptions]) -> GateResult:
    """Gate ``run`` against ``stored`` per-query values (``{query_id: {measure string: value}}``) on
    ``measures`` (see the module docstring); ``correction`` over the measures (Holm by default);
    ``options``: the shared options (:mod:`irmetrics.api.options`)."""
    if margin is not None and not margin >= 0:
        raise ComparisonError(f'the margin must be a number >= 0, not {margin!r}')
    given = Options.of(options, 'gate')
    chosen = parse_measures(measures, dialect=given.dialect)
    evaluator = Evaluator(chosen, qrels, **given.given())
    results = evaluator.calc(run)
    index = [i for i, q in enumerate(results.query_ids) if q in stored]
    qids = [results.query_ids[i] for i in index]
    if len(qids) < 2:
        raise ComparisonError(f'the stored values and the qrels share {len(qids)} query: the gate needs two or more')
    old = _stored_matrix(stored, qids, evaluator.measures)
    settings = Settings.checked(test, correction, 'all', alpha, 0.95, 't', 10000, 0)
    cmp = build_comparison([stored_name, name], evaluator.measures, qids, np.stack([old, results.values[index]]),
                           stored_name, settings)
    verdicts = [_verdict(cmp, j, test, margin) for j in range(len(evaluator.measures))]
    return GateResult(tuple(verdicts), cmp, len(qids))


def _stored_matrix(stored: dict[str, dict[str, float]], qids: list[str], measures: list[Measure]) -> np.ndarray:
    """The stored values of ``measures`` on the queries ``qids`` (queries x measures, None as NaN), each stored
    measure name read once; a measure not stored is refused."""
    stored_key = {str(parse_measures(key)[0]): key for key in stored[qids[0]]}
    missing = [str(m) for m in measures if str(m) not in stored_key]
    if missing:
        raise ComparisonError(f'the stored values have no {missing[0]!r}: gate on the measures they hold')
    keys = [stored_key[str(m)] for m in measures]
    return np.array([[np.nan if stored[q][k] is None else stored[q][k] for k in keys] for q in qids])


def _verdict(cmp: Comparison, j: int, test: str, margin: float | None) -> GateVerdict:
    """The verdict on measure ``j`` of ``cmp`` (the stored run against the new): failed when worse and
    significantly so, or worse by more than ``margin``."""
    m = cmp.measures[j]
    delta = float(cmp.delta[0, j])
    worse = delta < 0 if m.definition.higher_is_better else delta > 0
    failed = ('worse' if worse and cmp.significant[test][0, j] else
              'margin' if margin is not None and worse and abs(delta) > margin else None)
    return GateVerdict(m, float(cmp.mean[0, j]), float(cmp.mean[1, j]), delta, float(cmp.p_adjusted[test][0, j]),
                       failed)
