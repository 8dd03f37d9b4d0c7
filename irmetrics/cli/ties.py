"""``irmetrics ties``: how much of each measure is the order of tied documents (:func:`irmetrics.tie_dependence`).

One row a measure (the mean in trec_eval's order, the expected mean over tie orders, the lowest and
highest mean over them, their spread, the share of queries that depend on tie order), or with ``-q``
one row a query and measure, through :mod:`irmetrics.rendering.records` (``--format``).
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..trust import tie_dependence
from .evaluate import resolve_measures
from .sources import command_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    found = tie_dependence(measures, command_qrels(args), load_run(args.run, args.duplicates),
                           provider=args.provider, grades=args.grades, strict=args.strict)
    out.write(found.render(args.format, places=args.places, by_query=args.by_query))
