"""The ``irmetrics`` command line: a thin layer over the public API.

    irmetrics QRELS RUN MEASURE... [-q] [-n] [-p PLACES] [--provider NAME]

Output follows ir_measures: ``measure<TAB>value`` lines, or with ``-q``
``query<TAB>measure<TAB>value`` lines followed by ``all`` lines.  Every user
error is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ..core.errors import IrmetricsError, MeasureError

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.print_usage(sys.stderr)
        sys.stderr.write(f'irmetrics: error: {message}\n')
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics', description='Evaluate a TREC run against qrels with IR measures '
                '(trec_eval conventions).',
                epilog='Measures use irmetrics/ir_measures syntax (nDCG@10, "P(rel=2)@5", AP) or trec_eval '
                       'names (map, ndcg_cut.10, P.5,10, official); quote measures with parentheses.')
    p.add_argument('qrels', help='qrels file (TREC format; .gz/.bz2/.xz accepted)')
    p.add_argument('run', help='run file (TREC format; .gz/.bz2/.xz accepted)')
    p.add_argument('measures', nargs='+', help='measures to compute')
    p.add_argument('-q', '--by_query', action='store_true', help='print per-query values, then the aggregates')
    p.add_argument('-n', '--no_summary', action='store_true', help='with -q: do not print the aggregates')
    p.add_argument('-p', '--places', type=int, default=4, help='decimal places (default 4; -1: full precision)')
    p.add_argument('--provider', help='force one provider (engine), e.g. native or pytrec_eval')
    p.add_argument('--duplicates', choices=['error', 'first', 'last', 'max'], default='error',
                   help='what to do when a run retrieves a document twice for a query (default: error)')
    return p


def resolve_measures(texts: Sequence[str]):
    """Measures from CLI words: irmetrics syntax, several per word, or trec_eval names."""
    from ..core.parse import parse_measure, split_measure_list
    from ..core.trec_names import parse_trec_measure
    out = []
    for text in texts:
        for item in split_measure_list(text):
            try:
                found = [parse_measure(item)]
            except MeasureError as ex:
                try:
                    found = parse_trec_measure(item)
                except MeasureError:
                    raise ex from None
            out += [m for m in found if m not in out]
    return out


def format_value(measure, value: float, places: int) -> str:
    if measure.definition.aggregate == 'sum' and float(value).is_integer():
        return str(int(value))
    return repr(float(value)) if places < 0 else f'{value:.{places}f}'


def run(args: argparse.Namespace, out=sys.stdout) -> None:
    from ..core.api import evaluator
    from ..core.inputs import read_trec_qrels, read_trec_run
    if args.no_summary and not args.by_query:
        raise MeasureError('-n/--no_summary only makes sense with -q/--by_query')
    measures = resolve_measures(args.measures)
    qrels = read_trec_qrels(args.qrels)
    ev = evaluator(measures, qrels, provider=args.provider)
    results = ev.calc(read_trec_run(args.run, duplicates=args.duplicates))
    lines = []
    if args.by_query:
        for metric in results.iter_metrics():
            lines.append(f'{metric.query_id}\t{metric.measure}\t{format_value(metric.measure, metric.value, args.places)}')
    if not args.no_summary:
        prefix = 'all\t' if args.by_query else ''
        for m, value in results.aggregated.items():
            lines.append(f'{prefix}{m}\t{format_value(m, value, args.places)}')
    out.write('\n'.join(lines) + ('\n' if lines else ''))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run(args)
    except IrmetricsError as ex:
        sys.stderr.write(f'irmetrics: error: {ex}\n')
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write('irmetrics: interrupted\n')
        return 130
    return 0
