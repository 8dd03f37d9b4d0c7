"""Output formats of the evaluation command: one renderer per format, all fed the same results.

``table``   aligned columns for people: one row per run and a column per measure (measures become
            rows when that would not fit the terminal); with ``-q`` one row per query.
``tsv``     ir_measures' layout: ``measure<TAB>value``; with ``-q`` ``query<TAB>measure<TAB>value``
            and ``all`` lines; with several runs a first ``run`` column.
``csv``     the tsv columns, comma-separated, under a header line.
``jsonl``   ir_measures' layout: one ``{"query_id", "measure", "value"}`` object a line
            (``query_id`` only with ``-q``; ``run`` first with several runs).
``json``    one document: ``{"measures": [...], "runs": [{"run", "aggregate", "per_query"}]}``.
``trec_eval`` trec_eval's three columns ``%-22s<TAB>query<TAB>%6.4f``, trec_eval's measure names,
            queries in trec_eval's (byte-wise) order, ``all`` lines last; one run only.

Values print with ``places`` decimals (table, tsv and trec_eval default to 4; csv, json and jsonl
to full precision); counts (measures summed over queries) print as integers.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..algebra.measure import Measure
from ..api.results import CalcResults, format_value, text_table
from ..dialects.trec_eval import trec_entry_of, trec_output_name
from .trec_layout import SUMMARY_QID, Column, sequential_summary, trec_order, write

DEFAULT_PLACES = 4
FORMATS = ('table', 'tsv', 'csv', 'json', 'jsonl')


class Options(NamedTuple):
    """How to render: per-query rows, the summary, decimal places (None: the format's default)."""

    by_query: bool = False
    summary: bool = True
    places: int | None = None
    width: int | None = None       # terminal width for ``table`` (None: ask the terminal)


class RunResults(NamedTuple):
    """The results of one run, labelled as the user named the run."""

    name: str
    results: CalcResults


def json_value(measure: Measure, value: float, places: int | None):
    """A value as a JSON number (None for NaN), rounded only when ``places`` is given."""
    if value != value or math.isinf(value):
        return None
    if measure.definition.aggregate == 'sum' and float(value).is_integer():
        return int(value)
    return round(float(value), places) if places is not None and places >= 0 else float(value)


def _records(runs: Sequence[RunResults], opts: Options) -> Iterator[tuple[str, str, Measure, float]]:
    """(run, query id or 'all', measure, value): per-query values, then each run's aggregates."""
    for run in runs:
        if opts.by_query:
            for metric in run.results.iter_metrics():
                yield run.name, metric.query_id, metric.measure, metric.value
        if opts.summary:
            for measure, value in run.results.aggregated.items():
                yield run.name, SUMMARY_QID, measure, value


def _columns(runs: Sequence[RunResults], opts: Options) -> list[str]:
    return (['run'] if len(runs) > 1 else []) + (['query_id'] if opts.by_query else []) + ['measure', 'value']


def _tidy_rows(runs: Sequence[RunResults], opts: Options, value: Callable) -> Iterator[list]:
    several = len(runs) > 1
    for name, qid, measure, v in _records(runs, opts):
        yield ([name] if several else []) + ([qid] if opts.by_query else []) + [str(measure), value(measure, v)]


def render_tsv(runs: Sequence[RunResults], opts: Options) -> str:
    places = DEFAULT_PLACES if opts.places is None else opts.places
    lines = ['\t'.join(row) for row in _tidy_rows(runs, opts, lambda m, v: format_value(m, v, places))]
    return ''.join(line + '\n' for line in lines)


def render_csv(runs: Sequence[RunResults], opts: Options) -> str:
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator='\n')
    writer.writerow(_columns(runs, opts))
    writer.writerows(_tidy_rows(runs, opts, lambda m, v: format_value(m, v, opts.places)))
    return out.getvalue()


def render_jsonl(runs: Sequence[RunResults], opts: Options) -> str:
    import json
    keys = _columns(runs, opts)
    rows = _tidy_rows(runs, opts, lambda m, v: json_value(m, v, opts.places))
    return ''.join(json.dumps(dict(zip(keys, row, strict=True))) + '\n' for row in rows)


