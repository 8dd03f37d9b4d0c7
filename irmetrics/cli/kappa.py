"""``irmetrics kappa``: agreement between two qrels (:mod:`irmetrics.trust.judgment_agreement`).

Prints each statistic over the pairs both qrels judge (Cohen's kappa at ``--rel``, the linear and
quadratic weighted kappas, Krippendorff's alpha at the three levels) and, in the formats people read, the
pairs judged by both or one and the confusion of grades; ``-q``: Cohen's kappa of each query.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..trust.judgment_agreement import every_statistic
from .sources import load_qrels


def run(args: argparse.Namespace, out: TextIO) -> None:
    a, b = load_qrels(args.qrels_a, args.qrels_duplicates), load_qrels(args.qrels_b, args.qrels_duplicates)
    results = every_statistic(a, b, rel=args.rel, names=(args.qrels_a, args.qrels_b))
    out.write(results.render(args.format, places=args.places, by_query=args.by_query))
