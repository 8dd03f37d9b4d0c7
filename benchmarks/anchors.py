#!/usr/bin/env python3
"""The reference tools, each doing the whole job in one process: read the qrels and the run, compute
the benchmark's 9 measures, print them.  Timing this script as a child process times the tool's job.

    python benchmarks/anchors.py TOOL QRELS RUN [--json OUT]

TOOL
    pytrec      pytrec_eval (trec_eval 9 in C) on dicts built from a fast columnar read (pyarrow's CSV
                reader, then one dict per query): the fastest way to use pytrec_eval from Python
    irm         ir_measures: its readers and ``calc_aggregate`` (default providers)
    ranx        ranx: ``Qrels.from_file``, ``Run.from_file``, ``evaluate``
    trectools   trectools: ``TrecQrel``, ``TrecRun``, ``TrecEval``
    trec_eval   the trec_eval binary named by $TREC_EVAL (built from source; never committed)
    floor       reading only: the three run columns and the qrels with polars' multi-threaded CSV reader,
                the lower bound of any tool that reads the files
    arrow_floor reading only, with Arrow's multi-threaded CSV reader (the reader irmetrics uses for large
                files): the same columns, ids as text, numbers typed

Prints ``MEASURE<TAB>VALUE`` per measure (irmetrics' names; ``nan`` where the tool lacks it); with
``--json``, also writes ``{"values": {...}}`` at full precision.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

MEASURES = ['AP', 'nDCG', 'nDCG@10', 'P@10', 'R@100', 'RR', 'Rprec', 'Bpref', 'Success@10']
TREC = {'AP': 'map', 'nDCG': 'ndcg', 'nDCG@10': 'ndcg_cut_10', 'P@10': 'P_10', 'R@100': 'recall_100',
        'RR': 'recip_rank', 'Rprec': 'Rprec', 'Bpref': 'bpref', 'Success@10': 'success_10'}
RANX = {'AP': 'map', 'nDCG': 'ndcg', 'nDCG@10': 'ndcg@10', 'P@10': 'precision@10', 'R@100': 'recall@100',
        'RR': 'mrr', 'Rprec': 'r-precision', 'Success@10': 'hit_rate@10'}


def columns(path: str, names: list[str], keep: list[str]) -> dict:
    """Columns of a space-separated TREC file as Python lists, read by pyarrow."""
    import pyarrow as pa
    import pyarrow.csv as csv
    table = csv.read_csv(path, read_options=csv.ReadOptions(column_names=names),
                         parse_options=csv.ParseOptions(delimiter=' '),
                         convert_options=csv.ConvertOptions(include_columns=keep,
                                                            column_types={n: pa.string() for n in keep
                                                                          if n not in ('rel', 'score')}))
    return {n: table.column(n).to_pylist() for n in keep}


def nested(queries: list, docs: list, values: list) -> dict:
    out: dict = {}
    for q, d, v in zip(queries, docs, values, strict=True):
        out.setdefault(q, {})[d] = v
    return out


def pytrec(qrels: str, run: str) -> dict[str, float]:
    import pytrec_eval
    q = columns(qrels, ['q', 'it', 'd', 'rel'], ['q', 'd', 'rel'])
    r = columns(run, ['q', 'q0', 'd', 'rank', 'score', 'tag'], ['q', 'd', 'score'])
    judgments, ranking = nested(q['q'], q['d'], q['rel']), nested(r['q'], r['d'], r['score'])
    names = {'map', 'ndcg', 'ndcg_cut', 'P', 'recall', 'recip_rank', 'Rprec', 'bpref', 'success'}
    per_query = pytrec_eval.RelevanceEvaluator(judgments, names).evaluate(ranking)
    return {m: sum(v[TREC[m]] for v in per_query.values()) / len(per_query) for m in MEASURES}


def irm(qrels: str, run: str) -> dict[str, float]:
    import ir_measures
    measures = [ir_measures.parse_measure(m) for m in MEASURES]
    got = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    return {m: got[p] for m, p in zip(MEASURES, measures, strict=True)}


def ranx(qrels: str, run: str) -> dict[str, float]:
    import ranx as rx
    got = rx.evaluate(rx.Qrels.from_file(qrels, kind='trec'), rx.Run.from_file(run, kind='trec'),
                      list(RANX.values()))
    return {m: got[RANX[m]] if m in RANX else math.nan for m in MEASURES}


def trectools(qrels: str, run: str) -> dict[str, float]:
    from trectools import TrecEval, TrecQrel, TrecRun
    ev = TrecEval(TrecRun(run), TrecQrel(qrels))
    got = {'AP': ev.get_map(trec_eval=True), 'nDCG@10': ev.get_ndcg(depth=10, trec_eval=True),
           'P@10': ev.get_precision(depth=10, trec_eval=True), 'RR': ev.get_reciprocal_rank(trec_eval=True),
           'Rprec': ev.get_rprec(trec_eval=True), 'Bpref': ev.get_bpref(trec_eval=True)}
    return {m: got.get(m, math.nan) for m in MEASURES}


TREC_EVAL_ARGS = ['-c', '-m', 'map', '-m', 'ndcg', '-m', 'ndcg_cut.10', '-m', 'P.10', '-m', 'recall.100',
                  '-m', 'recip_rank', '-m', 'Rprec', '-m', 'bpref', '-m', 'success.10']


def trec_eval_values(output: str) -> dict[str, float]:
    """The measures of trec_eval's summary lines (``name all value``)."""
    values = {name: float(value) for name, _, value in (line.split() for line in output.splitlines())}
    return {m: values[TREC[m]] for m in MEASURES}


