"""``irmetrics judged``: how much of each run's top k the qrels judge (:func:`irmetrics.judgment_coverage`)."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..trust import judgment_coverage
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    runs = {name: load_run(path, args.duplicates) for name, path in named_runs(args.runs).items()}
    qrels = load_qrels(args.qrels, args.qrels_duplicates)
    coverage = judgment_coverage(qrels, runs, cutoffs=args.cutoff or (10, 100))
    out.write(coverage.render(args.format, places=args.places, by_query=args.by_query))
