"""The scale benchmark: a run of 100 million rows as Parquet, through Dask and in one process.

Generates (deterministically, once, into ``--data``) a run of ``--queries`` queries x ``--docs``
documents as a directory of Parquet files (string ids, scores with ~5% ties, grouped by query) and
its qrels (3 judgments a query, graded 0-3, two of them retrieved), then times the 9 measures of
``run_bench.py`` (AP nDCG nDCG@10 P@10 R@100 RR Rprec Bpref Success@10):

* ``floor``: reading the Parquet alone through Dask (every column, one pass), with 1 and 2 workers;
* ``dask``: ``irmetrics.dask.calc_aggregate`` with 1 and 2 workers (LocalCluster, one thread a
  worker; the run is grouped, so one pass over the query ids then a pass with the boundary fix);
* ``shuffle``: the same, told to shuffle by query id (``shuffle=True``), with 2 workers;
* ``chunked``: ``irmetrics.calc`` in one process with ``memory_limit`` (query-aligned chunks).

Each configuration runs in a fresh process (a fresh cluster), so peak memory is the high-water
mark of that configuration alone: ``ru_maxrss`` of each worker process, or of the one process.
Reported: wall time, rows per second per worker, time over the
floor, peak RSS; the aggregates of every configuration must be equal (exit status 1 if not).

    python benchmarks/bench_scale.py --data /tmp/scale                       # 1M queries x 100 docs
    python benchmarks/bench_scale.py --data /tmp/scale --docs 50 100 --json out.json

Results of one run (``--docs 50 100``) on the development machine: 2 cores, 24 GiB, short profiling
jobs alongside during part of it; read the ratios rather than the absolute times:

    load average before: 1.22 on 2 cores
    1,000,000 queries x 50 docs = 50,000,000 rows  (data ready in 0 s; 456 MiB of Parquet)
    configuration           seconds  rows/s/worker  x floor   CPU s/worker  x floor   peak RSS/worker (MiB)
    floor (1 worker)            8.7      5,716,978                     7.5                              475
    floor (2 workers)           4.6      5,470,876                     4.3                         460, 477
    dask (1 worker)            25.2      1,987,879     2.88           22.8     3.05                     705
    dask (2 workers)           19.2      1,299,638     4.21           13.9     3.26                647, 654
    shuffle (2 workers)        59.6        419,520    13.04           44.0    10.34              1720, 1781
    read in one process         3.3     15,297,041                     5.0                              332
    chunked (2G)               13.8      3,629,865     4.21           15.7     3.14                     961
    1,000,000 queries x 100 docs = 100,000,000 rows  (data ready in 0 s; 907 MiB of Parquet)
    configuration           seconds  rows/s/worker  x floor   CPU s/worker  x floor   peak RSS/worker (MiB)
    floor (1 worker)           13.9      7,215,354                    11.9                              460
    floor (2 workers)           7.7      6,493,986                     7.2                         458, 462
    dask (1 worker)            41.5      2,409,383     2.99           39.1     3.29                     722
    dask (2 workers)           23.5      2,126,096     3.05           19.6     2.71                653, 655
    shuffle (2 workers)        75.9        658,592     9.86           68.4     9.44              1782, 1792
    read in one process         5.5     18,146,962                     8.9                              331
    chunked (2G)               24.5      4,081,726     4.45           28.2     3.17                     909
    load average after: 2.50

Target: within 2x of the read floor per worker, and peak memory per worker independent
of the run's size.  Met for memory (705-722 MiB a Dask worker at 50 and 100 million rows; the chunked
process 909-961 MiB with a 2G limit).  Not met for time: 2.9-3.05x the floor per worker (the 9
measures' ranking and join cost about twice the Parquet read, as in memory); 1 -> 2 workers gives
1.3x (50M rows) and 1.8x (100M rows) on 2 cores that also run the scheduler and the client.
The shuffle path (a run not grouped by query) costs 10-13x the floor and 1.8 GiB a worker.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

MEASURES = 'AP nDCG nDCG@10 P@10 R@100 RR Rprec Bpref Success@10'
ROWS_PER_FILE = 2_000_000         # one Parquet file (a Dask partition) holds this many rows, whatever the shape
POPULATION = 8_388_593            # a prime: doc (a + j b) mod POPULATION is distinct for j < POPULATION
TIE_RATE = 0.05


# --- data ------------------------------------------------------------------------------------------
def generate(directory: Path, queries: int, docs: int) -> tuple[Path, Path]:
    """(qrels file, run directory) of the given shape, written once (same files for the same shape)."""
    run_dir = directory / f'run-{queries}x{docs}'
    qrels_path = directory / f'qrels-{queries}x{docs}.parquet'
    if (run_dir / '_done').exists() and qrels_path.exists():
        return qrels_path, run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    judged = []
    per_file = max(ROWS_PER_FILE // docs, 1)
    for first in range(0, queries, per_file):
        count = min(per_file, queries - first)
        rng = np.random.default_rng([first, docs])
        qid = np.repeat(np.arange(first, first + count, dtype=np.int64), docs)
        a = rng.integers(0, POPULATION, count, dtype=np.int64)
        b = rng.integers(1, POPULATION, count, dtype=np.int64)
        doc = (a[:, None] + np.arange(docs, dtype=np.int64)[None, :] * b[:, None]) % POPULATION
        gaps = rng.integers(1, 6, (count, docs), dtype=np.int64)
        gaps[rng.random((count, docs)) < TIE_RATE] = 0
        gaps[:, 0] = 0
        score = (rng.integers(50_000, 100_000, count)[:, None] - np.cumsum(gaps, axis=1)) / 10_000
        table = pa.table({'query_id': _text('', qid), 'doc_id': _text('D', doc.ravel()), 'score': score.ravel()})
        pq.write_table(table, run_dir / f'part-{first // per_file:05d}.parquet')
        at = np.minimum((docs * rng.random((count, 2)) ** 3).astype(np.int64), docs - 1)   # mostly near the top
        picked = doc[np.arange(count)[:, None], at]
        unretrieved = (a + (docs + 1) * b) % POPULATION
        judged.append((np.repeat(np.arange(first, first + count), 3),
                       np.column_stack([picked, unretrieved]).ravel(), rng.integers(0, 4, 3 * count)))
    q, d, g = (np.concatenate(c) for c in zip(*judged, strict=True))
    keep = np.ones(len(q), dtype=bool)
    keep[2::3] &= d[2::3] != d[1::3]                   # the two picked ranks may coincide: judge once
    keep[1::3] &= d[1::3] != d[0::3]
    pq.write_table(pa.table({'query_id': _text('', q[keep]), 'doc_id': _text('D', d[keep]),
                             'relevance': g[keep]}), qrels_path)
    (run_dir / '_done').write_text('')
    return qrels_path, run_dir


def _text(prefix: str, numbers: np.ndarray) -> pa.Array:
    text = pa.array(numbers).cast(pa.string())
    return pc.binary_join_element_wise(prefix, text, '') if prefix else text


# --- one configuration, in its own process ---------------------------------------------------------
def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_config(config: str, workers: int, qrels: str, run: str, memory_limit: str) -> dict:
    """Time one configuration (in this process) and return its numbers."""
    import irmetrics as irm
    if config in ('chunked', 'local-floor'):
        start, cpu = time.perf_counter(), _cpu()
        if config == 'chunked':
            result = irm.calc_aggregate(MEASURES, qrels, run, memory_limit=memory_limit)
            aggregates = {str(m): v for m, v in result.items()}
        else:                                         # reading the files alone, one batch at a time
            import pyarrow.dataset as ds
            aggregates = {'rows': sum(len(b) for b in ds.dataset(run, format='parquet').to_batches(
                batch_readahead=0, fragment_readahead=0))}
        return {'seconds': time.perf_counter() - start, 'cpu': [_cpu() - cpu], 'aggregates': aggregates,
                'peak_rss': [resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024]}
    import logging

    import dask.dataframe as dd
    import distributed

    import irmetrics.dask as irmd
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=':0',
                                  memory_limit=0, silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        client.run(_warm_up)                                  # imports, not timed
        frame = dd.read_parquet(run)
        before, start = client.run(_cpu), time.perf_counter()
        if config == 'floor':
            aggregates = {'rows': int(frame.map_partitions(len).sum().compute())}
        else:
            evaluated = irmd.calc_aggregate(MEASURES, qrels, frame, shuffle=True if config == 'shuffle' else None)
            aggregates = {str(m): v for m, v in evaluated.items()}
        seconds, after = time.perf_counter() - start, client.run(_cpu)
        peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    return {'seconds': seconds, 'cpu': [after[w] - before[w] for w in sorted(after)], 'aggregates': aggregates,
            'peak_rss': sorted(peaks.values())}


def _warm_up() -> None:
    import dask.dataframe  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    import irmetrics.dask  # noqa: F401


def child(config: str, workers: int, qrels: Path, run: Path, memory_limit: str) -> dict:
    """``run_config`` in a fresh process (a fresh cluster: peaks are this configuration's alone)."""
    code = (f'import json, sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\nimport bench_scale\n'
            f'print(json.dumps(bench_scale.run_config(sys.argv[1], int(sys.argv[2]), *sys.argv[3:])))\n')
    proc = subprocess.Popen([sys.executable, '-c', code, config, str(workers), str(qrels), str(run), memory_limit],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    if proc.returncode:
        raise SystemExit(f'{config} with {workers} worker(s) failed:\n{err}')
    return json.loads(out.splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--data', type=Path, required=True, help='directory for the generated Parquet files')
    p.add_argument('--queries', type=int, default=1_000_000)
    p.add_argument('--docs', type=int, nargs='+', default=[100], help='documents per query (one size each)')
    p.add_argument('--configs', nargs='+', default=['floor', 'dask', 'shuffle', 'local-floor', 'chunked'])
    p.add_argument('--workers', type=int, nargs='+', default=[1, 2])
    p.add_argument('--memory-limit', default='2G', help='the one-process path\'s memory_limit')
    p.add_argument('--json', type=Path, help='write every number here too')
    args = p.parse_args(argv)
    load = os.getloadavg()[0]
    print(f'load average before: {load:.2f} on {os.cpu_count()} cores')
    report, ok = [], True
    for docs in args.docs:
        start = time.perf_counter()
        qrels, run = generate(args.data, args.queries, docs)
        rows = args.queries * docs
        print(f'\n{args.queries:,} queries x {docs} docs = {rows:,} rows  (data ready in '
              f'{time.perf_counter() - start:.0f} s; {sum(f.stat().st_size for f in run.iterdir()) / 2**20:.0f} MiB '
              f'of Parquet)')
        print(f'{"configuration":<22}{"seconds":>9}{"rows/s/worker":>15}{"x floor":>9}{"CPU s/worker":>15}'
              f'{"x floor":>9}{"peak RSS/worker (MiB)":>24}')
        floors: dict[int, tuple[float, float]] = {}
        expected = None
        for config in args.configs:
            for workers in ([1] if config in ('chunked', 'local-floor') else [2] if config == 'shuffle'
                            else args.workers):
                got = child(config, workers, qrels, run, args.memory_limit)
                cpu = max(got['cpu'])
                if config in ('floor', 'local-floor'):
                    floors[0 if config == 'local-floor' else workers] = (got['seconds'], cpu)
                elif expected is None:
                    expected = got['aggregates']
                elif got['aggregates'] != expected:
                    ok = False
                    print(f'  aggregates differ: {got["aggregates"]} != {expected}')
                floor = floors.get(0 if config == 'chunked' else workers) if 'floor' not in config else None
                ratio = f'{got["seconds"] / floor[0]:.2f}' if floor else ''
                cpu_ratio = f'{cpu / floor[1]:.2f}' if floor else ''
                peaks = ', '.join(f'{p / 2**20:.0f}' for p in got['peak_rss'])
                name = {'chunked': f'chunked ({args.memory_limit})', 'local-floor': 'read in one process'}.get(
                    config, f'{config} ({workers} worker{"s" if workers > 1 else ""})')
                print(f'{name:<22}{got["seconds"]:>9.1f}{rows / got["seconds"] / workers:>15,.0f}{ratio:>9}'
                      f'{cpu:>15.1f}{cpu_ratio:>9}{peaks:>24}', flush=True)
                report.append({'docs': docs, 'rows': rows, 'config': config, 'workers': workers, **got})
        print(f'aggregates: {expected}')
    print(f'load average after: {os.getloadavg()[0]:.2f}')
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
