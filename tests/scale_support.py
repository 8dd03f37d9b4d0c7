"""A generated collection for the tests of evaluation in parts (chunks, partitions) and columnar inputs.

Graded judgments (-1 to 3) under three subtopics, tied scores, qrels queries missing from the run,
run-only queries, optionally documents retrieved twice; and one measure or more of every family
of ``irmetrics/measures/__init__.py``.  Evaluated in parts, every per-query value must be the
in-memory one exactly.
"""
from __future__ import annotations

import math

import numpy as np

import irmetrics as irm

#: at least one measure of every family (module) of irmetrics.measures, some with parameters
FAMILY_MEASURES = [
    'Accuracy@10', 'AP', 'AUC', 'Bpref', 'Compat', 'NumQ', 'NumRel', 'NumRet',                      # accuracy .. counts
    'BPM(max_rel=3)@10', 'SDCG(max_rel=3)@10', 'INST(max_rel=3)', 'NERR10(max_rel=3)',               # cwl
    'alpha_nDCG@10', 'ERR_IA@10', 'nNRBP', 'P_IA@5', 'AP_IA', 'StRecall@10',                          # diversity
    'nERR@10', 'F1@10', 'Hits@10', 'infAP', 'IPrec(recall=0.5)', 'Judged@10', 'LAG@10',
    'nDCG@10', "nDCG(dcg='exp-log2')", 'DCG', 'P(rel=2)@5', 'RBP(p=0.9)', 'RBPResidual', 'R@20', 'Rprec',
    'RR', 'SetF', 'SetAP', 'Success@5',
]
#: the benchmark's nine measures
NINE = 'AP nDCG nDCG@10 P@10 R@100 RR Rprec Bpref Success@10'


def collection(seed: int = 0, queries: int = 60, numeric: bool = False, duplicates: int = 0,
               grouped: bool = True) -> tuple[str, str]:
    """(qrels text, run text) of a generated collection (see the module docstring).

    ``numeric``: query and document ids are numbers; ``duplicates``: that many (query, document)
    pairs retrieved a second time with another score; ``grouped=False``: run lines shuffled.
    """
    rng = np.random.default_rng(seed)
    qid = (lambda i: str(100 + i)) if numeric else (lambda i: f'q{i}')
    did = (lambda q, j: str(1000 * q + j)) if numeric else (lambda q, j: f'd{q}-{j}')
    qrels, run = [], []
    for q in range(queries):
        judged = rng.choice(40, size=int(rng.integers(1, 16)), replace=False)
        for j in judged.tolist():
            grade = int(rng.choice([-1, 0, 0, 1, 1, 2, 3]))
            qrels.append(f'{qid(q)} {int(rng.integers(0, 3))} {did(q, j)} {grade}')
        if rng.random() < 0.15:
            continue                                               # a qrels query missing from the run
        retrieved = rng.choice(40, size=int(rng.integers(1, 31)), replace=False)
        scores = np.round(rng.normal(size=len(retrieved)) * 2) / 2   # halves: many ties
        run += [(qid(q), did(q, j), float(s)) for j, s in zip(retrieved.tolist(), scores.tolist(), strict=True)]
    for q in range(queries, queries + 5):                          # run-only queries
        run += [(qid(q), did(q, j), float(j)) for j in range(3)]
    for k in rng.choice(len(run), size=duplicates, replace=False).tolist():
        run.append((run[k][0], run[k][1], run[k][2] + 0.5 * (1 + k % 3)))
    if grouped:                                                    # each query's lines together
        first: dict[str, int] = {}
        for i, (q, _, _) in enumerate(run):
            first.setdefault(q, i)
        order = sorted(range(len(run)), key=lambda i: (first[run[i][0]], i))
    else:
        order = rng.permutation(len(run)).tolist()
    lines = [f'{run[i][0]} Q0 {run[i][1]} {n + 1} {run[i][2]!r} tag' for n, i in enumerate(order)]
    return '\n'.join(qrels) + '\n', '\n'.join(lines) + '\n'


def assert_same_results(got: irm.CalcResults, want: irm.CalcResults) -> None:
    """The same queries, measures and per-query values, and the same aggregates, to the last bit."""
    assert got.query_ids == want.query_ids
    assert got.measures == want.measures
    assert got.values.shape == want.values.shape
    different = ~((got.values == want.values) | (np.isnan(got.values) & np.isnan(want.values)))
    assert not different.any(), [(want.query_ids[i], str(want.measures[j]), got.values[i, j], want.values[i, j])
                                 for i, j in zip(*np.nonzero(different), strict=True)][:5]
    for m, value in want.aggregated.items():
        other = got.aggregated[m]
        assert other == value or (math.isnan(other) and math.isnan(value)), (m, other, value)
