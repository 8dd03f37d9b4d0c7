"""Result types: one per-query value, and a whole evaluation's results.

:class:`CalcResults` renders to pandas (tidy and wide per-query DataFrames; pandas is imported
only then) and, through :mod:`irmetrics.rendering`, to every format the command line prints;
:class:`MeasureValues` (the aggregates) is a table of measures and values, rendered as every other
result's table is (:class:`~irmetrics.rendering.result.Tabled`).
"""
from __future__ import annotations

import html
import math
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from ..algebra.measure import Measure
from ..algebra.params import GEOMETRIC_MEAN_FLOOR
from ..constraints import Choice, Option
from ..rendering.evaluation import RENDERERS, SUMMARY_QID, Options, RunResults
from ..rendering.formats import FORMATS, checked_places
from ..rendering.markup import html_table
from ..rendering.result import Table, Tabled
from ..rendering.text import text_table
from ..rendering.values import format_value, json_number, json_value

#: The ``format`` of :meth:`CalcResults.render`.
FORMAT = Option('format', Choice(*FORMATS))


class Metric(NamedTuple):
    """The value of one measure for one query."""
    query_id: str
    measure: Measure
    value: float


class QueryValues(NamedTuple):
    """Per-query values of some of an evaluator's queries: ``codes`` index the qrels' query ids
    (ascending), ``values`` has one row per code and one column per measure.  What one part of a
    run (a chunk, a partition) evaluates to; :meth:`~irmetrics.Evaluator.combine` joins the parts."""
    codes: np.ndarray
    values: np.ndarray


def aggregate(measure: Measure, values: np.ndarray) -> float:
    """Aggregate per-query values as the measure says (:attr:`Measure.aggregation`): the mean, the
    geometric mean of the values floored at :data:`GEOMETRIC_MEAN_FLOOR`, or the sum (counts).

    The mean of no queries is NaN (nothing was evaluated); a sum of none is 0.  Queries where a
    measure that ``skips_undefined`` is undefined (NaN) are left out.
    """
    if measure.definition.skips_undefined:
        values = values[~np.isnan(values)]
    how = measure.aggregation
    if how == 'sum':
        total = float(values.sum())
        return int(total) if total.is_integer() else total
    if not len(values):
        return math.nan
    if how == 'gmean':
        return float(np.exp(np.log(np.maximum(values, GEOMETRIC_MEAN_FLOOR)).mean()))
    return float(values.mean())


