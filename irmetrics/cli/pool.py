"""``irmetrics pool``: the depth-k pool of runs (:func:`irmetrics.pool`), written as a qrels file to judge.

Prints, per run, its documents in the pool (its top k) and those no other run pooled; ``-q``: per
query, the pool's size, how many are judged already (with ``--qrels``) and each run's unique ones.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..data.output_files import check_output
from ..rendering.records import render_records
from ..trust import pool
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    check_output(args.output, [*named_runs(args.runs).values(), args.qrels], '-o')
    runs = {name: load_run(path, args.duplicates) for name, path in named_runs(args.runs).items()}
    qrels = load_qrels(args.qrels, args.qrels_duplicates) if args.qrels else None
    result = pool(runs, depth=args.depth, qrels=qrels)
    if args.output:
        result.to_trec(args.output)
    if args.by_query:
        frame = result.to_pandas()
        rows = [[q, *map(int, values)] for q, values in zip(frame.index, frame.to_numpy().tolist(), strict=True)]
        out.write(render_records(['query', *frame.columns], rows, args.format, args.places))
        return
    rows = [[name, int(r.sum()), int(u.sum())] for name, r, u in zip(result.runs, result.retrieved, result.unique,
                                                                      strict=True)]
    out.write(render_records(['run', f'top {args.depth}', 'unique'], rows, args.format, args.places))
    if args.format == 'table':
        judged = (f'; {int(result.judged.sum())} judged already, {len(result)} to judge'
                  if result.judged is not None else '')
        written = f'; written to {args.output}' if args.output else ''
        out.write(f'pool of depth {args.depth}: {int(result.size.sum())} documents for {len(result.query_ids)} '
                  f'queries{judged}{written}\n')
