"""RAG measures at the size of a large track: 10,000 topics x 50 nuggets x 20 runs (10M assigned nuggets),
given as Arrow-readable records; times the checks and the four nugget scores (``rag.evaluate``).

    python benchmarks/bench_rag.py [--topics N] [--runs N]
"""
import argparse
import time

import numpy as np
import pyarrow as pa

from irmetrics import rag
from irmetrics.rag.records import SCHEMAS, Records


def generated(topics: int, nuggets: int, runs: int, seed: int = 0) -> tuple[Records, Records]:
    rng = np.random.default_rng(seed)
    qid = np.array([f'T{t}' for t in range(topics)], dtype=object)
    text = pa.array([f'fact {i}' for i in range(nuggets)] * topics)
    importance = pa.array(np.array(['okay', 'vital'])[rng.integers(0, 2, topics * nuggets)].tolist())
    offsets = pa.array(np.arange(0, topics * nuggets + 1, nuggets, dtype=np.int32))
    items = pa.StructArray.from_arrays([text, importance], names=['text', 'importance'])
    table = pa.table({'qid': qid, 'nuggets': pa.ListArray.from_arrays(offsets, items)}, schema=SCHEMAS['nuggets'])
    labels = np.array(['not_support', 'partial_support', 'support'])[rng.integers(0, 3, runs * topics * nuggets)]
    assigned_items = pa.StructArray.from_arrays(
        [pa.concat_arrays([text] * runs), pa.concat_arrays([importance] * runs), pa.array(labels.tolist())],
        names=['text', 'importance', 'assignment'])
    all_offsets = pa.array(np.arange(0, runs * topics * nuggets + 1, nuggets, dtype=np.int32))
    assigned = pa.table({'qid': np.tile(qid, runs), 'run_id': np.repeat([f'run{r}' for r in range(runs)], topics),
                         'nuggets': pa.ListArray.from_arrays(all_offsets, assigned_items)},
                        schema=SCHEMAS['assignments'])
    return (Records('nuggets', table, 'nuggets', range(1, topics + 1)),
            Records('assignments', assigned, 'assignments', range(1, runs * topics + 1)))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument('--topics', type=int, default=10_000)
    p.add_argument('--nuggets', type=int, default=50)
    p.add_argument('--runs', type=int, default=20)
    a = p.parse_args()
    nuggets, assignments = generated(a.topics, a.nuggets, a.runs)
    start = time.perf_counter()
    found = rag.evaluate('all vital strict_all strict_vital', nuggets, assignments)
    took = time.perf_counter() - start
    print(f'{a.topics:,} topics x {a.nuggets} nuggets x {a.runs} runs: {took:.2f} s '
          f'({found.values.shape[0]} runs x {found.values.shape[1]} topics x {found.values.shape[2]} measures)')


if __name__ == '__main__':
    main()
