"""The public calculation functions and the reusable :class:`Evaluator`.

The queries evaluated are those of the qrels (trec_eval ``-c``): a qrels query
missing from the run scores its measure's ``missing_value`` (0 for most; NumQ
and NumRel are computed on the empty ranking), queries only in the run are
ignored.  Per-query values aggregate by mean (sum for the counts).  Evaluation
never modifies its inputs.
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from . import ids
from .data import Qrels
from .inputs import to_qrels, to_run
from .measure import COMPUTED, Measure
from .parse import parse_measures
from .provider import PROVIDERS, Prepared
from .results import CalcResults, Metric

MeasuresLike = Any   # a Measure, a measure string, or an iterable of those


class Evaluator:
    """Measures and qrels prepared once, evaluated against any number of runs."""

    def __init__(self, measures: MeasuresLike, qrels: Any, provider: str | None = None):
        self.measures: list[Measure] = parse_measures(measures)
        self.qrels: Qrels = to_qrels(qrels)
        self.plan: list[tuple[str, list[Measure], Prepared]] = [
            (p.name, ms, p.prepare(ms, self.qrels)) for p, ms in PROVIDERS.resolve(self.measures, provider)]
        self._query_ids = ids.to_list(self.qrels.query_ids)

    def calc(self, run: Any, duplicates: str = 'error') -> CalcResults:
        """Per-query values and aggregates of ``run``."""
        run = to_run(run, duplicates=duplicates)
        present = ids.lookup(self.qrels.query_ids, run.query_ids) >= 0
        values = np.empty((self.qrels.num_queries, len(self.measures)), dtype=np.float64)
        column = {m: j for j, m in enumerate(self.measures)}
        for _name, measures, prepared in self.plan:
            computed = prepared.evaluate(run)
            for m in measures:
                col = np.asarray(computed[m], dtype=np.float64)
                if m.definition.missing_value is not COMPUTED:
                    col = np.where(present, col, m.definition.missing_value)
                values[:, column[m]] = col
        return CalcResults(self._query_ids, self.measures, values)

    def calc_aggregate(self, run: Any, duplicates: str = 'error') -> dict[Measure, float]:
        """``{measure: aggregate value}`` for ``run``."""
        return self.calc(run, duplicates).aggregated

    def iter_calc(self, run: Any, duplicates: str = 'error') -> Iterator[Metric]:
        """``Metric(query_id, measure, value)`` for every qrels query and measure."""
        return self.calc(run, duplicates).iter_metrics()

    def __repr__(self) -> str:
        plan = '; '.join(f'{name}: {", ".join(map(repr, ms))}' for name, ms, _ in self.plan)
        return f'<Evaluator {plan} on {self.qrels!r}>'


def evaluator(measures: MeasuresLike, qrels: Any, provider: str | None = None) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs."""
    return Evaluator(measures, qrels, provider)


def calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
         duplicates: str = 'error') -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels``."""
    return Evaluator(measures, qrels, provider).calc(run, duplicates)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
                   duplicates: str = 'error') -> dict[Measure, float]:
    """``{measure: aggregate}``, e.g. ``calc_aggregate([AP, nDCG@10], qrels, run)``."""
    return calc(measures, qrels, run, provider, duplicates).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
              duplicates: str = 'error') -> Iterator[Metric]:
    """``Metric(query_id, measure, value)`` for every qrels query and measure."""
    return calc(measures, qrels, run, provider, duplicates).iter_metrics()