class MeasureValues(dict[str, Any], Tabled):
    """One value per measure: a dict keyed by each measure's canonical name (``'nDCG@10'``), so that it goes
    as it is to ``json.dumps`` and to a logger (TensorBoard, MLflow, Lightning's ``log_dict``), which also
    finds a value by its :class:`Measure` or by any string that names the measure, in any dialect:
    ``values[nDCG@10]``, ``values['ndcg_cut_10']``, ``values['ndcg_cut.10']``, ``values['map']``.  It equals a
    dict keyed by the measures (as ir_measures' ``calc_aggregate`` returns) holding the same values.

    A string that is no measure, names several (``'P.5,10'``) or a measure not evaluated is a
    ``KeyError`` saying which.  :attr:`measures` gives the measures, :meth:`by_measure` a dict keyed by them.

    It renders as every result does: :meth:`render` (a table of ``measure, value`` in every format of
    :data:`~irmetrics.rendering.formats.FORMATS`), :meth:`to_dataframe` and :meth:`to_dict`; ``str()`` stays a
    dict's, as ir_measures' is.
    """

    def __init__(self, values: Mapping[Measure, Any] | Iterable[tuple[Measure, Any]] = ()):
        pairs = list(values.items() if isinstance(values, Mapping) else values)
        super().__init__((str(m), v) for m, v in pairs)
        self._measures = {str(m): m for m, _ in pairs}

    @property
    def measures(self) -> list[Measure]:
        """The measures, in order."""
        return [self._measures[name] for name in self]

    def by_measure(self) -> dict[Measure, Any]:
        """The values keyed by :class:`Measure`."""
        return {self._measures[name]: value for name, value in self.items()}

    def table(self) -> Table:
        """A row per measure, ``measure, value`` (a count an integer), rendered by :meth:`render` and
        :meth:`to_dataframe`.

        Examples
        --------
        >>> print(irmetrics.calc_aggregate(['AP', 'NumRet'], 'examples/qrels.txt', 'examples/run_bm25.txt').render())
        measure   value
        AP       0.4087
        NumRet      500
        <BLANKLINE>
        """
        return Table(['measure', 'value'], [[name, value] for name, value in self.items()])

    def to_dict(self) -> dict[str, Any]:
        """The values as a plain dict keyed by the measures' names, NaN and infinities as None (as JSON holds
        them), ready for ``json.dumps``."""
        return {name: json_number(value, None) for name, value in self.items()}

    __str__ = dict.__repr__

    def __getitem__(self, key: str | Measure) -> Any:
        if isinstance(key, str) and dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return dict.__getitem__(self, self._name_of(key))

    def __contains__(self, key: object) -> bool:
        try:
            self._name_of(key)
        except KeyError:
            return False
        return True

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return dict.__getitem__(self, self._name_of(key))
        except KeyError:
            return default

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self) == {str(k) if isinstance(k, Measure) else k: v for k, v in other.items()}
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # a dict: unhashable (Tabled, an object, is hashable)

    def __reduce__(self) -> tuple[type, tuple[list[tuple[Measure, Any]]]]:
        return MeasureValues, (list(self.by_measure().items()),)

    def _name_of(self, key: Any) -> str:
        if isinstance(key, Measure):
            if dict.__contains__(self, str(key)):
                return str(key)
            raise KeyError(f'{key} was not evaluated (the measures: {", ".join(self)})')
        if not isinstance(key, str):
            raise KeyError(key)
        if dict.__contains__(self, key):
            return key
        from ..dialects import parse_measures
        from ..errors import MeasureError
        try:
            named = parse_measures(key)
        except MeasureError as ex:
            raise KeyError(f'{key!r}: {ex}') from None
        if len(named) != 1:
            raise KeyError(f'{key!r} names {len(named)} measures ({", ".join(map(str, named))}): look up one')
        if not dict.__contains__(self, str(named[0])):
            raise KeyError(f'{key!r} is {named[0]}, which was not evaluated (the measures: {", ".join(self)})')
        return str(named[0])


def _json_column(measure: Measure, values: np.ndarray) -> list[Any]:
    """A column of per-query values as :func:`~irmetrics.rendering.values.json_value` gives each (``places``
    None): None where not finite, an int where a count is whole, else the float."""
    finite = np.isfinite(values)
    column = values.astype(object)
    if measure.definition.aggregate == 'sum':
        whole = finite & (values == np.round(values))
        column[whole] = values[whole].astype(np.int64).astype(object)
    column[~finite] = None
    out: list[Any] = column.tolist()
    return out


