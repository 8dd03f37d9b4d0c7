"""The evaluation command: read the qrels once, evaluate each run, print one table."""
from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ..errors import AmbiguousMeasureError, MeasureError
from ..rendering.evaluation import Options, RunResults
from . import progress
from .formats import RENDERERS
from .sources import command_qrels, run_source

if TYPE_CHECKING:
    from ..algebra.measure import Measure
    from ..data.qrels import Qrels


def resolve_measures(words: Sequence[str], dialect: str | None = None, ties: str | None = None) -> list[Measure]:
    """Measures from command-line words, several per word, read as Python reads them
    (:func:`irmetrics.dialects.parse_measures`: irmetrics syntax, trec_eval's and ranx's names), each with
    ``ties`` when it is given (``--ties``)."""
    from ..dialects import parse_measures
    try:
        measures = parse_measures(list(words), dialect=dialect)
        return measures if ties is None else [m(ties=ties) for m in measures]
    except AmbiguousMeasureError as ex:
        raise AmbiguousMeasureError(ex.word, ex.readings, option='--dialect') from None
    except MeasureError as ex:
        file = next((w for w in words if os.path.isfile(w)), None)
        if file is not None:
            raise MeasureError(f'{file!r} is a file, not a measure: to evaluate several runs, give the measures '
                               f'with -m (irmetrics QRELS RUN1 RUN2 -m AP)') from None
        rag = _rag_measure(words)
        if rag is not None:
            raise MeasureError(f'{rag!r} is a measure of RAG answers, computed from nuggets: irmetrics rag NUGGETS '
                               f'ASSIGNMENTS [ANSWERS] -m {rag} (docs/rag.md)') from None
        raise ex from None


def _rag_measure(words: Sequence[str]) -> str | None:
    """The first of ``words`` that names a measure of :mod:`irmetrics.rag` (no ranking measure is named so)."""
    from ..rag.measures import RAG_MEASURES
    known = {d.name for d in RAG_MEASURES.definitions()}
    return next((w for word in words for w in word.split() if w in known), None)


def check_runs(names: Sequence[str]) -> None:
    """A run that is no file but a measure was meant as a measure: say how to write that."""
    from ..dialects import parse_measure
    for name in names:
        if not os.path.exists(name):
            try:
                parse_measure(name)
            except MeasureError:
                continue
            raise MeasureError(f'{name!r} is not a file but a measure: with -m, every word after QRELS is a '
                               f"run; give several measures as -m AP -m {name} or -m 'AP {name}'")


def run(args: argparse.Namespace, out: TextIO) -> None:
    from ..api.run_names import named_runs
    measures = resolve_measures(args.measures, args.dialect, args.ties)
    runs = named_runs(args.runs)
    check_runs(list(runs.values()))
    show = progress.wanted(args.quiet)
    with progress.Progress(1 + 2 * len(runs) + bool(args.dask), enabled=show) as bar:
        bar.step(f'reading qrels {args.qrels}')
        qrels = command_qrels(args)
        evaluate = _through_dask if args.dask else _in_process
        results = evaluate(args, runs, measures, qrels, bar)
    opts = Options(by_query=args.by_query, summary=not args.no_summary, places=args.places)
    out.write(RENDERERS['trec_eval' if args.trec_eval else args.format](results, opts))


def _in_process(args: argparse.Namespace, runs: dict[str, str], measures: list[Measure], qrels: Qrels,
                bar: progress.Progress) -> list[RunResults]:
    """Each run read and evaluated here; a run file larger than the memory limit in chunks (same numbers)."""
    from ..api.calc import evaluator
    from ..api.reading import open_run
    ev = evaluator(measures, qrels, provider=args.provider, grades=args.grades)
    results = []
    for name, path in runs.items():
        bar.step(f'reading {path}')
        opened = open_run(ev, run_source(path), duplicates=args.duplicates, memory_limit=args.memory_limit)
        bar.step(f'evaluating {name}')
        results.append(RunResults(name, ev.calc(opened, duplicates=args.duplicates)))
    return results


def _through_dask(args: argparse.Namespace, runs: dict[str, str], measures: list[Measure], qrels: Qrels,
                  bar: progress.Progress) -> list[RunResults]:
    """Each run read and evaluated by the workers of a Dask cluster (same numbers)."""
    from .cluster import dask_client
    bar.step(f'starting a local Dask cluster ({args.dask})' if args.dask.startswith('local')
             else f'connecting to the Dask scheduler {args.dask}')
    with dask_client(args.dask):
        import irmetrics.dask
        ev = irmetrics.dask.evaluator(measures, qrels, provider=args.provider, grades=args.grades)
        results = []
        for name, path in runs.items():
            bar.step(f'evaluating {name} on {args.dask}')
            results.append(RunResults(name, ev.calc(path, duplicates=args.duplicates)))
            bar.step(f'evaluated {name}')
    return results
