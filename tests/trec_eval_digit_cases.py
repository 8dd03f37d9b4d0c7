"""Random qrels and runs whose values test trec_eval's arithmetic to the last bit, the same bytes for a
seed on every machine (Python's :mod:`random`).

Where :mod:`trec_eval_cases` exercises trec_eval's options and input rules, these cases exercise its
floating-point arithmetic: grades from 0 to 40 (large gains, whose sums round), several documents of one
grade (the levels of the ideal rankings), scores with ties, rankings from 1 to 120 documents, unjudged
documents in the rankings (rbp_resid, -J), a query of the qrels missing from the run (-c) and one only
in the run.  Nothing is generated where trec_eval 10 itself fails: no query whose every judgment is
negative, no document given twice.

``COMMANDS`` are the command lines every case is evaluated with (``all_trec`` and the measures it
leaves out, and the parameterised forms); the stored outputs of
``fixtures/trec_eval/make_17_digit_cases.py`` come from a trec_eval rebuilt to print 17 significant digits.
"""
from __future__ import annotations

import random

from trec_eval_cases import Case, _scores, _text

#: The command lines of every case (without the two files).
COMMANDS = [
    ('-q', '-c', '-m', 'all_trec', '-m', 'dcg', '-m', 'ideal_dcg', '-m', 'yaap'),
    ('-q', '-c', '-J', '-m', 'all_trec'),
    ('-q', '-c', '-l', '7', '-M', '9', '-m', 'all_trec'),
    ('-q', '-c', '-m', 'ndcg_cut.1,2,3,4,5,6,8,11,16,40,100', '-m', 'ndcg.1=0,2=3,4=1,33=2,40=0',
     '-m', 'ndcg_rel.3=7,40=5', '-m', 'Rndcg.2=9,5=0', '-m', 'rbp_resid.p=0.5', '-m', 'rbp.p=0.7,12=30',
     '-m', 'G.1=2,5=5', '-m', 'map_cut.1,3,7'),
    ('-q', '-c', '-J', '-m', 'ndcg_cut.2,7,30', '-m', 'rbp_resid.p=0.95', '-m', 'ndcg_rel', '-m', 'Rndcg',
     '-m', 'ideal_dcg.1=3'),
    ('-q', '-c', '-l', '0', '-m', 'ndcg', '-m', 'ndcg_cut.3,10', '-m', 'ndcg_rel', '-m', 'Rndcg', '-m', 'rbp_resid',
     '-m', 'map'),
    ('-q', '-c', '-m', 'rbp_resid.p=0', '-m', 'ndcg.40=40'),
    ('-q', '-c', '-m', 'rbp_resid.p=1', '-m', 'rbp.p=1', '-m', 'dcg.7=1.5'),
    ('-q', '-c', '-m', 'rbp_resid.p=0.999', '-m', 'rbp.p=0'),
]


def make_case(seed: int) -> Case:
    rng = random.Random(seed)
    n_queries = rng.randint(1, 6)
    names = rng.sample(['1', '2', '10', '101', '9', 'q1', 'q2', 'Q3', '302', '45'], n_queries + 2)
    qrels_lines, run_lines = [], []
    for qi, q in enumerate(names):
        in_qrels = qi != n_queries + 1                       # the last name is only in the run
        in_run = qi != n_queries                             # the one before it only in the qrels
        judged = [f'd{qi}-{j}' for j in rng.sample(range(150), rng.randint(1, 30))]
        if in_qrels:
            grades = _grades(rng, len(judged))
            qrels_lines += [f'{q} 0 {d} {g}' for d, g in zip(judged, grades, strict=True)]
        if in_run:
            depth = rng.choice([1, 2, 3, 4, 5, 7, 10, 15, 25, 40, 120])
            pool = judged + [f'u{qi}-{j}' for j in range(depth)]          # unjudged documents too
            docs = rng.sample(pool, min(depth, len(pool)))
            scores = _scores(rng, len(docs))
            run_lines += [f'{q} Q0 {d} {r} {s} run' for r, (d, s) in enumerate(zip(docs, scores, strict=True), 1)]
    rng.shuffle(qrels_lines)
    rng.shuffle(run_lines)
    return Case(seed, _text(qrels_lines), _text(run_lines), tuple(COMMANDS))


def _grades(rng: random.Random, n: int) -> list[int]:
    """Grades of one query: a few distinct values from 0 to 40 (so that several documents share a grade),
    now and then a negative one, never all negative."""
    levels = rng.sample(range(41), rng.randint(1, 5)) + ([-1] if rng.random() < 0.2 else [])
    grades = [rng.choice(levels) for _ in range(n)]
    if max(grades) < 0:
        grades[0] = rng.choice(range(41))
    return grades
