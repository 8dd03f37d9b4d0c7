"""``irmetrics unjudged``: each measure with the unjudged documents non-relevant and relevant
(:func:`irmetrics.unjudged_bounds`), and whether the two values bound it."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..rendering.records import render_records
from ..trust import unjudged_bounds
from .evaluate import resolve_measures
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    (_, path), = named_runs([args.run]).items()
    result = unjudged_bounds(measures, load_qrels(args.qrels, args.qrels_duplicates), load_run(path, args.duplicates),
                             grade=args.grade, provider=args.provider)
    if args.by_query:
        rows = [[q, str(m), float(low), float(high), int(n)]
                for i, q in enumerate(result.query_ids)
                for m, low, high, n in zip(result.measures, result.nonrelevant[i], result.relevant[i],
                                           result.unjudged[i], strict=True)]
        out.write(render_records(['query', 'measure', 'nonrelevant', 'relevant', 'unjudged'], rows, args.format,
                              args.places, numeric_from=2))
        return
    low, high = result.aggregated('nonrelevant'), result.aggregated('relevant')
    rows = [[str(m), float(low[m]), float(high[m]), bound, int(n)]
            for m, bound, n in zip(result.measures, result.bounds, result.unjudged.sum(axis=0), strict=True)]
    out.write(render_records(['measure', 'nonrelevant', 'relevant', 'bounds', 'unjudged'], rows, args.format,
                          args.places))
    if args.format == 'table':
        out.write(f'relevant: the unjudged documents taken as relevant at grade {result.grade}; bounds: whether the '
                  f'two values bound the measure whatever their judgments\n')
