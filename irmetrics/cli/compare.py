"""The comparison command: read the qrels and the runs once, compare, print one report.

Runs are named as :mod:`irmetrics.api.run_names` says (``NAME=PATH``, else the file's stem);
``--baseline`` names one of them by its name, its path (or the same file) or its stem.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TextIO

from ..api.run_names import find_run, named_runs
from ..comparing import ComparisonError, compare, compare_slices
from ..data.output_files import check_output, write_text
from ..rendering.text import text_table
from .evaluate import check_runs, resolve_measures
from .sources import load_qrels, load_run

FORMATS = ('table', 'markdown', 'latex', 'html', 'json', 'csv')


def render(comparison, fmt: str, places: int, show: Sequence[str] = ()) -> str:
    if show and fmt not in ('table', 'markdown'):
        raise ComparisonError(f'--show applies to the table and markdown formats; {fmt} has every column already')
    if fmt == 'csv':
        return comparison.to_dataframe().to_csv(index=False)
    if fmt == 'json':
        return comparison.to_json()
    if fmt in ('table', 'markdown'):
        return (comparison.to_table if fmt == 'table' else comparison.to_markdown)(places, show)
    return {'latex': comparison.to_latex, 'html': comparison.to_html}[fmt](places)


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect, args.ties)
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
    found = [find_run(b, list(paths), list(paths.values()), 'baseline') for b in args.baseline or []]
    baseline = None if not found else found[0] if len(found) == 1 else tuple(found)
    qrels = load_qrels(args.qrels, args.qrels_duplicates)
    runs = {name: load_run(path, args.duplicates) for name, path in paths.items()}
    options = dict(baseline=baseline, test=tuple(args.tests), correction=args.correction,
                   correction_scope=args.correction_scope, alpha=args.alpha, ci=args.ci, ci_method=args.ci_method,
                   n_resamples=args.resamples, seed=args.seed, provider=args.provider)
    if args.slices is not None:
        if args.format not in ('table', 'markdown', 'csv') or args.ranks or args.risk is not None:
            raise ComparisonError('--slices prints as table, markdown or csv, without --ranks or --risk')
        sliced = compare_slices(measures, qrels, runs, slices=read_slices(args.slices), **options)
        text = (sliced.to_dataframe().to_csv(index=False) if args.format == 'csv' else
                (sliced.to_table if args.format == 'table' else sliced.to_markdown)(args.places, args.show))
    else:
        comparison = compare(measures, qrels, runs, risk_weight=args.risk, **options)
        text = render(comparison, args.format, args.places, args.show)
        if args.ranks:
            if args.format != 'table':
                raise ComparisonError('--ranks prints with the table format (in Python: Comparison.ranks)')
            text += ''.join(ranks_text(comparison, m, args.places) for m in comparison.measures)
    if args.output is not None and args.output != '-':          # '-': standard output, as no --output
        write_text(args.output, text)
    else:
        out.write(text)


def ranks_text(comparison, measure, places: int) -> str:
    """The leaderboard of one measure as text (see :meth:`~irmetrics.comparing.Comparison.ranks`)."""
    table = comparison.ranks(measure)
    s = comparison.settings
    rows = [[str(r['rank']), r['run'], f'{r["mean"]:.{places}f}', f'{r["rank_low"]}-{r["rank_high"]}',
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
