"""``irmetrics agree``: do two evaluations rank systems alike, and do two runs rank documents alike?

    irmetrics agree QRELS RUN RUN... -m MEASURE --qrels-b QRELS_B   two sets of judgments
    irmetrics agree QRELS RUN RUN... -m MEASURE -m MEASURE_B        two measures (and --qrels-b: both)
    irmetrics agree --runs RUN_A RUN_B [--depth K] [-q]             two runs' document rankings

The first form prints Kendall's tau-b (with its p-value), tau_AP (the first evaluation as the
reference) and RBO of the two system rankings (``--systems``: each system's means and ranks instead;
``--plot FILE``: the systems under one evaluation against the other, as a PNG or SVG); the second
prints the mean KTU and RBO over the queries both runs hold (``-q``: each query too).
"""
from __future__ import annotations

import argparse
import json
import math
from typing import Any, TextIO

from ..api.run_names import named_runs
from ..data.output_files import check_figure_path, check_output, save_figure
from ..errors import InputError
from ..trust import run_agreement, system_agreement
from .evaluate import check_runs, resolve_measures
from .sources import command_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    if args.runs_mode:
        out.write(_runs(args))
    else:
        out.write(_systems(args))


def _runs(args: argparse.Namespace) -> str:
    if len(args.words) != 2:
        raise InputError(f'--runs compares two runs, got {len(args.words)}: irmetrics agree --runs RUN_A RUN_B')
    if args.measure or args.qrels_b or args.systems or args.plot:
        raise InputError('--runs compares two runs\' rankings, without qrels: -m, --qrels-b, --systems and --plot '
                         'belong to the comparison of system rankings')
    (name_a, path_a), (name_b, path_b) = named_runs(args.words).items()
    result = run_agreement(load_run(path_a, args.duplicates), load_run(path_b, args.duplicates), depth=args.depth,
                           p=args.p)
    if args.format == 'json':
        return _json({'run_a': name_a, 'run_b': name_b, **result.to_dict()})
    return result.render(args.format, places=args.places, by_query=args.by_query)


def _systems(args: argparse.Namespace) -> str:
    if args.depth is not None:
        raise InputError('--depth cuts the rankings of --runs; the system rankings hold every run')
    if not args.words:
        raise InputError('no qrels given: irmetrics agree QRELS RUN RUN... -m MEASURE (--qrels-b QRELS_B or -m '
                         'MEASURE_B)')
    qrels_path, *run_args = args.words
    measures = resolve_measures(args.measure, args.dialect)
    if not 1 <= len(measures) <= 2:
        raise InputError(f'-m names {len(measures)} measures: give one (with --qrels-b) or two (the second '
                         f'evaluation\'s), e.g. -m AP -m nDCG@10')
    if len(measures) == 1 and args.qrels_b is None:
        raise InputError('one measure and one qrels: give --qrels-b QRELS_B (other judgments) or a second -m '
                         'MEASURE (another measure)')
    if len(run_args) < 2:
        raise InputError(f'the system rankings need two runs or more (three for tau and tau_AP), got '
                         f'{len(run_args)}: irmetrics agree QRELS RUN RUN... -m MEASURE')
    paths = named_runs(run_args)
    check_runs(list(paths.values()))
    if args.plot:
        check_output(args.plot, [qrels_path, args.qrels_b, *paths.values()], '--plot')
        check_figure_path(args.plot)
    qrels_a = command_qrels(args, qrels_path)
    qrels_b = None if args.qrels_b is None else command_qrels(args, args.qrels_b)
    runs = {name: load_run(path, args.duplicates) for name, path in paths.items()}
    labels = (f'{measures[0]} on {qrels_path}', f'{measures[-1]} on {args.qrels_b or qrels_path}')
    result = system_agreement(measures[0], qrels_a, runs, qrels_b=qrels_b,
                              measure_b=measures[1] if len(measures) > 1 else None, p=args.p,
                              tie_variant=args.tie_variant, provider=args.provider, grades=args.grades, labels=labels)
    if args.plot:
        save_figure(result.plot(by=args.plot_by), args.plot, dpi=150)
    if args.format == 'json':
        return _json(result.to_dict())
    return result.render(args.format, places=args.places, systems=args.systems)


def _json(document: dict[str, Any]) -> str:
    """``document`` as JSON, NaN as null (as every JSON irmetrics writes)."""
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        return None if isinstance(value, float) and not math.isfinite(value) else value
    return json.dumps(clean(document), indent=2, allow_nan=False) + '\n'
