"""The evaluation command: read the qrels once, evaluate each run, print one table."""
from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TextIO

from ..api.results import CalcResults
from ..errors import MeasureError, UnknownMeasureError
from . import progress
from .formats import RENDERERS, Options, RunResults
from .sources import load_qrels, load_run


def resolve_measures(words: Sequence[str]) -> list:
    """Measures from command-line words, several per word: trec_eval names (``map``, ``P.5,10``,
    ``official``) first, as trec_eval means them, then irmetrics syntax (``nDCG@10``, ranx's names)."""
    from ..algebra.parse import parse_measure, split_measure_list
    from ..algebra.trec_names import parse_trec_measure
    out = []
    for word in words:
        for item in split_measure_list(word):
            try:
                found = parse_trec_measure(item)
            except MeasureError as trec_ex:
                try:
                    found = [parse_measure(item)]
                except MeasureError as ex:
                    raise _explain(item, ex, trec_ex) from None
            out += [m for m in found if m not in out]
    return out


def _explain(item: str, ex: MeasureError, trec_ex: MeasureError) -> MeasureError:
    """The more useful of the two parsers' errors (or a hint when a run file was given as a measure)."""
    if os.path.isfile(item):
        return MeasureError(f'{item!r} is a file, not a measure: to evaluate several runs, give the measures '
                            f'with -m (irmetrics QRELS RUN1 RUN2 -m AP)')
    trec_knew_it = not str(trec_ex).startswith('unknown trec_eval measure')
    not_irmetrics = isinstance(ex, UnknownMeasureError) or str(ex).startswith('cannot parse measure')
    return trec_ex if trec_knew_it and not_irmetrics else ex


def check_runs(names: Sequence[str]) -> None:
    """A run that is no file but a measure was meant as a measure: say how to write that."""
    from ..algebra.parse import parse_measure
    for name in names:
        if not os.path.exists(name):
            try:
                parse_measure(name)
            except MeasureError:
                continue
            raise MeasureError(f'{name!r} is not a file but a measure: with -m, every word after QRELS is a '
                               f"run; give several measures as -m AP -m {name} or -m 'AP {name}'")


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measures)
    check_runs(args.runs)
    show = progress.wanted(args.quiet)
    with progress.Progress(1 + 2 * len(args.runs), enabled=show) as bar:
        bar.step(f'reading qrels {args.qrels}')
        qrels = load_qrels(args.qrels, args.qrels_duplicates)
        evaluate = _through_dask if args.dask else _in_process
        results = evaluate(args, measures, qrels, bar)
    opts = Options(by_query=args.by_query, summary=not args.no_summary, places=args.places)
    out.write(RENDERERS['trec_eval' if args.trec_eval else args.format](results, opts))


def _in_process(args: argparse.Namespace, measures: list, qrels, bar: progress.Progress) -> list[RunResults]:
    """Each run read and evaluated here; a run file larger than the memory limit in chunks (same numbers)."""
    from ..api.calc import evaluator
    from ..data.large import is_larger_than, memory_budget
    ev = evaluator(measures, qrels, provider=args.provider)
    budget = memory_budget(args.memory_limit)
    results = []
    for name in args.runs:
        chunked = is_larger_than(name, budget)
        bar.step(f'reading {name}' if not chunked else f'evaluating {name} in chunks')
        loaded = name if chunked else load_run(name, args.duplicates)
        bar.step(f'evaluating {name}')
        results.append(RunResults(name, ev.calc(loaded, args.duplicates, budget)))
    return results


def _through_dask(args: argparse.Namespace, measures: list, qrels, bar: progress.Progress) -> list[RunResults]:
    """Each run read and evaluated by the workers of a Dask cluster (same numbers)."""
    from .cluster import dask_client
    with dask_client(args.dask):
        import irmetrics.dask
        ev = irmetrics.dask.evaluator(measures, qrels, provider=args.provider)
        results = []
        for name in args.runs:
            bar.step(f'evaluating {name} on {args.dask}')
            evaluated = ev.calc(name, args.duplicates)
            assert isinstance(evaluated, CalcResults)          # per-query values gathered (the default)
            results.append(RunResults(name, evaluated))
            bar.step(f'evaluated {name}')
    return results
