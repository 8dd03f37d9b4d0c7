"""``irmetrics qrels-stats``: what the qrels hold (:func:`irmetrics.qrels_stats`), overall and per query."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..trust import qrels_stats
from .sources import load_qrels


def run(args: argparse.Namespace, out: TextIO) -> None:
    stats = qrels_stats(load_qrels(args.qrels, args.qrels_duplicates), rel=args.rel)
    out.write(stats.render(args.format, places=args.places, by_query=args.by_query))
