"""``irmetrics kappa``: agreement between two qrels (:mod:`irmetrics.trust.judgment_agreement`).

Prints each statistic over the pairs both qrels judge (Cohen's kappa at ``--rel``, the linear and
quadratic weighted kappas, Krippendorff's alpha at the three levels) and, in the table format, the
pairs judged by both or one and the confusion of grades; ``-q``: Cohen's kappa of each query.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..rendering.records import render_records
from ..trust.judgment_agreement import every_statistic
from .sources import load_qrels


def run(args: argparse.Namespace, out: TextIO) -> None:
    a, b = load_qrels(args.qrels_a, args.qrels_duplicates), load_qrels(args.qrels_b, args.qrels_duplicates)
    results = every_statistic(a, b, rel=args.rel)
    kappa = results[0]
    if args.by_query:
        rows = [[q, int(both), int(only_a), int(only_b), float(value)]
                for q, both, only_a, only_b, value in zip(kappa.query_ids, kappa.query_both, kappa.query_only_a,
                                                          kappa.query_only_b, kappa.query_statistic, strict=True)]
        out.write(render_records(['query', 'both', 'only_a', 'only_b', 'kappa'], rows, args.format, args.places))
        return
    out.write(render_records(['statistic', 'value'], [[r.method, r.statistic] for r in results], args.format,
                          args.places))
    if args.format == 'table':
        out.write(f'{kappa.both} pairs judged by both, {kappa.only_a} by {args.qrels_a} only, {kappa.only_b} by '
                  f'{args.qrels_b} only; grades (rows: {args.qrels_a}, columns: {args.qrels_b}):\n')
        grades = [str(g) for g in kappa.grades]
        rows = [[g, *row] for g, row in zip(grades, kappa.counts.tolist(), strict=True)]
        out.write(render_records(['', *grades], rows, 'table'))
