"""Random qrels and runs built to exercise trec_eval's measures and options, the same bytes for a seed on
every machine (Python's :mod:`random`, whose sequence for a seed is stable across versions).

A case holds a few queries with graded judgments (negative grades and grades above 9 included), ties
of scores, queries of the qrels missing from the run and queries only in the run, rankings deeper than
1,000 documents and rankings shorter than every cutoff, queries without a relevant document, and query
ids whose byte order differs from their numeric order.  Nothing is generated where trec_eval 10 itself
fails (see docs/conventions.md): no query whose every judgment is negative, no duplicate documents.

``COMMANDS`` are the trec_eval command lines each case is evaluated with; the stored outputs of
``data/trec_eval/make_oracles.py`` come from running trec_eval with them.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

GRADES = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, -1, -2, 12]

#: The command lines of the generated cases (without the two files): each case uses a few of them.
COMMANDS = [
    ['-q', '-c', '-m', 'all_trec'],
    ['-q', '-c', '-J', '-m', 'all_trec'],
    ['-q', '-c', '-l2', '-m', 'all_trec'],
    ['-q', '-c', '-l', '5', '-m', 'all_trec'],
    ['-q', '-c', '-M', '3', '-m', 'all_trec'],
    ['-q', '-c', '-M1500', '-m', 'all_trec'],
    ['-qc', '-J', '-M', '2', '-l3', '-m', 'all_trec'],
    ['-q', '-c', '-m', 'P.1,3,7', '-m', 'ndcg.1=0,2=3,4=1', '-m', 'utility.2,-1,0.5,0.001', '-N', '5000',
     '-m', 'iprec_at_recall.0.25,0.125,0.75', '-m', 'Rprec_mult.0.5,1.5,3', '-m', '11pt_avg.0.2,0.5,0.8',
     '-m', 'relative_P.2,4', '-m', 'success.2', '-m', 'rbp.p=0.5', '-m', 'rbp_resid.p=0.95', '-m', 'unj.2,4',
     '-m', 'relstring.4', '-m', 'set_F.0.5', '-m', 'G.1=2,3=5', '-m', 'Rndcg.2=7', '-m', 'ndcg_rel.0=1',
     '-m', 'yaap', '-m', 'map_cut.2,2000', '-m', 'ndcg_cut.3', '-m', 'recall.4'],
    ['-q', '-c', '-J', '-m', 'rbp.p=0.8,2=5', '-m', 'dcg', '-m', 'ideal_dcg', '-m', 'binG', '-m', 'yaap',
     '-m', 'relstring', '-m', 'utility', '-m', 'gm_map', '-m', 'gm_bpref'],
    ['-c', '-m', 'official'],
    ['-q', '-n', '-c', '-m', 'set'],
    ['-q', '-m', 'all_trec'],
    ['-c'],
]


@dataclass(frozen=True)
class Case:
    seed: int
    qrels: bytes
    run: bytes
    commands: tuple[tuple[str, ...], ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.qrels + b'\0' + self.run).hexdigest()


def make_case(seed: int) -> Case:
    rng = random.Random(seed)
    n_queries = rng.choice([1, 2, 3, 5, 8])
    names = rng.sample(['1', '2', '10', '101', '9', 'q1', 'q2', 'Q3', 'topic-4', '302', '45'], n_queries + 2)
    with_missing = rng.random() < 0.6
    qrels_lines, run_lines = [], []
    for qi, q in enumerate(names):
        in_qrels = qi != n_queries + 1                       # the last name is only in the run
        in_run = not (qi == n_queries and with_missing)      # the one before it, in some cases only in the qrels
        if qi == n_queries and not with_missing:
            continue
        depth = rng.choice([1, 2, 4, 10, 25, 60, 1200]) if in_run else 0
        docs = [f'd{qi}-{j}' for j in range(depth)]
        extra = [f'u{qi}-{j}' for j in range(rng.randint(0, 12))]           # judged, never retrieved
        if in_qrels:
            judged = [d for d in docs if rng.random() < 0.6] + extra
            if not judged:
                judged = [f'u{qi}-x']
            grades = [rng.choice(GRADES) for _ in judged]
            if max(grades) < 0:
                grades[0] = rng.choice([0, 1])                # trec_eval 10 fails on all-negative queries
            qrels_lines += [f'{q} {rng.choice(["0", "Q0"])} {d} {g}' for d, g in zip(judged, grades, strict=True)]
        if in_run and docs:
            scores = _scores(rng, len(docs))
            tag = rng.choice(['runA', 'runB'])
            run_lines += [f'{q} Q0 {d} {r} {s} {tag}' for r, (d, s) in enumerate(zip(docs, scores, strict=True), 1)]
    rng.shuffle(qrels_lines)
    rng.shuffle(run_lines)
    picked = sorted(rng.sample(range(len(COMMANDS)), 3))
    return Case(seed, _text(qrels_lines), _text(run_lines), tuple(tuple(COMMANDS[i]) for i in picked))


def _scores(rng: random.Random, n: int) -> list[str]:
    """Scores with ties (about one neighbour in five), as printed in a run."""
    out, s = [], rng.uniform(10, 30)
    for _ in range(n):
        if rng.random() > 0.2:
            s -= rng.choice([0.5, 0.25, 1.0, rng.uniform(0, 1)])
        out.append(f'{s:.4f}')
    return out


def _text(lines: list[str]) -> bytes:
    return ''.join(line + '\n' for line in lines).encode('utf-8')
