#!/usr/bin/env python3
"""Recommender shapes: top-k arrays against torchmetrics and ranx on the same arrays, a million users in
bounded memory, long integer tables in model order, and the full catalogue scored on the CPU or a GPU
(full_catalogue.py: the torch topk+gather path and a numpy floor as anchors).

What is measured (data generated here, seed 0)
    topk   U users x 100 item indices (int32, rank order) and a scipy.sparse matrix of 5 relevant items
           per user; nDCG@10, R@20, P@10, RR@10, AP@100:
             irmetrics     irmetrics.calc_aggregate(measures, qrels_matrix, top_k)
             torchmetrics  the five Retrieval* metrics (CPU) on the flattened tensors with user indexes
             ranx          ranx.Qrels/Run built from the same arrays (dicts), then ranx.evaluate (warm:
                           numba compiled by a first call on a small run)
           each once (the references take seconds to minutes), values checked to agree (1e-6); the
           ratios are reference / irmetrics.  Then irmetrics alone on --big-users users in a child
           process: time and peak RSS against the bytes of the input arrays.
    long   The same run as a long Arrow table (query_id, doc_id, score) of 50,000 users x 100 items,
           three ways, median of N: string ids in score order; integer ids in score order; integer
           ids in model order (each user's rows unsorted).  Then 200,000 users in model order in a
           child process (time and peak RSS).
    full   A users x items float32 score matrix (embeddings), 8 held-out items per user; nDCG@10, R@20, P@10,
           RR@10 by irmetrics (numpy array, torch CPU tensor, CUDA tensor with --device cuda) against the torch
           topk+gather path (RecBole's full-sort evaluation) and a numpy argpartition floor, best of -n, values
           checked; then the same with many ties (irmetrics on the device against its host path).
    stream The users scored in batches on the device (a training loop's evaluation), measured by the torch path
           or irmetrics' accumulator; with --device cuda also the peak host memory of a CUDA evaluation.

How to run (from the repository root, with the project's virtualenv and its test extra)
    .venv/bin/python benchmarks/bench_recommender.py topk                 # 20,000 users; 1,000,000 alone
    .venv/bin/python benchmarks/bench_recommender.py long -n 5
    .venv/bin/python benchmarks/bench_recommender.py full --users 4000 --items 5000 -n 5
    PYTHONPATH=. python benchmarks/bench_recommender.py full --users 20000 --items 20000 --device cuda  # a GPU
    PYTHONPATH=. python benchmarks/bench_recommender.py stream --users 200000 --items 50000 --batch 10000 --device cuda

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

MEASURES = ['nDCG@10', 'R@20', 'P@10', 'RR@10', 'AP@100']
K, CATALOGUE, RELEVANT_COLUMNS = 100, 50_000, [2, 11, 37, 64, 90]


def top_k_data(users: int):
    """Each user's top 100 (distinct items, rank order) and a CSR matrix of 5 relevant items among them."""
    import scipy.sparse as sp
    rng = np.random.default_rng(0)
    first = rng.integers(0, CATALOGUE, users).astype(np.int32)
    top = np.empty((users, K), dtype=np.int32)
    steps = (np.arange(K) * 397).astype(np.int32)
    for lo in range(0, users, 100_000):                  # in blocks: generating costs no more than the array
        np.remainder(first[lo:lo + 100_000, None] + steps, CATALOGUE, out=top[lo:lo + 100_000])
    relevant = top[:, RELEVANT_COLUMNS]
    qrels = sp.csr_matrix((np.ones(relevant.size, np.int8), relevant.ravel(), np.arange(0, relevant.size + 1, 5)),
                          shape=(users, CATALOGUE))
    qrels.sort_indices()
    return top, qrels


def run_irmetrics(top, qrels) -> dict[str, float]:
    import irmetrics as irm
    return dict(irm.calc_aggregate(MEASURES, qrels, top))


def run_torchmetrics(top, qrels) -> dict[str, float]:
    import torch
    from torchmetrics import retrieval as tm
    users = top.shape[0]
    target = torch.zeros((users, K), dtype=torch.bool)
    target[:, RELEVANT_COLUMNS] = True                  # the relevant items sit at these ranks (top_k_data)
    preds = torch.arange(K, 0, -1, dtype=torch.float32).repeat(users)
    indexes = torch.arange(users).repeat_interleave(K)
    metrics = {'nDCG@10': tm.RetrievalNormalizedDCG(top_k=10), 'R@20': tm.RetrievalRecall(top_k=20),
               'P@10': tm.RetrievalPrecision(top_k=10), 'RR@10': tm.RetrievalMRR(top_k=10),
               'AP@100': tm.RetrievalMAP(top_k=100)}
    return {name: float(metric(preds, target.flatten(), indexes=indexes)) for name, metric in metrics.items()}


