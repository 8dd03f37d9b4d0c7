"""Random qrels with fractional grades, and random z-scores files, for ``irmetrics trec_eval``'s byte comparison
with trec_eval 10; the same bytes for a seed on every machine (Python's :mod:`random`).

A grade case (:func:`make_grade_case`) is a case of :mod:`trec_eval_cases` whose grades are rewritten in the
spellings trec_eval's ``atol`` reads as their integer part: fractions (``0.5``, ``2.7``, ``0.999``),
exponents (``1e-3``, ``2e1``), signs (``+1``, ``-0.5``, ``-1.5``), ``1.``, ``.5`` and ``3.0000001``; every
query keeps a grade that ``atol`` reads as 0 or more (trec_eval 10 fails on a query whose every grade is
negative).  A z-scores case (:func:`make_zscore_case`) adds a file of ``query measure mean stddev`` lines:
queries of the qrels missing from it, measures missing for some queries (among them, the names sorting
after all of a query's lines that trec_eval 10 then looks up in the next query's lines), zero deviations,
numbers written in several ways; its last query id sorts after every query of the qrels and lists every
measure, so that no lookup reads past trec_eval's table (see irmetrics/cli/trec_zscores.py).
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from trec_eval_cases import Case, make_case

#: Grade spellings and the weight of each; ``atol`` reads them as 0, 1, 2, 3, 12, -1, ...
SPELLINGS = ['0', '0.5', '.5', '0.999', '-0.5', '1e-3', '1', '+1', '1.', '1.75', '2.7', '2', '2e1', '3.0000001',
             '3.5', '12.9', '-1.5', '-2']
#: The command lines of the grade cases (-l thresholds, -J, -M, gain maps, every measure).
GRADE_COMMANDS = [
    ('-q', '-c', '-m', 'all_trec'),
    ('-q', '-c', '-l2', '-m', 'all_trec'),
    ('-q', '-c', '-l', '3', '-J', '-m', 'all_trec'),
    ('-q', '-c', '-l0', '-M', '4', '-m', 'all_trec'),
    ('-q', '-c', '-M', '2', '-m', 'ndcg.1=2,2=5,3=1', '-m', 'ndcg_cut.3', '-m', 'G.2=3', '-m', 'P.1,2',
     '-m', 'rbp_resid.p=0.5', '-m', 'relstring.5', '-m', 'Rndcg.12=1', '-m', 'ndcg_rel'),
    ('-q', '-c', '-J', '-l2', '-m', 'official', '-m', 'ndcg', '-m', 'dcg', '-m', 'binG', '-m', 'infAP'),
]
#: The measure names of the z-scores files (the lines of -m official and a few more).
ZSCORE_NAMES = ['num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank',
                'iprec_at_recall_0.00', 'iprec_at_recall_0.50', 'iprec_at_recall_1.00', 'P_5', 'P_10', 'P_30',
                'ndcg', 'ndcg_cut_10', 'relstring', 'gm_bpref', 'set_F', 'set_P', 'utility', 'success_1']
#: What separates a line's query id from its measure.
SEPARATORS = [' ', '\t', '  ', ' \t']
#: The command lines of the z-scores cases.
ZSCORE_COMMANDS = [
    ('-q', '-c', '-m', 'official'),
    ('-c', '-m', 'all_trec'),
    ('-q', '-c', '-J', '-M', '5', '-m', 'map', '-m', 'P.5,10', '-m', 'ndcg', '-m', 'gm_bpref', '-m', 'num_ret',
     '-m', 'relstring', '-m', 'success.1', '-m', 'iprec_at_recall.0,0.5'),
    ('-q', '-c', '-l2', '-m', 'official', '-m', 'set', '-m', 'ndcg_cut.10'),
    ('-n', '-q', '-c', '-m', 'official'),
]


def make_grade_case(seed: int) -> Case:
    """A generated case (:func:`trec_eval_cases.make_case`) with its grades spelled :data:`SPELLINGS`."""
    base = make_case(3000 + seed)
    rng = random.Random(seed)
    lines = base.qrels.decode().splitlines()
    grades = [rng.choice(SPELLINGS) for _ in lines]
    seen: dict[str, bool] = {}
    for i, line in enumerate(lines):
        qid = line.split()[0]
        seen[qid] = seen.get(qid, False) or not grades[i].startswith('-') or grades[i] == '-0.5'
    for i, line in enumerate(lines):            # a query with only negative grades: its first made 0.5
        qid = line.split()[0]
        if not seen[qid]:
            grades[i], seen[qid] = '0.5', True
    qrels = ''.join(' '.join(line.split()[:3] + [g]) + '\n' for line, g in zip(lines, grades, strict=True))
    return Case(seed, qrels.encode(), base.run, tuple(GRADE_COMMANDS))


@dataclass(frozen=True)
class ZscoreCase:
    """A case and its z-scores file."""

    case: Case
    zscores: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.case.qrels + b'\0' + self.case.run + b'\0' + self.zscores).hexdigest()


def make_zscore_case(seed: int) -> ZscoreCase:
    """A generated case, grades as :func:`make_grade_case` writes them or whole, with a z-scores file (module
    docstring)."""
    case = make_grade_case(seed) if seed % 2 else make_case(4000 + seed)
    rng = random.Random(seed)
    qids = sorted({line.split()[0] for line in case.qrels.decode().splitlines()})
    names = sorted(ZSCORE_NAMES, key=lambda n: n.encode())
    lines = []
    for qid in qids:
        if rng.random() < 0.25:
            continue                                    # a query of the qrels with no line
        kept = _names(rng, names)
        lines += [qid + rng.choice(SEPARATORS) + f'{name} {_number(rng, False)} {_number(rng, True)}'
                  for name in kept]
    lines += [f'~last {name} 0.5 0.25' for name in names]        # '~' sorts after every query id above
    rng.shuffle(lines)
    text = '\n'.join(lines) + ('\n' if rng.random() < 0.8 else '')
    return ZscoreCase(Case(case.seed, case.qrels, case.run, tuple(ZSCORE_COMMANDS)), text.encode())


def _names(rng: random.Random, names: list[str]) -> list[str]:
    """A query's measures: all, a random part, the first ones (byte order) or the last ones."""
    kind = rng.choice(['all', 'some', 'first', 'last'])
    if kind == 'all':
        return names
    if kind == 'some':
        return [n for n in names if rng.random() < 0.6] or names[:1]
    cut = rng.randint(1, len(names) - 1)
    return names[:cut] if kind == 'first' else names[cut:]


def _number(rng: random.Random, deviation: bool) -> str:
    """A mean or a deviation as a z-scores file may write it (a deviation of 0 now and then)."""
    if deviation and rng.random() < 0.15:
        return rng.choice(['0', '0.0', '0e0'])
    if not deviation and rng.random() < 0.15:
        return rng.choice(['0', '1', '0.0'])              # with a deviation of 0, a value equal to the mean
    value = rng.uniform(0.01, 3.0) if deviation else rng.uniform(-0.5, 30.0)
    return rng.choice([f'{value:.4f}', f'{value:.17g}', f'{value:e}', f'+{abs(value):.3f}', f'{value:.0f}.'])
