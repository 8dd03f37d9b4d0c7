"""How much of a score is tie order: each measure in trec_eval's order, its expectation over every order of the
tied documents, and its lowest and highest value over those orders, per query and over the run.

Documents with equal scores may be ranked in any order: trec_eval puts them by document id (descending),
other tools otherwise, and so the same run gets different numbers.  :func:`tie_dependence` says how much:

* ``expected``: the measure with ``ties='expected'``, the exact mean over every order of the tied documents
  (McSherry and Najork, ECIR 2008); NaN for the families without a closed form;
* ``lowest`` / ``highest``: the measure on the run with its tied documents ordered worst first (lower grades,
  then unjudged documents, above higher grades) and best first.  For every family whose ``tie_order`` is
  ``'expected'`` or ``'monotone'`` these are the exact minimum and maximum over the tie orders: ranking a
  document of a higher grade above one of a lower grade never moves such a measure the other way, so
  sorting each tie group by grade reaches both ends (checked by enumerating the orders in the tests).
  NaN for the families where that is not known, and for gain maps that do not grow with the grade.

No order is enumerated: four evaluations of the run (as given, expected, best first, worst first).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..algebra.measure import Measure
from ..api.calc import evaluator as build_evaluator
from ..api.evaluator import Evaluator
from ..data.inputs import to_run
from ..data.judged_pairs import judgment_rows
from ..data.qrels import Qrels
from ..data.ranking import tie_starts
from ..data.run import Run
from ..errors import MeasureError

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..api.options import EvaluationOptions
from ..rendering.result import Table, Tabled, frame_of

#: The families whose lowest and highest values over tie orders the best-first and worst-first orders give.
_ORDERED = ('irrelevant', 'expected', 'monotone')


@dataclass(frozen=True)
class TieDependence(Tabled):
    """The result of :func:`tie_dependence`: per query (rows in the qrels' order) and measure, the value in
    trec_eval's order, the expectation over tie orders and the lowest and highest value over them.

    ``value``, ``expected``, ``lowest`` and ``highest`` are arrays of shape (queries, measures).
    """

    query_ids: list[str]
    measures: list[Measure]
    value: np.ndarray
    expected: np.ndarray
    lowest: np.ndarray
    highest: np.ndarray

    @property
    def depends(self) -> np.ndarray:
        """Per query and measure, whether the value depends on the order of tied documents."""
        return self.highest > self.lowest

    def summary(self) -> dict[Measure, dict[str, float]]:
        """Per measure: the mean in trec_eval's order, the expected mean, the lowest and highest mean over
        tie orders, their difference (``spread``) and the share of queries whose value depends on tie order
        (NaN where the lowest and highest are unknown)."""
        out = {}
        with np.errstate(invalid='ignore'):
            for i, m in enumerate(self.measures):
                known = not np.isnan(self.lowest[:, i]).all()
                low, high = np.nanmean(self.lowest[:, i]) if known else np.nan, \
                    np.nanmean(self.highest[:, i]) if known else np.nan
                out[m] = {'value': float(np.nanmean(self.value[:, i])),
                          'expected': float(np.nanmean(self.expected[:, i])) if not np.isnan(self.expected[:, i]).all()
                          else np.nan,
                          'lowest': float(low), 'highest': float(high), 'spread': float(high - low),
                          'queries_tied': float(np.mean(self.depends[:, i])) if known else np.nan}
        return out

    def table(self, *, by_query: bool = False) -> Table:
        """One row per measure (the :meth:`summary`), or with ``by_query`` one per query and measure: query_id,
        measure, value, expected, lowest, highest."""
        if by_query:
            nq, nm = self.value.shape
            columns = ['query_id', 'measure', 'value', 'expected', 'lowest', 'highest']
            names = [str(m) for m in self.measures]
            rows = [[q, names[j], *(float(a[i, j]) for a in (self.value, self.expected, self.lowest, self.highest))]
                    for i, q in enumerate(self.query_ids) for j in range(nm)]
            return Table(columns, rows, numeric_from=2)
        columns = ['measure', 'trec_eval', 'expected', 'lowest', 'highest', 'spread', 'queries_tied']
        return Table(columns, [[str(m), *s.values()] for m, s in self.summary().items()])

    def to_dataframe(self, *, by_query: bool = True) -> Any:
        """One row per query and measure: query_id, measure, value, expected, lowest, highest (``by_query=False``:
        the summary, one row per measure)."""
        return frame_of(self.table(by_query=by_query))

    def to_dict(self) -> dict[str, Any]:
        """``{measure: {value, expected, lowest, highest, spread, queries_tied}}`` (the :meth:`summary`)."""
        return {str(m): s for m, s in self.summary().items()}

    def __repr__(self) -> str:
        return f'TieDependence({len(self.query_ids)} queries, {len(self.measures)} measures)\n{self.render()}'


def tie_dependence(measures: Iterable[Any] | Any, qrels: Any, run: Any,
                   **options: Unpack[EvaluationOptions]) -> TieDependence:
    """How much of each measure's value is the order of tied documents.

    Each measure in trec_eval's order, its expectation over every order of the tied documents (NaN for the
    families without a closed form), and its lowest and highest value over those orders (see the module
    docstring), per query and over the run.  No order is enumerated: the run is evaluated four times.

    Parameters
    ----------
    measures : str, Measure or list of them
        As :func:`irmetrics.calc` takes them, measures of one query each.  A measure given with
        ``ties='expected'`` is read as the same measure in trec_eval's order.
    qrels : any qrels input
        The judgments, as :func:`irmetrics.calc` takes them.
    run : any run input
        The run whose ties are examined.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    TieDependence
        Per query and measure: ``value`` (trec_eval's order), ``expected``, ``lowest`` and ``highest``.

    Raises
    ------
    MeasureError
        For a measure of a whole run.

    Examples
    --------
    >>> found = irmetrics.tie_dependence(['AP', 'P@10'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    >>> print(found.render())
    measure  trec_eval  expected  lowest  highest  spread  queries_tied
    AP          0.4087    0.4067  0.3938   0.4201  0.0263        1.0000
    P@10        0.4900    0.4900  0.4900   0.4900  0.0000        0.0000
    <BLANKLINE>
    """
    kwargs = options
    ev = build_evaluator(measures, qrels, **kwargs)
    if len(ev.measures) != len(ev.all_measures):
        other = next(m for m in ev.all_measures if m not in ev.measures)
        raise MeasureError(f'tie_dependence takes measures of one query at a time; {other} is a measure of '
                           f'{other.definition.scope!r} scope')
    base = [m(ties='trec_eval') for m in ev.measures]
    if base != ev.measures:
        ev = build_evaluator(base, ev.qrels, **kwargs)
    run = to_run(run, duplicates=ev.duplicates)
    value = _values(ev, run)
    with_form = [m for m in base if m.definition.tie_order in ('irrelevant', 'expected')]
    expected = np.full_like(value, np.nan)
    if with_form:
        got = _values(build_evaluator([m(ties='expected') for m in with_form], ev.qrels, **kwargs), run)
        expected[:, [base.index(m) for m in with_form]] = got
    lowest, highest = (_values(ev, _ordered_by_grade(run, ev.qrels, best)) for best in (False, True))
    grades = np.unique(ev.qrels.relevance)
    unknown = [i for i, m in enumerate(base) if not _extremes_known(m, grades)]
    lowest[:, unknown] = highest[:, unknown] = np.nan
    return TieDependence(ev.qrels.query_ids.to_list(), base, value, expected,
                         np.fmin(lowest, highest), np.fmax(lowest, highest))


def _values(ev: Evaluator, run: Run) -> np.ndarray:
    return np.array(ev.calc(run).values, dtype=np.float64)


def _extremes_known(measure: Measure, grades: np.ndarray) -> bool:
    """Whether the best-first and worst-first orders give the measure's extremes: a family known to be
    monotone in the grades, with gains (if mapped) that do not fall as the grade grows."""
    if measure.definition.tie_order not in _ORDERED:
        return False
    gains = measure['gains'] if measure.definition.has_param('gains') else None
    if not isinstance(gains, tuple):
        return True
    mapped = dict(gains)
    values = [mapped.get(g, max(g, 0)) for g in grades.tolist()]     # a fractional grade keeps its value
    return all(a <= b for a, b in zip(values, values[1:], strict=False))


def _ordered_by_grade(run: Run, qrels: Qrels, best: bool) -> Run:
    """``run`` with each tie group ordered by grade (highest first when ``best``; unjudged documents rank as
    below every grade), else in trec_eval's order; scores replaced by distinct ones giving that order."""
    rows = judgment_rows(qrels, run.query_ids, run.qidx, run.doc_ids)
    unjudged = float(qrels.relevance.min(initial=0)) - 1.0
    grade = np.where(rows >= 0, qrels.relevance[np.maximum(rows, 0)], unjudged)
    n = len(run.scores)
    position = np.empty(n, dtype=np.int64)
    position[run.order] = np.arange(n)
    group = (np.cumsum(tie_starts(run.scores, run.order, run.offsets)) - 1)[position]
    order = np.lexsort((position, -grade if best else grade, group))
    scores = np.empty(n, dtype=np.float64)
    scores[order] = -np.arange(n, dtype=np.float64)        # descending along the new order
    return Run.from_columns(run.query_ids.take(run.qidx), run.doc_ids, scores, source=run.source)
