"""``irmetrics pool``: the depth-k pool of runs (:func:`irmetrics.pool`), written as a qrels file to judge.

Prints, per run, its documents in the pool (its top k) and those no other run pooled; ``-q``: per
query, the pool's size, how many are judged already (with ``--qrels``) and each run's unique ones.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..data.output_files import check_output
from ..trust import pool
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    check_output(args.output, [*named_runs(args.runs).values(), args.qrels], '-o')
    runs = {name: load_run(path, args.duplicates) for name, path in named_runs(args.runs).items()}
    qrels = load_qrels(args.qrels, args.qrels_duplicates) if args.qrels else None
    result = pool(qrels, runs, depth=args.depth)
    if args.output:
        result.to_trec(args.output)
    out.write(result.render(args.format, places=args.places, by_query=args.by_query))
    if args.output and args.format == 'table':
        out.write(f'the pairs to judge written to {args.output}\n')
