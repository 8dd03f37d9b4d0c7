"""``irmetrics qrels-stats``: what the qrels hold (:func:`irmetrics.qrels_stats`), overall and per query."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..rendering.evaluation import SUMMARY_QID
from ..rendering.records import render_records
from ..trust import qrels_stats
from .sources import load_qrels


def run(args: argparse.Namespace, out: TextIO) -> None:
    stats = qrels_stats(load_qrels(args.qrels, args.qrels_duplicates), rel=args.rel)
    header = ['query', 'judged', *(f'grade {g}' for g in stats.grades), 'relevant', 'share']
    rows = []
    if args.by_query:
        rows = [[q, int(judged), *map(int, counts), int(relevant), float(share)]
                for q, judged, counts, relevant, share in zip(stats.query_ids, stats.judged, stats.counts.tolist(),
                                                              stats.relevant, stats.share_relevant, strict=True)]
    total = stats.total
    rows.append([SUMMARY_QID, total['judged'], *total['grades'].values(), total['relevant'], total['share_relevant']])
    out.write(render_records(header, rows, args.format, args.places))
    if args.format == 'table':
        out.write(f'{total["queries"]} queries; relevant (grade >= {args.rel}) per query: {total["fewest_relevant"]} '
                  f'to {total["most_relevant"]}; {total["queries_without_relevant"]} without any\n')