class CalcResults:
    """Per-query values of several measures (a query x measure matrix) and their aggregates.

    A plain result: built once by the evaluator, immutable (its matrix is read-only), rendered by
    :mod:`irmetrics.rendering`: ``print(results)`` (the aggregates), :meth:`render` (every format, as the
    command line prints them), :meth:`to_dataframe`, :meth:`to_dict` (and in notebooks).
    Unpacks like ir_measures' ``CalcResults``: ``aggregated, per_query = results``.
    """

    __slots__ = ('query_ids', 'measures', 'values', 'run_values')
    query_ids: list[str]
    measures: list[Measure]
    values: np.ndarray
    run_values: Mapping[Measure, float]

    def __init__(self, query_ids: list[str], measures: list[Measure], values: np.ndarray,
                 run_values: Mapping[Measure, float] | None = None):
        """``values``: query x measure; ``run_values``: the measures of a whole run (not per query),
        one value each, which :attr:`aggregated` lists after the others."""
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (len(query_ids), len(measures)):
            raise ValueError(f'values of shape {values.shape} for {len(query_ids)} queries x {len(measures)} measures')
        values.flags.writeable = False
        fields = (('query_ids', query_ids), ('measures', measures), ('values', values),
                  ('run_values', MappingProxyType(dict(run_values or {}))))
        for name, value in fields:
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('CalcResults are immutable: evaluate again to change them')

    def __reduce__(self) -> tuple[type, tuple[list[str], list[Measure], np.ndarray, dict[Measure, float]]]:
        return CalcResults, (self.query_ids, self.measures, np.array(self.values), dict(self.run_values))

    @property
    def aggregated(self) -> MeasureValues:
        """Each measure's aggregate (:class:`MeasureValues`: keyed by the measure's name, found by the measure
        too, or by any string naming it)."""
        return MeasureValues(self.aggregate_items())

    def aggregate_items(self) -> list[tuple[Measure, float]]:
        """(measure, aggregate) of each per-query measure, then each measure of the whole run."""
        return [*((m, aggregate(m, self.values[:, j])) for j, m in enumerate(self.measures)),
                *self.run_values.items()]

    @property
    def per_query(self) -> list[Metric]:
        return list(self.iter_metrics())

    def iter_metrics(self) -> Iterator[Metric]:
        """Every (query, measure) value, except where a measure that skips undefined queries is undefined;
        then each measure of the whole run (Coverage, Gini) as one value of the query ``'all'`` (as the
        aggregates' lines of trec_eval and ir_measures are)."""
        n_m = len(self.measures)
        kept = self._defined().ravel()
        query_ids = np.repeat(np.array(self.query_ids, dtype=object), n_m)[kept].tolist()
        measures = np.tile(np.array(self.measures + [None], dtype=object)[:n_m], len(self.query_ids))[kept].tolist()
        yield from map(Metric, query_ids, measures, self.values.ravel()[kept].tolist())
        for m, v in self.run_values.items():
            yield Metric(SUMMARY_QID, m, v)

    def _defined(self) -> np.ndarray:
        """Which (query, measure) values are given (:meth:`iter_metrics`): all but the undefined (NaN) values of
        the measures that skip undefined queries."""
        skips = np.array([m.definition.skips_undefined for m in self.measures], dtype=bool)
        defined: np.ndarray = ~(np.isnan(self.values) & skips)
        return defined

    def __iter__(self) -> Iterator[Any]:
        return iter((self.aggregated, self.per_query))

    # --- renderers ---------------------------------------------------------------------------
    def to_dataframe(self, *, wide: bool = False, run: str | None = None) -> Any:
        """Per-query values as a pandas DataFrame, measures labelled by their string (``'nDCG@10'``).

        Parameters
        ----------
        wide : bool
            False (default): a tidy frame, columns ``query_id, measure, value``, one row per (query,
            measure), without the rows :meth:`iter_metrics` leaves out, then a row of query ``'all'`` for
            each measure of the whole run (Coverage, Gini), as :meth:`iter_metrics` gives them.  True: one
            row per query (index ``query_id``), one column per measure, NaN where a measure is undefined; a
            measure of the whole run is a column of its own, its value on a last row ``'all'`` (NaN on the
            queries' rows, as the per-query measures are on that row).
        run : str or None
            Labels the rows with a run name (a first ``run`` column; in the wide frame an index level), so
            the frames of several runs concatenate: ``pd.concat([ev.calc(r).to_dataframe(run=n) for ...])``.

        Returns
        -------
        pandas.DataFrame
            The values, tidy or wide.

        Examples
        --------
        >>> results = irmetrics.calc(['P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt')
        >>> results.to_dataframe().head(2)
          query_id measure  value
        0      401     P@5    0.8
        1      402     P@5    0.4
        """
        import pandas as pd
        names = [str(m) for m in self.measures]
        whole = list(self.run_values.items())
        if wide:
            values, query_ids = np.array(self.values), list(self.query_ids)
            if whole:
                values = np.block([[values, np.full((len(query_ids), len(whole)), np.nan)],
                                   [np.full((1, len(names)), np.nan), np.array([[v for _, v in whole]])]])
                query_ids.append(SUMMARY_QID)
            frame = pd.DataFrame(values, columns=names + [str(m) for m, _ in whole],
                                 index=pd.Index(query_ids, name='query_id'))
            frame.columns.name = 'measure'
            if run is not None:
                frame = pd.concat({run: frame}, names=['run'])
            return frame
        n_q, n_m = self.values.shape
        keep = self._defined().ravel()
        columns = {
            'query_id': np.concatenate((np.repeat(np.array(self.query_ids, dtype=object), n_m)[keep],
                                        np.full(len(whole), SUMMARY_QID, dtype=object))),
            'measure': np.concatenate((np.tile(np.array(names, dtype=object), n_q)[keep],
                                       np.array([str(m) for m, _ in whole], dtype=object))),
            'value': np.concatenate((self.values.ravel()[keep], np.array([v for _, v in whole], dtype=np.float64))),
        }
        if run is not None:
            columns = {'run': np.full(len(columns['value']), run, dtype=object), **columns}
        return pd.DataFrame(columns)

    def render(self, format: str = 'table', *, by_query: bool = False, places: int | None = None,
               run: str = 'run') -> str:
        """The results in ``format``, as the command line prints them (``-f FORMAT``).

        Parameters
        ----------
        format : str
            One of :data:`irmetrics.rendering.formats.FORMATS`: ``'table'``, ``'tsv'``, ``'csv'``,
            ``'json'``, ``'jsonl'``, ``'markdown'``, ``'latex'``, ``'html'``.
        by_query : bool
            Add the per-query values.
        places : int or None
            The decimals (None: the format's default).
        run : str
            The run's name.

        Returns
        -------
        str
            The text of the report.

        Raises
        ------
        OptionError
            When ``format`` is none of the formats above.

        Examples
        --------
        >>> results = irmetrics.calc(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt')
        >>> print(results.render('csv', places=3))
        measure,value
        AP,0.409
        P@5,0.500
        <BLANKLINE>
        """
        renderer = FORMAT.check(format)
        options = Options(by_query=by_query, places=checked_places(places), width=10 ** 6)
        return RENDERERS[renderer]([RunResults(run, self)], options)

    def to_dict(self) -> dict[str, Any]:
        """The numbers of ``render('json', by_query=True)`` as plain Python values (NaN as None).

        Returns
        -------
        dict
            ``{'measures': [...], 'aggregate': {measure: value}, 'per_query': {query_id: {measure: value}}}``.

        Examples
        --------
        >>> found = irmetrics.calc(['P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt').to_dict()
        >>> found['measures'], found['aggregate'], found['per_query']['401']
        (['P@5'], {'P@5': 0.5}, {'P@5': 0.8})
        """
        items = self.aggregate_items()
        names = [str(m) for m in self.measures]
        columns = [_json_column(m, self.values[:, j]) for j, m in enumerate(self.measures)]
        rows = [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)] if columns else \
            [{} for _ in self.query_ids]
        for i, j in zip(*np.nonzero(~self._defined()), strict=True):
            del rows[i][names[j]]
        return {'measures': [str(m) for m, _ in items],
                'aggregate': {str(m): json_value(m, v, None) for m, v in items},
                'per_query': dict(zip(self.query_ids, rows, strict=True))}

    def _aggregate_rows(self, places: int) -> list[list[str]]:
        return [[str(m), format_value(m, v, places)] for m, v in self.aggregate_items()]

    def _repr_html_(self) -> str:
        rows = [[html.escape(c) for c in row] for row in self._aggregate_rows(4)]
        return html_table(['measure', 'value'], rows, html.escape(repr(self)), {1})

    def __str__(self) -> str:
        """The aggregates, one measure a line (``measure  value``)."""
        return text_table(['measure', 'value'], self._aggregate_rows(4), numeric_from=1)

    def __repr__(self) -> str:
        return f'<CalcResults: {len(self.measures)} measures x {len(self.query_ids)} queries>'
