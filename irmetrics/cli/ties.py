"""``irmetrics ties``: how much of each measure is the order of tied documents (:func:`irmetrics.tie_dependence`).

One row a measure (the mean in trec_eval's order, the expected mean over tie orders, the lowest and
highest mean over them, their spread, the share of queries that depend on tie order), or with ``-q``
one row a query and measure; as a table, CSV or JSON.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..trust import tie_dependence
from .evaluate import resolve_measures
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure, args.dialect)
    found = tie_dependence(measures, load_qrels(args.qrels, args.qrels_duplicates), load_run(args.run, args.duplicates),
                           provider=args.provider, strict=args.strict)
    if args.by_query or args.format != 'table':
        frame = found.to_pandas() if args.by_query else found.summary_frame()
        if args.format == 'json':
            out.write(frame.to_json(orient='records', double_precision=15) + '\n')      # NaN as null
        elif args.format == 'csv':
            out.write(frame.to_csv(index=False, float_format=f'%.{args.places}f'))
        else:
            out.write(frame.to_string(index=False, float_format=lambda v: f'{v:.{args.places}f}') + '\n')
        return
    out.write(found.to_table(args.places))
