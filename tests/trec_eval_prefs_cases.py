"""Random preference, qrels-as-preferences and judgment-group files with runs, built to exercise
trec_eval's ``-R prefs``, ``-R qrels_prefs`` and ``-R qrels_jg`` (the same bytes for a seed on every
machine: Python's :mod:`random`).

A preference case holds judgment groups of one sub-group (equivalence classes: ties, 0.0 levels, a line
given twice) and of several sub-groups (partial orders over overlapping documents, so that transitivity
adds preferences), levels written in several ways (``2``, ``2.50``, ``1e1``, ``0.0``); judged documents
retrieved and not, unjudged retrieved ones; queries only in the run and only in the judgments; scores
with ties (preferences rank ties by document id ascending, qrels by descending).  The sub-groups of a
judgment group are drawn from one hidden order, so that they never contradict each other (trec_eval
aborts on a contradiction); a 0.0 level is given to a document in every sub-group or none.  Nothing is
generated where trec_eval fails on its own: no group of all-negative grades in qrels_jg, no duplicate
documents in a run.
"""
from __future__ import annotations

import random

from trec_eval_cases import Case, _scores, _text

PREFS_COMMANDS = [
    ['-q', '-c', '-m', 'all_prefs'],
    ['-q', '-c', '-M', '3', '-m', 'all_prefs'],
    ['-q', '-c', '-M1', '-m', 'all_prefs'],
    ['-c', '-m', 'prefs'],
    ['-q', '-c', '-J', '-l2', '-m', 'all_prefs'],
    ['-q', '-n', '-c', '-m', 'prefs_pair_imp', '-m', 'prefs_avgjg_Rnonrel_ret', '-m', 'num_q'],
    ['-q', '-m', 'all_prefs'],
]
JG_COMMANDS = [
    ['-q', '-c', '-m', 'qrels_jg'],
    ['-q', '-c', '-J', '-m', 'qrels_jg'],
    ['-q', '-c', '-l2', '-m', 'qrels_jg'],
    ['-q', '-c', '-M', '5', '-m', 'qrels_jg'],
    ['-q', '-c', '-m', 'P_avgjg.1,3,7', '-m', 'Rprec_mult_avgjg.0.5,1.5,3', '-m', 'map_avgjg'],
    ['-c', '-J', '-l', '0', '-m', 'qrels_jg'],
    ['-q', '-m', 'qrels_jg'],
]
FORMATS = ['prefs', 'prefs', 'prefs', 'qrels_prefs', 'qrels_jg']
NAMES = ['1', '2', '10', '101', '9', 'q1', 'q2', 'Q3', 'topic-4', '302', '45']
LEVEL_TEXTS = ['{:g}', '{:.1f}', '{:.2f}', '{:.3e}']


def make_prefs_case(seed: int) -> tuple[str, Case]:
    """(the -R format, the case): judgments (``Case.qrels``), a run and the command lines."""
    rng = random.Random(seed)
    rel_format = rng.choice(FORMATS)
    n_queries = rng.choice([1, 2, 3, 5])
    names = rng.sample(NAMES, n_queries + 2)
    with_missing = rng.random() < 0.6
    judgment_lines, run_lines = [], []
    for qi, q in enumerate(names):
        in_judgments = qi != n_queries + 1                   # the last name is only in the run
        in_run = not (qi == n_queries and with_missing)      # the one before it, in some cases only judged
        if qi == n_queries and not with_missing:
            continue
        depth = rng.choice([0, 1, 3, 6, 12, 30] if in_judgments else [1, 3]) if in_run else 0
        retrieved = [f'd{qi}-{j}' for j in range(depth)]
        pool = [d for d in retrieved if rng.random() < 0.7] + [f'u{qi}-{j}' for j in range(rng.randint(0, 6))]
        if len(pool) < 2:
            pool += [f'v{qi}-{j}' for j in range(2)]
        if in_judgments:
            judgment_lines += _judgments(rng, rel_format, q, pool)
        if in_run and retrieved:
            scores = _scores(rng, len(retrieved))
            run_lines += [f'{q} Q0 {d} {r} {s} run{seed % 3}'
                          for r, (d, s) in enumerate(zip(retrieved, scores, strict=True), 1)]
    rng.shuffle(judgment_lines)
    rng.shuffle(run_lines)
    commands = JG_COMMANDS if rel_format == 'qrels_jg' else PREFS_COMMANDS
    picked = sorted(rng.sample(range(len(commands)), 3))
    return rel_format, Case(seed, _text(judgment_lines), _text(run_lines),
                            tuple(tuple(['-R', rel_format, *commands[i]]) for i in picked))


def _judgments(rng: random.Random, rel_format: str, q: str, pool: list[str]) -> list[str]:
    """One query's lines: 1 to 3 judgment groups over documents of ``pool``."""
    lines = []
    for g in rng.sample(['A', 'B', 'jg1', 'jg2', '0'], rng.choice([1, 1, 2, 3])):
        docs = rng.sample(pool, rng.randint(1, len(pool)))
        hidden = {d: rng.choice([0, 0, 1, 2, 2, 3, 5]) for d in docs}        # the group's order, ties included
        if rel_format == 'qrels_jg':
            grades = {d: rng.choice([-1, 0, 1, 1, 2, 3]) for d in docs}
            if max(grades.values()) < 0:
                grades[docs[0]] = 1
            lines += [f'{q} {g} {d} {grades[d]}' for d in docs]
        elif rel_format == 'qrels_prefs':
            lines += [f'{q} {g} {d} {hidden[d]}' for d in docs]
            if rng.random() < 0.2:
                d = rng.choice(docs)
                lines.append(f'{q} {g} {d} {hidden[d]}')                   # the same line twice
        elif rng.random() < 0.5 or len(docs) < 3:
            text = rng.choice(LEVEL_TEXTS)
            lines += [f'{q} {g} s1 {d} {_level(text, hidden[d], 1.0)}' for d in docs]
            if rng.random() < 0.2:
                d = rng.choice(docs)
                lines.append(f'{q} {g} s1 {d} {_level(text, hidden[d], 1.0)}')       # the same line twice
        else:
            for s in range(rng.randint(2, 4)):
                text, scale = rng.choice(LEVEL_TEXTS), rng.choice([1.0, 0.5, 3.0, 10.0])
                part = rng.sample(docs, rng.randint(2, len(docs)))
                lines += [f'{q} {g} sub{s} {d} {_level(text, hidden[d], scale)}' for d in part]
    return lines


def _level(text: str, hidden: int, scale: float) -> str:
    """A level for a document of hidden value ``hidden`` (one way of writing numbers per sub-group): 0.0 for 0,
    else a positive number rising with it (steps of 0.5 or more: rounding never reorders two)."""
    return text.format(0.0 if hidden == 0 else hidden * scale + 0.25)
