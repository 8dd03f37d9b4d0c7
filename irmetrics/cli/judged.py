"""``irmetrics judged``: how much of each run's top k the qrels judge (:func:`irmetrics.judgment_coverage`)."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..rendering.records import render_records
from ..trust import judgment_coverage
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    runs = {name: load_run(path, args.duplicates) for name, path in named_runs(args.runs).items()}
    qrels = load_qrels(args.qrels, args.qrels_duplicates)
    coverage = judgment_coverage(qrels, runs, cutoffs=args.cutoff or (10, 100))
    header = [f'Judged@{k}' for k in coverage.cutoffs]
    if args.by_query:
        rows = [[run, q, *map(float, values[i])] for run, values in zip(coverage.runs, coverage.values, strict=True)
                for i, q in enumerate(coverage.query_ids)]
        out.write(render_records(['run', 'query', *header], rows, args.format, args.places, numeric_from=2))
        return
    rows = [[run, *map(float, means)] for run, means in zip(coverage.runs, coverage.mean, strict=True)]
    out.write(render_records(['run', *header], rows, args.format, args.places))
