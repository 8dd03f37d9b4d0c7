"""The comparison command: read the qrels and the runs once, compare, print one report.

Runs are named as :mod:`irmetrics.api.run_names` says (``NAME=PATH``, else the file's stem);
``--baseline`` names one of them by its name, its path (or the same file) or its stem.  ``--fuse`` adds
fusions of the runs (:mod:`.fusion_options`), compared like the others and named by their method.
"""
from __future__ import annotations

import argparse
import warnings
from typing import TYPE_CHECKING, TextIO

from ..api.run_names import find_run, named_runs
from ..comparing import Comparison, ComparisonError, SlicedComparison, compare, compare_slices
from ..data.output_files import check_output, write_text
from ..errors import IrmetricsWarning
from ..rendering import values
from ..rendering.text import text_table
from . import progress
from .evaluate import check_runs, resolve_measures
from .fusion_options import check_names, fused_runs
from .sources import command_qrels, load_run

if TYPE_CHECKING:
    from ..algebra.measure import Measure
    from ..data.qrels import Qrels
    from ..data.run import Run

#: The formats whose report carries the comparison's warnings (CSV, TSV and JSON lines have no place for them).
CARRY_WARNINGS = ('table', 'markdown', 'latex', 'html', 'json')


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect, args.ties)
    paths = _checked_runs(args)
    fused = check_names(args.fuse, list(paths))                 # --fuse: the fusions of the runs, compared too
    options = dict(baseline=_baseline(args.baseline, paths, fused), test=tuple(args.tests),
                   correction=args.correction, correction_scope=args.correction_scope, alpha=args.alpha, ci=args.ci,
                   ci_method=args.ci_method, n_resamples=args.resamples, seed=args.seed, provider=args.provider,
                   grades=args.grades, memory_limit=args.memory_limit)
    _check_reports(args)
    to_screen = args.output is None or args.output == '-'
    with progress.Progress(2 + len(paths) + bool(fused), enabled=progress.wanted(args.quiet)) as bar:
        qrels, runs = _read(args, paths, fused, bar)
        bar.step(f'comparing {len(runs)} runs')
        with warnings.catch_warnings():
            if to_screen and args.format in CARRY_WARNINGS:     # printed once, in the report, not also on stderr
                warnings.simplefilter('ignore', IrmetricsWarning)
            result: Comparison | SlicedComparison
            if args.slices is not None:
                result = compare_slices(measures, qrels, runs, slices=read_slices(args.slices), **options)
            else:
                result = comparison = compare(measures, qrels, runs, risk_weight=args.risk, **options)
    text = result.render(args.format, places=args.places, show=args.show)
    if args.ranks:
        text += ''.join(ranks_text(comparison, m, 4 if args.places is None else args.places)
                        for m in comparison.measures)
    if to_screen:                                               # '-': standard output, as no --output
        out.write(text)
    else:
        write_text(args.output, text)


def _checked_runs(args: argparse.Namespace) -> dict[str, str]:
    """The runs by name, refused when fewer than two, one is given twice, or one is an output."""
    if len(args.runs) < 2:
        raise ComparisonError(f'a comparison needs two runs or more, got {len(args.runs)}: '
                              f'irmetrics compare QRELS RUN RUN... -m MEASURE')
    paths = named_runs(args.runs)
    check_runs(list(paths.values()))
    check_output(args.output, [args.qrels, args.slices, *paths.values()])
    twice = [path for i, path in enumerate(paths.values()) if path in list(paths.values())[:i]]
    if twice:
        raise ComparisonError(f'the run {twice[0]!r} is given twice: give each run once')
    if args.risk is not None and len(args.baseline or []) != 1:
        raise ComparisonError('--risk compares each run with one baseline: give --baseline NAME once')
    return paths


def _baseline(given: list[str] | None, paths: dict[str, str], fused: list[str]) -> str | tuple[str, ...] | None:
    """The baseline run's name, several names, or None, each found among the runs and the fusions."""
    found = [find_run(b, [*paths, *fused], [*paths.values(), *[None] * len(fused)], 'baseline') for b in given or []]
    return None if not found else found[0] if len(found) == 1 else tuple(found)


def _check_reports(args: argparse.Namespace) -> None:
    """Refuse the reports that do not go together: slices with ranks or risk, ranks outside the table."""
    if args.slices is not None and (args.ranks or args.risk is not None):
        raise ComparisonError('--slices compares within slices, without --ranks or --risk')
    if args.ranks and args.format != 'table':
        raise ComparisonError('--ranks prints with the table format (in Python: Comparison.ranks)')


def _read(args: argparse.Namespace, paths: dict[str, str], fused: list[str],
          bar: progress.Progress) -> tuple[Qrels, dict[str, Run]]:
    """The qrels and the runs by name, read once (and the fusions of the runs), each a step of ``bar``."""
    bar.step(f'reading qrels {args.qrels}')
    qrels = command_qrels(args)
    runs: dict[str, Run] = {}
    for name, path in paths.items():
        bar.step(f'reading {path}')
        runs[name] = load_run(path, args.duplicates)
    if fused:
        bar.step(f'fusing {len(runs)} runs: {", ".join(fused)}')
        runs.update(fused_runs(args.fuse, runs))
    return qrels, runs


def ranks_text(comparison: Comparison, measure: Measure, places: int) -> str:
    """The leaderboard of one measure as text (see :meth:`~irmetrics.comparing.Comparison.ranks`)."""
    table = comparison.ranks(measure)
    s = comparison.settings
    rows = [[str(r['rank']), r['run'], values.number(r['mean'], places), f'{r["rank_low"]}-{r["rank_high"]}',
             '' if r['ahead_of_next'] != r['ahead_of_next'] else f'{r["ahead_of_next"]:.3f}',
             '' if r['separable_from_next'] is None else 'yes' if r['separable_from_next'] else 'no']
            for _, r in table.iterrows()]
    head = ['rank', 'run', str(measure), f'{s.ci:.0%} interval', 'ahead of next', 'separable']
    return (f'Ranks by {measure}: bootstrap intervals over the queries ({s.n_resamples:,} resamples, seed '
            f'{s.seed}); separable: ahead of the next run in at least {(1 + s.ci) / 2:.1%} of them\n'
            + text_table(head, rows))


def read_slices(path: str) -> dict[str, str]:
    """``{query id: slice}`` from a file of lines ``QUERY_ID SLICE`` (white space between them)."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError as ex:
        raise ComparisonError(f'{path}: cannot read: {ex.strerror or ex}') from None
    out = {}
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise ComparisonError(f'{path}:{number}: expected QUERY_ID SLICE, found {len(fields)} fields: {line!r}')
        out[fields[0]] = fields[1]
    return out
