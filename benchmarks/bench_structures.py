#!/usr/bin/env python3
"""Each structure irmetrics builds by hand, timed against the library call it would be replaced by, on the same
input, the results checked to agree; a Markdown table of medians (docs/architecture.md, "Hand-built structures,
and the library calls they would be").

What is compared (MS MARCO's scale: a run of 7,000 queries x 1,000 documents = 7M rows, document ids drawn from
8.8M; 300K judgments; the numpy layout, used below 100,000 ids, at 90,000)
    fingerprints     Ids.fingerprint() of the Arrow layout (7M strings 'D1234567') and of the integer layout (7M
                     numbers, fingerprinted as their decimal text) against pandas.util.hash_array of the same
                     strings as an object array (made before timing; categorize=False, ten times faster than
                     the default on ids mostly distinct); checked: no two ids collide
    KeyTable         KeyTable(300K judged (document, query) keys).find(7M run keys) against
                     pandas.Index(keys).get_indexer; checked equal
    IdIndex          IdIndex(judged documents).lookup(run documents), built and the run's fingerprints computed in
                     the time, and built once with the fingerprints given (as the join has them), against
                     pandas.Index.get_indexer (object strings) and pyarrow.compute.index_in (Arrow strings); equal
    duplicates       Duplicates.find on the 7M (query, document) rows, with 10 repeated rows, the fingerprints of
                     the documents computed in the time and given (as the run's reader has them), against
                     pandas.DataFrame.duplicated(keep=False); equal rows
    layouts          Ids.encode() (distinct ids in order of first appearance, a code per id) of the Arrow layout
                     and the integer layout (7M document ids; 7M query ids grouped by query, as in a run) and the
                     numpy layout (90K) against pyarrow.compute.dictionary_encode and pandas.factorize (first
                     appearance order too; the results made comparable after timing); checked equal
    Kendall tau      irmetrics' pairwise tau-b (the n x n pair counts it uses up to 500 items) against
                     scipy.stats.kendalltau on the means of 100 to 500 systems; how many ulps apart
    getopt           irmetrics.cli.gnu_getopt.parse of a trec_eval command line (10,000 parses) against
                     getopt.gnu_getopt; checked equal

How to run (from the repository root; numpy, pandas, pyarrow, scipy)
    .venv/bin/python benchmarks/bench_structures.py            # N=5 interleaved runs after a warm-up
    .venv/bin/python benchmarks/bench_structures.py -n 3 --scale 0.1

The renderers are not timed: they format a few hundred values, against no library call that does their work.
Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import getopt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scipy.stats import kendalltau

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from bench_arrays import median_times  # noqa: E402  (this folder's benchmarks)

from irmetrics.cli.gnu_getopt import parse  # noqa: E402
from irmetrics.cli.trec_eval_command import OPTIONS  # noqa: E402
from irmetrics.data import ids  # noqa: E402
from irmetrics.data.duplicates import Duplicates  # noqa: E402
from irmetrics.data.ids.index import IdIndex, KeyTable  # noqa: E402
from irmetrics.trust.rank_correlation import tau_statistic  # noqa: E402

ROWS: list[tuple[str, str, str, float, float, str]] = []


def row(structure: str, ours: tuple[str, Callable[[], Any]], theirs: list[tuple[str, Callable[[], Any]]], n: int,
        same: Callable[[Any, Any], bool | str],
        readable: Callable[[str, Any], Any] = lambda name, value: value) -> None:
    """Time ``ours`` and each of ``theirs`` interleaved; record a table row per library call. ``readable``
    (untimed) turns each tool's result into what ``same`` compares."""
    tools = {ours[0]: ours[1], **dict(theirs)}
    values, medians = median_times(tools, n)
    values = {name: readable(name, value) for name, value in values.items()}
    for name, _ in theirs:
        verdict = same(values[ours[0]], values[name])
        agree = verdict if isinstance(verdict, str) else 'yes' if verdict else 'NO'
        ROWS.append((structure, ours[0], name, medians[ours[0]], medians[name], agree))
        print(f'{structure}: {ours[0]} {medians[ours[0]] * 1e3:.1f} ms, {name} {medians[name] * 1e3:.1f} ms, '
              f'same results: {agree}', flush=True)


def distinct_classes(a: np.ndarray, b: np.ndarray) -> bool:
    """Both fingerprints tell the ids apart exactly as the ids differ (no collision in either)."""
    return len(np.unique(a)) == len(np.unique(b))


def ulps(a: float, b: float) -> str:
    """'yes' for the same double, else how many units in the last place apart."""
    apart = abs(int(np.float64(a).view(np.int64)) - int(np.float64(b).view(np.int64)))
    return 'yes' if apart == 0 else f'{apart} ulp apart'