RANX = {'nDCG@10': 'ndcg@10', 'R@20': 'recall@20', 'P@10': 'precision@10', 'RR@10': 'mrr@10', 'AP@100': 'map@100'}


def run_ranx(top, qrels) -> dict[str, float]:
    import ranx
    ranked = top.tolist()
    judged = [qrels.indices[qrels.indptr[u]:qrels.indptr[u + 1]].tolist() for u in range(top.shape[0])]
    ranx_qrels = ranx.Qrels({str(u): {str(i): 1 for i in items} for u, items in enumerate(judged)})
    ranx_run = ranx.Run({str(u): {str(i): float(K - r) for r, i in enumerate(items)} for u, items in enumerate(ranked)})
    values = ranx.evaluate(ranx_qrels, ranx_run, list(RANX.values()))
    return {name: float(values[metric]) for name, metric in RANX.items()}


def long_table(users: int, layout: str):
    """The top-k run as a long Arrow table; ``layout``: strings-sorted, ints-sorted or ints-model.

    The columns are generated in place and become the table without a copy, so that generating costs
    little more than the table (the peak memory of a child process is then the evaluation's).
    """
    import pyarrow as pa
    first = np.random.default_rng(0).integers(0, CATALOGUE, users)       # as top_k_data: the same items
    doc = np.add.outer(first, (np.arange(K) * 397))
    np.remainder(doc, CATALOGUE, out=doc)
    relevant = doc[:, RELEVANT_COLUMNS].ravel()
    scores = np.random.default_rng(1).random((users, K))
    if layout != 'ints-model':
        order = np.argsort(-scores, axis=1)
        doc, scores = np.take_along_axis(doc, order, axis=1), np.take_along_axis(scores, order, axis=1)
        del order
    query, docs = pa.array(np.repeat(np.arange(users), K)), pa.array(doc.ravel())
    qrels_query, qrels_doc = pa.array(np.repeat(np.arange(users), 5)), pa.array(relevant)
    if layout == 'strings-sorted':
        query, docs = query.cast(pa.string()), docs.cast(pa.string())
        qrels_query, qrels_doc = qrels_query.cast(pa.string()), qrels_doc.cast(pa.string())
    run = pa.table({'query_id': query, 'doc_id': docs, 'score': scores.ravel()})
    judged = pa.table({'query_id': qrels_query, 'doc_id': qrels_doc, 'relevance': np.ones(len(relevant), np.int64)})
    return judged, run


def child(case: str, users: int, layout: str) -> None:
    """One measured evaluation in this process: prints time, peak RSS and input bytes as JSON."""
    import irmetrics as irm
    if case == 'topk':
        qrels, run = top_k_data(users)[::-1]
        size = run.nbytes + qrels.data.nbytes + qrels.indices.nbytes + qrels.indptr.nbytes
    else:
        qrels, run = long_table(users, layout)
        size = run.nbytes + qrels.nbytes
    before = peak_rss()
    start = time.perf_counter()
    irm.calc_aggregate(MEASURES, qrels, run)
    seconds = time.perf_counter() - start
    peak = peak_rss()
    print(json.dumps({'seconds': seconds, 'peak': peak, 'before': before, 'input': size}))


def peak_rss() -> int:
    """This process's peak resident memory in bytes (VmHWM: unlike ru_maxrss, not inherited from the
    parent that started it)."""
    with open('/proc/self/status') as status:
        line = next(line for line in status if line.startswith('VmHWM:'))
    return int(line.split()[1]) * 1024


