#!/usr/bin/env python3
"""Deterministic synthetic TREC qrels and runs for the benchmarks (no file from outside the repository).

    python benchmarks/synthetic.py SCALE [OUTDIR]        # writes OUTDIR/SCALE.qrels and OUTDIR/SCALE.run
    python benchmarks/synthetic.py all benchdata

Scales (the shapes of the collections people evaluate):

=========  ====================  ===========================================================================
small      50 q x 100 docs       graded 0-2, about 40 judgments a query, ids ``d123``
robust     250 q x 1,000 docs    about 1,200 judgments a query graded 0-2: the top 100 mostly judged, a
                                 third of the rest, about 900 judged documents not retrieved (pool-like);
                                 ids ``FBIS3-12345`` (robust04's shape: a 9 MB run, 6.7 MB qrels);
                                 ``robust3`` and ``robust15`` the same with 80 and 400 queries (3 and
                                 15 MB runs)
msmarco    6,980 q x 1,000 docs  about 1.1 judgments a query, all grade 1, 60 % of them retrieved at
                                 log-uniform ranks; numeric ids
large      100,000 q x 100 docs  about 3 judgments a query graded 0-3, half retrieved at log-uniform
                                 ranks; numeric ids (the recommender shape)
=========  ====================  ===========================================================================

Scores are fixed-point numbers with 4 decimals, decreasing down each ranking except that about 5% of
neighbours tie; tied documents are in random (not docno) order in the file, so the tie rule matters.
The rank column is the file position.  Every run query has judgments and every qrels query is in the
run.  The same scale gives the same files (fixed seeds; numpy's PCG64 stream); files are written by
pyarrow's CSV writer, so even 10 million lines take seconds.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv


@dataclass(frozen=True)
class Shape:
    queries: int
    depth: int
    population: int             # documents to draw from, per query
    judged_retrieved: float     # share of the retrieved documents judged (besides the relevant ones)
    judged_elsewhere: int       # judged documents per query that the run did not retrieve
    pool_depth: int             # the run's top ranks are judged at 90%
    relevant: float             # relevant documents per query
    retrieved_relevant: float   # share of them the run retrieved (at log-uniform ranks)
    top_grade: int
    ids: str                    # 'd', 'fbis' or 'numeric'
    seed: int


SCALES = {
    'small': Shape(50, 100, 5_000, 0.2, 5, 20, 6.0, 0.7, 2, 'd', 11),
    'robust': Shape(250, 1_000, 500_000, 0.3, 900, 100, 70.0, 0.6, 2, 'fbis', 22),
    'robust3': Shape(80, 1_000, 500_000, 0.3, 900, 100, 70.0, 0.6, 2, 'fbis', 23),      # a 3 MB run
    'robust15': Shape(400, 1_000, 500_000, 0.3, 900, 100, 70.0, 0.6, 2, 'fbis', 24),    # a 15 MB run
    'msmarco': Shape(6_980, 1_000, 8_800_000, 0.0, 0, 0, 1.1, 0.6, 1, 'numeric', 33),
    'large': Shape(100_000, 100, 5_000_000, 0.0, 0, 0, 3.0, 0.5, 3, 'numeric', 44),
}
TIE_RATE = 0.05


def distinct_rows(rng: np.random.Generator, rows: int, width: int, population: int) -> np.ndarray:
    """(rows, width) integers in [0, population), distinct within each row."""
    out = rng.integers(0, population, size=(rows, width), dtype=np.int64)
    while True:
        s = np.sort(out, axis=1)
        bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if not len(bad):
            return out
        out[bad] = rng.integers(0, population, size=(len(bad), width), dtype=np.int64)


def id_text(numbers: np.ndarray, kind: str) -> pa.Array:
    text = pc.cast(pa.array(numbers), pa.string())
    if kind == 'numeric':
        return text
    if kind == 'd':
        return pc.binary_join_element_wise('d', text, '')
    return pc.binary_join_element_wise(pa.scalar('FBIS3-'), pc.utf8_lpad(text, 6, padding='0'), '')


def generate(scale: str) -> tuple[pa.Table, pa.Table]:
    """(qrels, run) as tables of TREC fields."""
    shape = SCALES[scale]
    rng = np.random.default_rng(shape.seed)
    nq, k = shape.queries, shape.depth
    extra = shape.judged_elsewhere + int(np.ceil(shape.relevant * 3)) + 2
    docs = distinct_rows(rng, nq, k + extra, shape.population)
    retrieved, elsewhere = docs[:, :k], docs[:, k:]

    gaps = 1 + rng.geometric(0.2, size=(nq, k))
    gaps[rng.random((nq, k)) < TIE_RATE] = 0
    gaps[:, 0] = 0
    units = rng.integers(100_000, 300_000, size=nq)[:, None] - np.cumsum(gaps, axis=1)   # 4 decimals
    query = np.repeat(np.arange(nq), k)
    run = pa.table({
        'query_id': id_text(query, 'numeric'),
        'Q0': pa.array(np.full(nq * k, 'Q0')),
        'doc_id': id_text(retrieved.ravel(), shape.ids),
        'rank': pa.array(np.tile(np.arange(1, k + 1), nq)),
        'score': pc.binary_join_element_wise(pc.cast(pa.array(units.ravel() // 10_000), pa.string()),
                                             pc.utf8_lpad(pc.cast(pa.array(units.ravel() % 10_000), pa.string()),
                                                          4, padding='0'), '.'),
        'tag': pa.array(np.full(nq * k, 'bench')),
    })

    # relevant documents: some retrieved at log-uniform ranks, the others from elsewhere
    n_rel = np.maximum(1, rng.poisson(shape.relevant, size=nq))
    rows, cols, grades = [], [], []
    qi = np.repeat(np.arange(nq), n_rel)
    hit = rng.random(len(qi)) < shape.retrieved_relevant
    rank = np.minimum((np.exp(rng.random(len(qi)) * np.log(k + 1)) - 1).astype(np.int64), k - 1)
    within = np.arange(len(qi)) - np.repeat(np.cumsum(n_rel) - n_rel, n_rel)      # 0, 1, ... per query
    rel_docs = np.where(hit, retrieved[qi, rank], elsewhere[qi, np.minimum(within, elsewhere.shape[1] - 1)])
    rel_grades = rng.integers(1, shape.top_grade + 1, size=len(qi))
    rows.append(qi), cols.append(rel_docs), grades.append(rel_grades)
    if shape.judged_retrieved:                       # judged non-relevant (or low) documents of the run
        top = np.arange(k) < shape.pool_depth
        judged = rng.random((nq, k)) < np.where(top, 0.9, shape.judged_retrieved)
        jq, jr = np.nonzero(judged)
        rows.append(jq), cols.append(retrieved[jq, jr]), grades.append(rng.integers(0, 2, size=len(jq)))
    if shape.judged_elsewhere:
        start = int(np.ceil(shape.relevant * 3))
        eq = np.repeat(np.arange(nq), shape.judged_elsewhere)
        ed = elsewhere[:, start:start + shape.judged_elsewhere].ravel()
        rows.append(eq), cols.append(ed), grades.append((rng.random(len(eq)) < 0.03).astype(np.int64))
    q, d, g = np.concatenate(rows), np.concatenate(cols), np.concatenate(grades)
    keep = np.unique(q * shape.population + d, return_index=True)[1]           # the first judgment of a document
    keep.sort()
    qrels = pa.table({'query_id': id_text(q[keep], 'numeric'), 'iteration': pa.array(np.full(len(keep), '0')),
                      'doc_id': id_text(d[keep], shape.ids), 'relevance': pa.array(g[keep])})
    return qrels, run


def write(scale: str, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    qrels, run = generate(scale)
    options = pa_csv.WriteOptions(include_header=False, delimiter=' ', quoting_style='none')
    paths = out / f'{scale}.qrels', out / f'{scale}.run'
    for table, path in zip((qrels, run), paths, strict=True):
        pa_csv.write_csv(table, path, options)
    return paths


def ensure(scale: str, out: Path) -> tuple[Path, Path]:
    """The files of ``scale`` in ``out``, written if missing."""
    paths = out / f'{scale}.qrels', out / f'{scale}.run'
    if not all(p.exists() for p in paths):
        print(f'writing the {scale} benchmark files into {out} ...', file=sys.stderr, flush=True)
        write(scale, out)
    return paths


if __name__ == '__main__':
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in (*SCALES, 'all'):
        sys.exit(f'usage: {sys.argv[0]} {{{"|".join(SCALES)}|all}} [OUTDIR]')
    target = Path(sys.argv[2] if len(sys.argv) == 3 else 'benchdata')
    for name in SCALES if sys.argv[1] == 'all' else [sys.argv[1]]:
        print(*write(name, target))