def same_codes(a: tuple[Any, np.ndarray], b: tuple[list[Any], np.ndarray]) -> bool:
    return a[0] == b[0] and np.array_equal(a[1], b[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('-n', type=int, default=5)
    parser.add_argument('--scale', type=float, default=1.0, help='a fraction of the sizes (0.1: 700K rows)')
    parser.add_argument('--only', default='', help='comma-separated structures: fingerprints,keytable,idindex,'
                                                   'duplicates,layouts,kendall,getopt')
    args = parser.parse_args()
    only = set(args.only.split(',')) - {''}
    rng = np.random.default_rng(0)
    queries, depth, n_docs = max(int(7000 * args.scale), 10), 1000, int(8_800_000 * args.scale)
    run_docs = rng.integers(0, n_docs, size=queries * depth)
    run_query = np.repeat(np.arange(queries), depth)
    judged = rng.choice(len(run_docs), size=int(300_000 * args.scale), replace=False)   # judged pairs, most retrieved
    text = pa.array(np.char.add('D', run_docs.astype(str)).astype(object), type=pa.string())
    as_objects = text.to_numpy(zero_copy_only=False)
    want = only.__contains__ if only else (lambda _: True)
    rows, judgments = f'{len(run_docs) / 1e6:g}M', f'{len(judged) / 1e3:g}K'

    if want('fingerprints'):
        def hashed() -> np.ndarray:          # categorize=False: 10 times faster on ids mostly distinct
            return pd.util.hash_array(as_objects, categorize=False)
        arrow, numbers = ids.column(text), ids.column(run_docs)
        row(f'fingerprints, {rows} ids', ('Arrow layout', arrow.fingerprint),
            [('pandas hash_array (object strings)', hashed)], args.n, distinct_classes)
        row(f'fingerprints, {rows} ids', ('integer layout', numbers.fingerprint),
            [('pandas hash_array (object strings)', hashed),
             ('pandas hash_array (the numbers made text)',
              lambda: pd.util.hash_array(run_docs.astype(str).astype(object), categorize=False))], args.n,
            distinct_classes)

    doc_fp = ids.column(text).fingerprint()
    keys = ids.mix(doc_fp, run_query)
    if want('keytable'):
        judged_keys = np.unique(keys[judged])
        index = pd.Index(judged_keys)
        row(f'KeyTable: {judgments} keys, {rows} found', ('KeyTable', lambda: KeyTable(judged_keys).find(keys)),
            [('pandas Index.get_indexer', lambda: pd.Index(judged_keys).get_indexer(keys)),
             ('pandas get_indexer (Index built)', lambda: index.get_indexer(keys))], args.n, np.array_equal)

    if want('idindex'):
        vocabulary = pc.unique(text.take(pa.array(judged)))
        vocab_ids, run_ids, vocab_objects = ids.column(vocabulary), ids.column(text), vocabulary.to_numpy(False)

        def arrow_index_in() -> np.ndarray:
            return pc.index_in(text, value_set=vocabulary).fill_null(-1).to_numpy().astype(np.int64)
        built, run_fp, pd_index = IdIndex(vocab_ids), run_ids.fingerprint(), pd.Index(vocab_objects)
        row(f'IdIndex: {judgments} judged ids, {rows} looked up',
            ('IdIndex', lambda: IdIndex(vocab_ids).lookup(run_ids)),
            [('pandas Index.get_indexer', lambda: pd.Index(vocab_objects).get_indexer(as_objects)),
             ('Arrow index_in', arrow_index_in)], args.n, np.array_equal)
        row(f'IdIndex: {judgments} judged ids, {rows} looked up',
            ('IdIndex built once, fingerprints given', lambda: built.lookup(run_ids, run_fp)),
            [('pandas get_indexer (Index built)', lambda: pd_index.get_indexer(as_objects)),
             ('Arrow index_in', arrow_index_in)], args.n, np.array_equal)

    if want('duplicates'):
        repeated = rng.choice(len(run_docs), size=10, replace=False)
        docs = run_docs.copy()
        docs[repeated] = docs[repeated - 1]                  # the row before (same query unless a query's first)
        doc_text = pa.array(np.char.add('D', docs.astype(str)).astype(object), type=pa.string())
        doc_ids = ids.column(doc_text)
        frame = pd.DataFrame({'q': run_query, 'd': doc_text.to_numpy(zero_copy_only=False)})

        fingerprints = doc_ids.fingerprint()

        def ours(given: bool) -> Callable[[], np.ndarray]:
            def find() -> np.ndarray:
                found = Duplicates.find(doc_ids, fingerprints if given else doc_ids.fingerprint(), run_query)
                return np.sort(found.rows) if found is not None else np.zeros(0, dtype=np.int64)
            return find

        def duplicated() -> np.ndarray:
            return np.flatnonzero(frame.duplicated(keep=False).to_numpy())
        for given, label in ((False, 'Duplicates.find'), (True, 'Duplicates.find, fingerprints given')):
            row(f'duplicates, {rows} (query, doc) rows', (label, ours(given)), [('pandas duplicated', duplicated)],
                args.n, np.array_equal)

    if want('layouts'):
        arrow, numbers = ids.column(text), ids.column(run_docs)
        small = as_objects[:90_000]

        def readable(name: str, found: Any) -> tuple[list[str], np.ndarray]:
            """(the distinct ids as strings, the codes) of any of the calls, made after timing."""
            if name == 'Arrow dictionary_encode':
                return found.dictionary.to_pylist(), found.indices.to_numpy()
            if name.startswith('pandas'):
                return [str(x) for x in found[1]], found[0]
            return found[0].to_list(), found[1]
        row(f'encode, Arrow layout, {rows}', ('ArrowIds.encode', arrow.encode),
            [('Arrow dictionary_encode', lambda: pc.dictionary_encode(text)),
             ('pandas factorize (object)', lambda: pd.factorize(as_objects))], args.n, same_codes, readable)
        row(f'encode, integer layout, {rows}', ('IntIds.encode', numbers.encode),
            [('pandas factorize (int64)', lambda: pd.factorize(run_docs))], args.n, same_codes, readable)
        query_numbers = run_query + 1000                     # a run's query ids: grouped, as a TREC run is
        query_text = pa.array(np.char.add('q', query_numbers.astype(str)).astype(object), type=pa.string())
        row(f'encode, Arrow layout, {rows} query ids (grouped)', ('ArrowIds.encode', ids.column(query_text).encode),
            [('Arrow dictionary_encode', lambda: pc.dictionary_encode(query_text))], args.n, same_codes, readable)
        row(f'encode, integer layout, {rows} query ids (grouped)', ('IntIds.encode', ids.column(query_numbers).encode),
            [('pandas factorize (int64)', lambda: pd.factorize(query_numbers))], args.n, same_codes, readable)
        small_ids = ids.column(small)
        row('encode, numpy layout, 90K', ('NumpyIds.encode', small_ids.encode),
            [('pandas factorize (object)', lambda: pd.factorize(small))], args.n, same_codes, readable)

    if want('kendall'):
        for systems in (100, 200, 300, 500):
            x = rng.random(systems).round(3)                  # means of systems: some tied
            y = (x + rng.normal(0, 0.05, systems)).round(3)
            row(f'Kendall tau-b, {systems} systems', ('pairwise counts', lambda x=x, y=y: tau_statistic(x, y)),
                [('scipy.stats.kendalltau', lambda x=x, y=y: float(kendalltau(x, y).statistic))], args.n,
                ulps)

    if want('getopt'):
        argv = ['-q', '-c', '-m', 'map', '-mndcg_cut.10', '--level_for_rel=2', 'qrels.txt', '-M', '1000',
                '--Judged', 'run.txt', '-N', '8841823']
        shortopts = ''.join(o.letter + (':' if o.value else '') for o in OPTIONS)
        longopts = [o.long + ('=' if o.long_takes_value else '') for o in OPTIONS]
        letters = {o.long: o.letter for o in OPTIONS}

        def ours_parse() -> list[Any]:
            for _ in range(10_000):
                found, operands = parse(argv, OPTIONS)
            return [(o.letter, v or '') for o, v in found] + operands

        def python_getopt() -> list[Any]:
            for _ in range(10_000):
                found, operands = getopt.gnu_getopt(argv, shortopts, longopts)
            return [(letters.get(o.lstrip('-'), o.lstrip('-')), v) for o, v in found] + operands
        row('getopt, 10,000 command lines', ('gnu_getopt.parse', ours_parse),
            [('getopt.gnu_getopt', python_getopt)], args.n, lambda a, b: a == b)

    print('\n| structure | hand-built | library call | hand-built (ms) | library (ms) | library / hand-built '
          '| same results |')
    print('|---|---|---|---:|---:|---:|---|')
    for structure, ours, theirs, a, b, agree in ROWS:
        print(f'| {structure} | {ours} | {theirs} | {a * 1e3:,.1f} | {b * 1e3:,.1f} | {b / a:.2f} | {agree} |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
