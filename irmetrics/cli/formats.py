"""Output formats of the evaluation command: the rendering room's formats (:mod:`irmetrics.rendering.evaluation`:
table, tsv, csv, json, jsonl, markdown, latex, html) and trec_eval's layout, which only the command line prints.

``trec_eval`` trec_eval's three columns ``%-22s<TAB>query<TAB>%6.4f``, trec_eval's measure names,
            queries in trec_eval's (byte-wise) order, ``all`` lines last; one run only; 4 decimals by default.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..algebra.measure import Measure
from ..dialects.trec_eval import trec_entry_of, trec_output_name
from ..rendering import evaluation
from ..rendering.evaluation import DEFAULT_PLACES, Options, RunResults
from .trec_layout import Column, sequential_summary, trec_order, write


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
    per-query lines here either, nor have the measures of a whole run (Coverage, Gini), whose ``all`` line
    is printed even without the summary."""
    import io
    (run,) = runs
    res = run.results
    names = trec_eval_names([m for m, _ in res.aggregate_items()])
    order = trec_order(res.query_ids)
    columns = []
    for j, m in enumerate(res.measures):
        values = res.values[order, j]
        entry = trec_entry_of(m)
        skip = m.definition.skips_undefined
        summary = sequential_summary(m.aggregation, values, skip) if m.aggregation != 'sum' \
            else dict(res.aggregate_items())[m]
        integer = m.aggregation == 'sum' and bool(np.all(values == np.floor(values)))
        columns.append(Column(names[m], None if entry is not None and entry.lines == 'summary' else values,
                              summary, integer, np.isnan(values) if skip else None))
    whole = [Column(names[m], None, v) for m, v in res.aggregate_items() if m not in res.measures]
    text = io.StringIO()
    places = DEFAULT_PLACES if opts.places is None or opts.places < 0 else opts.places
    write(text.write, [res.query_ids[i] for i in order], columns + whole, opts.by_query, opts.summary, places)
    if opts.by_query and not opts.summary:          # the measures of the whole run: their 'all' lines still
        write(text.write, [], whole, by_query=False, summary=True, places=places)
    return text.getvalue()


RENDERERS: dict[str, Callable[[Sequence[RunResults], Options], str]] = {**evaluation.RENDERERS,
                                                                       'trec_eval': render_trec_eval}
