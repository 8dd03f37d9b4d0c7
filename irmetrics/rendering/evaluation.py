"""The results of one or several runs in every format: one renderer per format, all fed the same results.

``table``   aligned columns for people: one row per run and a column per measure (measures become
            rows when that would not fit the terminal); with ``-q`` one row per query.
``tsv``     ir_measures' layout: ``measure<TAB>value``; with ``-q`` ``query<TAB>measure<TAB>value`` (a tab,
            newline or backslash inside a name written as ``\\t``, ``\\n``, ``\\\\``)
            and ``all`` lines; with several runs a first ``run`` column.
``csv``     the tsv columns, comma-separated, under a header line.
``jsonl``   ir_measures' layout: one ``{"query_id", "measure", "value"}`` object a line
            (``query_id`` only with ``-q``; ``run`` first with several runs).
A measure of a whole run (Coverage, Gini: one value per run) prints with the aggregates, as an ``all`` line
or row; with ``-q`` and no summary, its ``all`` line or row follows the queries', so that every format shows it.
``json``    one document: ``{"measures": [...], "runs": [{"run", "aggregate", "per_query"}]}``.
``markdown`` the table's rows as a GitHub-flavoured Markdown table; ``latex`` a booktabs table;
``html``    a self-contained page with the table.  With ``-q`` these three hold the table's per-query rows
            (and ``-n`` leaves out the ``all`` rows), as ``table`` does: nothing asked for is ignored.

Values print with ``places`` decimals (table, tsv, markdown, latex and html default to 4; csv, json and jsonl
to full precision); counts (measures summed over queries) print as integers.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from .formats import delimited, text_cell
from .records import Table
from .records import render_table as render_records_table
from .text import text_table
from .values import format_value, json_value
from .views import ResultsView

DEFAULT_PLACES = 4
#: the per-query lines' query id for the aggregates (ir_measures', trec_eval's)
SUMMARY_QID = 'all'


class Options(NamedTuple):
    """How to render: per-query rows, the summary, decimal places (None: the format's default)."""

    by_query: bool = False
    summary: bool = True
    places: int | None = None
    width: int | None = None       # terminal width for ``table`` (None: ask the terminal)


class RunResults(NamedTuple):
    """The results of one run, labelled as the user named the run."""

    name: str
    results: ResultsView


def _records(runs: Sequence[RunResults], opts: Options) -> Iterator[tuple[str, str, Any, float]]:
    """(run, query id or 'all', measure, value): per-query values, then each run's aggregates.  The
    measures of a whole run are 'all' lines among the per-query values when no summary follows."""
    for run in runs:
        if opts.by_query:
            for metric in _metrics(run.results, opts):
                yield run.name, metric.query_id, metric.measure, metric.value
        if opts.summary:
            for measure, value in run.results.aggregate_items():
                yield run.name, SUMMARY_QID, measure, value


def _metrics(results: ResultsView, opts: Options) -> Iterator[Any]:
    """The per-query values of ``results``, and the values of the measures of the whole run unless the
    summary (where they stand with the aggregates) is printed."""
    per_query = set(results.measures)
    return (metric for metric in results.iter_metrics() if not opts.summary or metric.measure in per_query)


def _whole_run_items(results: ResultsView) -> list[tuple[Any, float]]:
    """(measure, value) of each measure of the whole run (one value per run, not per query)."""
    per_query = set(results.measures)
    return [(m, v) for m, v in results.aggregate_items() if m not in per_query]


def _columns(runs: Sequence[RunResults], opts: Options) -> list[str]:
    return (['run'] if len(runs) > 1 else []) + (['query_id'] if opts.by_query else []) + ['measure', 'value']


def _tidy_rows(runs: Sequence[RunResults], opts: Options, value: Callable[[Any, Any], Any]) -> Iterator[list[Any]]:
    several = len(runs) > 1
    for name, qid, measure, v in _records(runs, opts):
        yield ([name] if several else []) + ([qid] if opts.by_query else []) + [str(measure), value(measure, v)]


def _delimited_rows(runs: Sequence[RunResults], opts: Options, places: int | None) -> Iterator[list[str]]:
    """The tidy rows of CSV and TSV: their text cells (run, query id, measure) as :func:`.formats.text_cell`
    writes them, and the value."""
    for row in _tidy_rows(runs, opts, lambda m, v: format_value(m, v, places)):
        yield [*map(text_cell, row[:-1]), row[-1]]


def render_tsv(runs: Sequence[RunResults], opts: Options) -> str:
    return delimited(_delimited_rows(runs, opts, _places(opts)), 'tsv')


def render_csv(runs: Sequence[RunResults], opts: Options) -> str:
    return delimited([_columns(runs, opts), *_delimited_rows(runs, opts, opts.places)], 'csv')


def render_jsonl(runs: Sequence[RunResults], opts: Options) -> str:
    import json
    keys = _columns(runs, opts)
    rows = _tidy_rows(runs, opts, lambda m, v: json_value(m, v, opts.places))
    return ''.join(json.dumps(dict(zip(keys, row, strict=True))) + '\n' for row in rows)


def render_json(runs: Sequence[RunResults], opts: Options) -> str:
    import json
    measures = [m for m, _ in runs[0].results.aggregate_items()] if runs else []
    doc: dict[str, Any] = {'measures': [str(m) for m in measures], 'runs': []}
    for run in runs:
        entry: dict[str, Any] = {'run': run.name}
        if opts.summary:
            entry['aggregate'] = {str(m): json_value(m, v, opts.places) for m, v in run.results.aggregate_items()}
        if opts.by_query:
            per_query: dict[str, dict[str, Any]] = {}
            for metric in _metrics(run.results, opts):
                per_query.setdefault(metric.query_id, {})[str(metric.measure)] = \
                    json_value(metric.measure, metric.value, opts.places)
            entry['per_query'] = per_query
        doc['runs'].append(entry)
    return json.dumps(doc, indent=2) + '\n'


def _query_rows(runs: Sequence[RunResults], opts: Options, places: int) -> tuple[list[str], list[list[str]], int]:
    """The header, the rows and the number of leading text columns of the per-query table (``-q``) of every
    format people read: a row per run (when several) and query, then its ``all`` row of aggregates (without the
    summary, only the measures of the whole run have one)."""
    measures = [m for m, _ in runs[0].results.aggregate_items()] if runs else []     # a run's measures: per query first
    lead = (['run'] if len(runs) > 1 else []) + ['query']
    rows = []
    for run in runs:
        name = [run.name] if len(runs) > 1 else []
        for qid, values in zip(run.results.query_ids, run.results.values.tolist(), strict=True):
            cells = [_cell(m, v, places) for m, v in zip(run.results.measures, values, strict=True)]
            rows.append(name + [qid] + cells + [''] * (len(measures) - len(cells)))
        if opts.summary:
            rows.append(name + [SUMMARY_QID] + [format_value(m, v, places)
                                                for m, v in run.results.aggregate_items()])
        elif whole := _whole_run_items(run.results):          # the measures of the whole run: their row
            rows.append(name + [SUMMARY_QID] + [''] * len(run.results.measures)
                        + [format_value(m, v, places) for m, v in whole])
    return lead + [str(m) for m in measures], rows, len(lead)


def render_table(runs: Sequence[RunResults], opts: Options) -> str:
    places = _places(opts)
    if opts.by_query:
        header, rows, lead = _query_rows(runs, opts, places)
        return text_table(header, rows, numeric_from=lead)
    header, rows, _ = _summary_rows(runs, places)
    table = text_table(header, rows, numeric_from=1)
    width = opts.width or shutil.get_terminal_size().columns
    if max(map(len, table.splitlines()), default=0) <= width:
        return table
    transposed = [[h] + [row[j + 1] for row in rows] for j, h in enumerate(header[1:])]
    return text_table(['measure'] + [run.name for run in runs], transposed, numeric_from=1)


def _cell(measure: Any, value: float, places: int) -> str:
    """A per-query table cell; a query on which the measure is undefined shows '-'."""
    if value != value and measure.definition.skips_undefined:
        return '-'
    return format_value(measure, value, places)


def _places(opts: Options) -> int:
    """The decimals of the formats for people: the option, else :data:`DEFAULT_PLACES`."""
    return DEFAULT_PLACES if opts.places is None else opts.places


def _summary_rows(runs: Sequence[RunResults], places: int) -> tuple[list[str], list[list[str]], int]:
    """The header and one row per run of the aggregates, and the one leading text column (``run``)."""
    measures = [m for m, _ in runs[0].results.aggregate_items()] if runs else []
    rows = [[run.name] + [format_value(m, v, places) for m, v in run.results.aggregate_items()] for run in runs]
    return ['run'] + [str(m) for m in measures], rows, 1


def _markup(fmt: str) -> Callable[[Sequence[RunResults], Options], str]:
    """The renderer of a format people read in markup (Markdown, LaTeX, HTML): the per-query table of ``table``
    with ``-q`` (:func:`_query_rows`), else the aggregates, a row per run, as a :class:`~.records.Table` of
    cells already written, rendered by the one family of format renderers (:func:`~.records.render_table`);
    the HTML page has a legend and the runs' names in its title."""
    def render(runs: Sequence[RunResults], opts: Options) -> str:
        places = _places(opts)
        header, rows, lead = _query_rows(runs, opts, places) if opts.by_query else _summary_rows(runs, places)
        legend = ''
        if fmt == 'html':
            queries = len(runs[0].results.query_ids) if runs else 0
            legend = (f'The value of each query; {SUMMARY_QID}: the mean over {queries} queries (sums for counts).'
                      if opts.by_query else f'Mean over {queries} queries (sums for counts).')
        title = 'irmetrics: ' + ', '.join(run.name for run in runs)
        return render_records_table(Table(header, rows, lead, legend, title), fmt)
    return render


RENDERERS: dict[str, Callable[[Sequence[RunResults], Options], str]] = {
    'table': render_table, 'tsv': render_tsv, 'csv': render_csv, 'json': render_json, 'jsonl': render_jsonl,
    **{fmt: _markup(fmt) for fmt in ('markdown', 'latex', 'html')},
}