def in_child(case: str, users: int, layout: str = '') -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, '--child', case, '--users', str(users), '--layout', layout],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def bench_topk(args) -> bool:
    from importlib.metadata import version
    top, qrels = top_k_data(args.users)
    warm_top, warm_qrels = top_k_data(50)
    run_ranx(warm_top, warm_qrels)                      # numba compiles here, not in the measured call
    run_irmetrics(warm_top, warm_qrels)
    print(f'{args.users:,} users x {K} items, top-k array + 5 relevant each, {", ".join(MEASURES)} (ranx '
          f'{version("ranx")}, torchmetrics {version("torchmetrics")}):')
    values, seconds = {}, {}
    for name, tool in (('irmetrics', run_irmetrics), ('torchmetrics', run_torchmetrics), ('ranx', run_ranx)):
        start = time.perf_counter()
        values[name] = tool(top, qrels)
        seconds[name] = time.perf_counter() - start
        ratio = '' if name == 'irmetrics' else f'   {seconds[name] / seconds["irmetrics"]:6.1f}x irmetrics\' time'
        print(f'  {name:13s} {seconds[name]:8.2f} s{ratio}')
    agree = all(abs(values[t][m] - values['irmetrics'][m]) < 1e-6 for t in values for m in MEASURES)
    print('  values agree' if agree else f'  VALUES DIFFER: {values}')
    big = in_child('topk', args.big_users)
    print(f'  irmetrics alone, {args.big_users:,} users: {big["seconds"]:.2f} s, peak RSS {big["peak"] / 1e6:,.0f} MB '
          f'(before evaluating {big["before"] / 1e6:,.0f} MB; input arrays {big["input"] / 1e6:,.0f} MB)')
    return agree


def bench_long(args) -> bool:
    import irmetrics as irm
    layouts = ['strings-sorted', 'ints-sorted', 'ints-model']
    tables = {layout: long_table(50_000, layout) for layout in layouts}
    times: dict[str, list[float]] = {layout: [] for layout in layouts}
    values = {layout: irm.calc_aggregate(MEASURES, *tables[layout]) for layout in layouts}     # warm-up
    for _ in range(args.n):
        for layout in layouts:
            start = time.perf_counter()
            irm.calc_aggregate(MEASURES, *tables[layout])
            times[layout].append(time.perf_counter() - start)
    medians = {layout: statistics.median(t) for layout, t in times.items()}
    print(f'50,000 users x {K} items as a long Arrow table, {", ".join(MEASURES)}, median of {args.n}:')
    for layout in layouts:
        print(f'  {layout:15s} {medians[layout]:6.2f} s   {medians[layout] / medians["strings-sorted"]:.2f}x '
              f'strings in score order')
    big = in_child('long', 200_000, 'ints-model')
    print(f'  200,000 users, integer ids in model order: {big["seconds"]:.2f} s, peak RSS {big["peak"] / 1e6:,.0f} MB '
          f'(before evaluating {big["before"] / 1e6:,.0f} MB: the table and what generating it took; input table '
          f'{big["input"] / 1e6:,.0f} MB)')
    agree = all(values[layout] == values['strings-sorted'] for layout in layouts)
    print('  values agree' if agree else '  VALUES DIFFER')
    return agree


def bench_full(args) -> bool:
    import full_catalogue
    result = full_catalogue.full_matrix(args.users, args.items, args.device, args.n)
    same = full_catalogue.ties_on_device(min(args.users, 5_000), min(args.items, 5_000), args.device)
    exact = full_catalogue.device_agreement(args.device)
    return full_catalogue.agree(result['values'], next(iter(result['values']))) and same and exact


def bench_stream(args) -> bool:
    import full_catalogue
    full_catalogue.stream(args.users, args.items, args.batch, args.device)
    if args.device == 'cuda':
        full_catalogue.host_peak(20_000, 20_000)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('case', nargs='?', choices=['topk', 'long', 'full', 'stream'], default='topk')
    parser.add_argument('--users', type=int, default=20_000)
    parser.add_argument('--items', type=int, default=5_000)
    parser.add_argument('--batch', type=int, default=10_000)
    parser.add_argument('--device', choices=['cpu', 'cuda'], default='cpu')
    parser.add_argument('--big-users', type=int, default=1_000_000)
    parser.add_argument('-n', type=int, default=5)
    parser.add_argument('--child', choices=['topk', 'long'], help=argparse.SUPPRESS)
    parser.add_argument('--layout', default='', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.users, args.layout)
        return 0
    cases = {'topk': bench_topk, 'long': bench_long, 'full': bench_full, 'stream': bench_stream}
    return 0 if cases[args.case](args) else 1


if __name__ == '__main__':
    raise SystemExit(main())