def trec_eval(qrels: str, run: str) -> dict[str, float]:
    binary = os.environ.get('TREC_EVAL', 'trec_eval')
    return trec_eval_values(subprocess.run([binary, *TREC_EVAL_ARGS, qrels, run], capture_output=True,
                                           text=True, check=True).stdout)


def floor(qrels: str, run: str) -> dict[str, float]:
    import polars as pl
    pl.read_csv(run, separator=' ', has_header=False, columns=[0, 2, 4],
                schema_overrides={'column_1': pl.Utf8, 'column_3': pl.Utf8, 'column_5': pl.Float64})
    pl.read_csv(qrels, separator=' ', has_header=False, columns=[0, 2, 3],
                schema_overrides={'column_1': pl.Utf8, 'column_3': pl.Utf8, 'column_4': pl.Int64})
    return {m: math.nan for m in MEASURES}


def arrow_floor(qrels: str, run: str) -> dict[str, float]:
    import pyarrow as pa
    import pyarrow.csv as csv
    for path, names, keep, types in ((run, ['q', 'z', 'd', 'rank', 'score', 'tag'], ['q', 'd', 'score'],
                                      {'q': pa.string(), 'd': pa.string(), 'score': pa.float64()}),
                                     (qrels, ['q', 'z', 'd', 'rel'], ['q', 'd', 'rel'],
                                      {'q': pa.string(), 'd': pa.string(), 'rel': pa.int64()})):
        csv.read_csv(path, read_options=csv.ReadOptions(column_names=names),
                     parse_options=csv.ParseOptions(delimiter=' ', quote_char=False),
                     convert_options=csv.ConvertOptions(include_columns=keep, column_types=types))
    return {m: math.nan for m in MEASURES}


TOOLS = {'pytrec': pytrec, 'irm': irm, 'ranx': ranx, 'trectools': trectools, 'trec_eval': trec_eval,
         'floor': floor, 'arrow_floor': arrow_floor}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('tool', choices=sorted(TOOLS))
    parser.add_argument('qrels')
    parser.add_argument('run')
    parser.add_argument('--json')
    args = parser.parse_args()
    values = TOOLS[args.tool](args.qrels, args.run)
    for m in MEASURES:
        print(f'{m}\t{values[m]:.6f}')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'values': values}, f)


if __name__ == '__main__':
    sys.exit(main())
