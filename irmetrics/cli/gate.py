"""``irmetrics gate``: a run against stored per-query values, for CI (see :mod:`irmetrics.comparing.gate`).

Prints one line a measure (the stored and new means, the difference, the corrected p-value and the
verdict) and a last line saying whether the gate passed; the exit status is 0 when it passed, 1 when
a measure failed, 2 for an error.
"""
from __future__ import annotations

import argparse
import json
from typing import TextIO

from ..api.run_names import named_runs
from ..comparing import ComparisonError
from ..comparing.gate import gate, stored_values
from ..comparing.vocabulary import TESTS
from ..rendering.text import text_table
from ..rendering.values import number
from .sources import command_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        with open(args.against, encoding='utf-8') as f:
            document = json.load(f)
    except OSError as ex:
        raise ComparisonError(f'{args.against}: cannot read: {ex.strerror or ex}') from None
    except ValueError as ex:
        raise ComparisonError(f'{args.against}: not JSON: {ex}') from None
    stored_name, stored_measures, per_query = stored_values(document, args.against)
    (name, path), = named_runs([args.run]).items()
    measures = ' '.join(args.measure) if args.measure else stored_measures
    result = gate(measures, command_qrels(args), load_run(path, args.duplicates),
                  stored=per_query, test=args.test, alpha=args.alpha,
                  correction=None if args.correction == 'none' else args.correction, margin=args.margin,
                  name=name, stored_name=f'{stored_name} (stored)', provider=args.provider, grades=args.grades)
    places = args.places
    rows = []
    for v in result.verdicts:
        verdict = ('FAIL: significantly worse' if v.failed == 'worse' else
                   f'FAIL: dropped by more than {args.margin:g}' if v.failed == 'margin' else 'ok')
        rows.append([str(v.measure), number(v.stored, places), number(v.new, places), number(v.delta, places, sign='+'),
                     f'{v.p_adjusted:.3g}', verdict])
    out.write(text_table(['measure', 'stored', name, 'delta', 'p adjusted', 'verdict'], rows, numeric_from=1,
                         numeric_to=5))
    count = len(result.verdicts)
    correction = ('no correction' if args.correction == 'none' else
                  f'{args.correction} over {count} measure{"s" if count > 1 else ""}')
    failed = [str(v.measure) for v in result.verdicts if v.failed]
    out.write(f'gate {"FAILED on " + ", ".join(failed) if failed else "passed"}: {name} against {stored_name} '
              f'on {result.paired_queries} paired queries; {TESTS[args.test]}, alpha = {args.alpha:g}, '
              f'{correction}\n')
    return 1 if failed else 0