def render_json(runs: Sequence[RunResults], opts: Options) -> str:
    import json
    measures = runs[0].results.measures if runs else []
    doc: dict[str, Any] = {'measures': [str(m) for m in measures], 'runs': []}
    for run in runs:
        entry: dict = {'run': run.name}
        if opts.summary:
            entry['aggregate'] = {str(m): json_value(m, v, opts.places) for m, v in run.results.aggregated.items()}
        if opts.by_query:
            per_query: dict = {}
            for metric in run.results.iter_metrics():
                per_query.setdefault(metric.query_id, {})[str(metric.measure)] = \
                    json_value(metric.measure, metric.value, opts.places)
            entry['per_query'] = per_query
        doc['runs'].append(entry)
    return json.dumps(doc, indent=2) + '\n'


def render_table(runs: Sequence[RunResults], opts: Options) -> str:
    import shutil
    places = DEFAULT_PLACES if opts.places is None else opts.places
    measures = runs[0].results.measures if runs else []
    header = [str(m) for m in measures]
    if opts.by_query:
        lead = (['run'] if len(runs) > 1 else []) + ['query']
        rows = []
        for run in runs:
            name = [run.name] if len(runs) > 1 else []
            for qid, values in zip(run.results.query_ids, run.results.values.tolist(), strict=True):
                rows.append(name + [qid] + [_cell(m, v, places) for m, v in zip(measures, values, strict=True)])
            if opts.summary:
                rows.append(name + [SUMMARY_QID] + [format_value(m, v, places)
                                                    for m, v in run.results.aggregated.items()])
        return text_table(lead + header, rows, numeric_from=len(lead))
    rows = [[run.name] + [format_value(m, v, places) for m, v in run.results.aggregated.items()] for run in runs]
    table = text_table(['run'] + header, rows, numeric_from=1)
    width = opts.width or shutil.get_terminal_size().columns
    if max(map(len, table.splitlines()), default=0) <= width:
        return table
    transposed = [[h] + [row[j + 1] for row in rows] for j, h in enumerate(header)]
    return text_table(['measure'] + [run.name for run in runs], transposed, numeric_from=1)


def _cell(measure: Measure, value: float, places: int) -> str:
    """A per-query table cell; a query on which the measure is undefined shows '-'."""
    if value != value and measure.definition.skips_undefined:
        return '-'
    return format_value(measure, value, places)


def trec_eval_names(measures: Sequence[Measure]) -> dict[Measure, str]:
    """The name each measure prints under in trec_eval's layout.

    trec_eval's own name where it has one (``P_5``, ``map``, ``ndcg_cut_10``); irmetrics' name for
    measures trec_eval lacks, and for measures that would share a trec_eval name (``P@5`` and
    ``P(rel=2)@5`` are both ``P_5`` to trec_eval, whose relevance level is a global flag).
    """
    names = {m: trec_output_name(m) or str(m) for m in measures}
    taken: dict[str, int] = {}
    for name in names.values():
        taken[name] = taken.get(name, 0) + 1
    return {m: (name if taken[name] == 1 else str(m)) for m, name in names.items()}


def render_trec_eval(runs: Sequence[RunResults], opts: Options) -> str:
    """trec_eval's layout (see the module docstring and :mod:`.trec_layout`, which ``irmetrics trec_eval``
    prints through too); the measures trec_eval prints only in the summary (num_q, gm_map) have no
    per-query lines here either."""
    import io
    (run,) = runs
    res = run.results
    names = trec_eval_names(res.measures)
    order = trec_order(res.query_ids)
    columns = []
    for j, m in enumerate(res.measures):
        values = res.values[order, j]
        entry = trec_entry_of(m)
        skip = m.definition.skips_undefined
        summary = sequential_summary(m.aggregation, values, skip) if m.aggregation != 'sum' \
            else res.aggregated[m]
        integer = m.aggregation == 'sum' and bool(np.all(values == np.floor(values)))
        columns.append(Column(names[m], None if entry is not None and entry.lines == 'summary' else values,
                              summary, integer, np.isnan(values) if skip else None))
    text = io.StringIO()
    places = DEFAULT_PLACES if opts.places is None or opts.places < 0 else opts.places
    write(text.write, [res.query_ids[i] for i in order], columns, opts.by_query, opts.summary, places)
    return text.getvalue()


RENDERERS: dict[str, Callable[[Sequence[RunResults], Options], str]] = {
    'table': render_table, 'tsv': render_tsv, 'csv': render_csv, 'json': render_json,
    'jsonl': render_jsonl, 'trec_eval': render_trec_eval,
}
