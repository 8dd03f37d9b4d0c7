"""The commands that check the evaluation itself (:mod:`irmetrics.trust`): ``irmetrics discriminate`` (the
discriminative power of measures over runs), ``irmetrics swap-rates`` (how often two halves of the queries
order a pair of runs differently) and ``irmetrics reproduce`` (how faithful a reproduction is).

Each reads the qrels and the runs once, computes through the public function and prints its result's
table through :mod:`irmetrics.rendering.records` (``--format``: table, tsv, csv, json, markdown).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from ..api.run_names import named_runs
from ..comparing import ComparisonError
from ..trust import discriminative_power, reproducibility, swap_rates
from .evaluate import check_runs, resolve_measures
from .sources import command_qrels, load_run

if TYPE_CHECKING:
    from ..data.run import Run


def _runs(args: argparse.Namespace) -> dict[str, Run]:
    if len(args.runs) < 2:
        raise ComparisonError(f'give two runs or more (pairs of runs to tell apart), got {len(args.runs)}')
    paths = named_runs(args.runs)
    check_runs(list(paths.values()))
    return {name: load_run(path, args.duplicates) for name, path in paths.items()}


def discriminate(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    runs = _runs(args)
    result = discriminative_power(measures, command_qrels(args), runs, test=args.test,
                                  alpha=args.alpha, n_resamples=args.resamples, seed=args.seed,
                                  provider=args.provider, grades=args.grades, memory_limit=args.memory_limit)
    out.write(result.render(args.format, places=args.places, by_pair=args.by_pair))


def swaps(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    runs = _runs(args)
    result = swap_rates(measures, command_qrels(args), runs, trials=args.trials, size=args.size,
                        bin_width=args.bin_width, seed=args.seed, provider=args.provider, grades=args.grades,
                        memory_limit=args.memory_limit)
    out.write(result.render(args.format, places=args.places))


def reproduce(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    check_runs([*args.original, *args.reproduced])
    ob, oa, rb, ra = (load_run(path, args.duplicates) for path in (*args.original, *args.reproduced))
    other = None if args.reproduced_qrels is None else command_qrels(args, args.reproduced_qrels)
    result = reproducibility(measures, command_qrels(args), ob, oa, rb, ra,
                             reproduced_qrels=other, provider=args.provider, grades=args.grades)
    out.write(result.render(args.format, places=args.places))
