"""``irmetrics unjudged``: each measure with the unjudged documents non-relevant and relevant
(:func:`irmetrics.unjudged_bounds`), and whether the two values bound it."""
from __future__ import annotations

import argparse
from typing import TextIO

from ..api.run_names import named_runs
from ..trust import unjudged_bounds
from .evaluate import resolve_measures
from .sources import command_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    (_, path), = named_runs([args.run]).items()
    result = unjudged_bounds(measures, command_qrels(args), load_run(path, args.duplicates),
                             grade=args.grade, provider=args.provider, grades=args.grades)
    out.write(result.render(args.format, places=args.places, by_query=args.by_query))
