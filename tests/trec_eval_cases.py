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


# --- edge cases: long ids, option values at the limits of trec_eval's reading ----------------------------
#: Lengths of the long document ids an edge case puts in its files (1 KB to 1 MB).
LONG_ID_LENGTHS = [1_000, 4_096, 20_000, 100_000, 1_000_000]
#: Option values trec_eval reads as numbers and irmetrics must read the same way: signs, padding, 0,
#: values beyond a C long (atol saturates).
OPTION_VALUES = {
    '-l': ['0', '1', '2', '+2', ' 3', '40'],
    '-M': ['0', '1', '+4', ' 7', '1500', '99999999999999999999'],
    '-N': ['0', '+250', '99999999999999999999'],
}
#: Measure parameters at the limits: cutoffs beyond a long, integer gains, grades beyond those judged.
MEASURE_VALUES = ['P.9223372036854775808', 'ndcg_cut.+3,07', 'success.99999999999999999999',
                  'ndcg.0=1,3=2,12=40', 'G.2=0', 'iprec_at_recall.0,1,.5', 'relstring.3', 'relstring.0',
                  'relstring.1e19', 'utility.+1,-1,0,0', 'rbp.p=0.25', 'unj.99999999999999999999',
                  'map_cut.1,2', 'Rprec_mult.0.25,4', 'set_F.0', '11pt_avg.0,1']
#: Values irmetrics refuses with one error line where trec_eval's atol/atof reads something (see
#: docs/conventions.md): trailing junk, digits of other scripts, hexadecimal, exponents in integers.
REFUSED_VALUES = {'-l': ['2x', '２', '0x10'], '-M': ['1e3', '٣', '5.'], '-N': ['1_000']}
REFUSED_MEASURES = ['P.５', 'ndcg.1=２', 'P.5x', 'rbp.p=0x1', 'ndcg_cut.1e3', 'map_cut.1e1']


def make_edge_case(seed: int) -> Case:
    """A generated case (:func:`make_case`) whose documents include ids of 1 KB to 1 MB, judged and not,
    with command lines of option values from :data:`OPTION_VALUES` and :data:`MEASURE_VALUES`, and one
    from the refused values."""
    base = make_case(1000 + seed)
    rng = random.Random(seed)
    qrels, run = base.qrels.decode().splitlines(), base.run.decode().splitlines()
    run_docs = sorted({line.split()[2] for line in run})
    judged = {line.split()[2] for line in qrels}
    chosen = rng.sample(run_docs, min(len(run_docs), rng.randint(1, 4)))
    rename = {}
    for i, doc in enumerate(chosen):
        length = rng.choice(LONG_ID_LENGTHS)
        rename[doc] = (doc + '-' + 'abcdefghij'[i] * length)[:length] if length > len(doc) else doc
    if judged and rng.random() < 0.5:                       # a long id judged and never retrieved
        doc = rng.choice(sorted(judged))
        rename.setdefault(doc, doc + '=' + 'z' * rng.choice(LONG_ID_LENGTHS))

    def renamed(line: str, field: int) -> str:
        parts = line.split()
        parts[field] = rename.get(parts[field], parts[field])
        return ' '.join(parts)
    commands = []
    for _ in range(3):
        args = ['-q', '-c']
        for option, values in OPTION_VALUES.items():
            if rng.random() < 0.6:
                args += [option, rng.choice(values)]
        for measure in rng.sample(MEASURE_VALUES, 3):
            args += ['-m', measure]
        commands.append(tuple(args + ['-m', 'official']))
    if rng.random() < 0.5:
        option = rng.choice(sorted(REFUSED_VALUES))
        commands.append(('-q', '-c', option, rng.choice(REFUSED_VALUES[option]), '-m', 'map'))
    else:
        commands.append(('-q', '-c', '-m', rng.choice(REFUSED_MEASURES)))
    return Case(seed, _text([renamed(line, 2) for line in qrels]), _text([renamed(line, 2) for line in run]),
                tuple(commands))


def refused(args: tuple[str, ...] | list[str]) -> bool:
    """Whether a command line of :func:`make_edge_case` holds a value irmetrics refuses."""
    values = set(args)
    return any(v in values for vs in REFUSED_VALUES.values() for v in vs) or bool(values & set(REFUSED_MEASURES))
