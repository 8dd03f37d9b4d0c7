"""The public calculation functions and the reusable :class:`Evaluator`.

The queries evaluated are those of the qrels (trec_eval ``-c``): a qrels query
missing from the run scores its measure's ``missing_value`` (0 for most; NumQ
and NumRel are computed on the empty ranking), queries only in the run are
ignored.  Per-query values aggregate by mean (sum for the counts).  Evaluation
never modifies its inputs.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import errors
from ..data.inputs import to_qrels, to_run
from ..data.qrels import Qrels
from ..errors import DuplicateError, InputError
from . import diagnostics
from .measure import COMPUTED, Measure, bind_evaluation
from .parse import parse_measures
from .provider import PROVIDERS, Prepared
from .results import CalcResults, Metric

MeasuresLike = Any   # a Measure, a measure string, or an iterable of those


class Evaluator:
    """Measures and qrels prepared once, evaluated against any number of runs."""

    def __init__(self, measures: MeasuresLike, qrels: Any, provider: str | None = None, strict: bool = False):
        """``strict=True``: suspicious input (see :mod:`.diagnostics`) is an error, not a warning."""
        self.strict = strict
        with errors.strict(strict):
            self.measures: list[Measure] = parse_measures(measures)
            self.qrels: Qrels = to_qrels(qrels)
            _check_qrels(self.qrels, self.measures)
            diagnostics.check_levels(self.qrels, self.measures)
        self.plan: list[tuple[str, list[Measure], Prepared]] = [
            (p.name, ms, p.prepare(ms, self.qrels)) for p, ms in PROVIDERS.resolve(self.measures, provider)]
        self._query_ids = self.qrels.query_ids.to_list()

    def calc(self, run: Any, duplicates: str = 'error') -> CalcResults:
        """Per-query values and aggregates of ``run``."""
        with errors.strict(self.strict):
            run = to_run(run, duplicates=duplicates)
            present = self.qrels.query_ids.lookup(run.query_ids) >= 0
            diagnostics.check_queries(self.qrels, run, present)
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


def _check_qrels(qrels: Qrels, measures: list[Measure]) -> None:
    """Qrels the measures can be evaluated on: some judgment, and one grade per document for the
    measures that read one (see :meth:`Qrels.from_columns`)."""
    if len(qrels) == 0:
        raise InputError('the qrels hold no judgment: there is no query to evaluate (trec_eval refuses an '
                         'empty qrels file too)', qrels.source)
    one_grade = [m for m in measures if not m.definition.subtopics]
    if qrels.judged_twice is not None and one_grade:
        problem, line = qrels.judged_twice
        raise DuplicateError(f'{problem}: {one_grade[0]!r} reads one grade per document and trec_eval refuses '
                             f'such qrels; if the iterations are subtopics (diversity qrels), read the qrels with '
                             f'duplicates="max" (--qrels-duplicates max) to use each document\'s highest grade',
                             qrels.source, line)


def evaluator(measures: MeasuresLike, qrels: Any, provider: str | None = None, strict: bool = False) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs.

    ``strict=True`` makes suspicious input an error instead of an :class:`~irmetrics.errors.IrmetricsWarning`
    (no run query in the qrels, qrels queries missing from the run, skipped blank lines, ...).
    """
    return Evaluator(measures, qrels, provider, strict)


def calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
         duplicates: str = 'error', strict: bool = False) -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels`` (``strict``: see
    :func:`evaluator`)."""
    return Evaluator(measures, qrels, provider, strict).calc(run, duplicates)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
                   duplicates: str = 'error', strict: bool = False) -> dict[Measure, float]:
    """``{measure: aggregate}``, e.g. ``calc_aggregate([AP, nDCG@10], qrels, run)``."""
    return calc(measures, qrels, run, provider, duplicates, strict).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
              duplicates: str = 'error', strict: bool = False) -> Iterator[Metric]:
    """``Metric(query_id, measure, value)`` for every qrels query and measure."""
    return calc(measures, qrels, run, provider, duplicates, strict).iter_metrics()


bind_evaluation(calc=calc, calc_aggregate=calc_aggregate, iter_calc=iter_calc, evaluator=evaluator)
