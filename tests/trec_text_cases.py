"""Random TREC qrels and run files built to break readers, the same bytes for a seed on every machine.

Python's :mod:`random` draws everything (its sequence for a seed is stable across versions), so
the stored trec_eval outputs of ``tests/fixtures/trec_eval/make_oracles.py`` stay valid; each stored
case also keeps the SHA-256 of its inputs, checked by the tests.

What a case may hold: separators of every kind C's ``isspace`` knows (tab, runs of spaces,
vertical tab, form feed, carriage return), white space at either end of a line, ids with
Unicode white space, no-break spaces and control characters inside, long ids, tied scores, scores
in every notation strtod reads (exponents, signs, hexadecimal), graded and negative grades, grades
with a sign, fields after the run tag, blank and comment lines in runs, single comment lines in
qrels, no final newline, queries only in the qrels or only in the run, and sizes that cross the
64 KiB and 1 MiB thresholds of the readers.  Nothing is generated where trec_eval's own reader is
undefined or refuses (see docs/conventions.md): no '#' inside ids, no blank or consecutive comment
lines in qrels, no duplicates.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

#: characters inside ids that are not separators for trec_eval (and must not be for irmetrics)
ODD_ID_CHARS = ['\u00a0', '\u0085', '\u1680', '\u2000', '\u2007', '\u200a', '\u2028', '\u2029', '\u202f',
                '\u3000', '\x1c', '\x1d', '\x1e', '\x1f', '\x01', '\x7f', 'é', '€']
SEPARATORS = [' ', ' ', ' ', '\t', '  ', ' \t ', '\x0b', '\x0c', '\r', '\t\t']
SIZES = {'small': 3_000, '64k': 70_000, '2m': 2_200_000}       # bytes of run text to reach, roughly


@dataclass(frozen=True)
class Case:
    seed: int
    size: str
    qrels: bytes
    run: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.qrels + b'\0' + self.run).hexdigest()


def size_of(seed: int) -> str:
    """Seeds 0-39 are small, 40-49 cross 64 KiB, 50-52 cross 1 MiB (2.2 MB)."""
    return 'small' if seed < 40 else '64k' if seed < 50 else '2m'


def make_case(seed: int) -> Case:
    rng = random.Random(seed)
    size = size_of(seed)
    odd = rng.random() < 0.5                       # lines with odd white space, ids with odd characters
    n_queries = rng.choice([1, 2, 5, 12]) if size == 'small' else rng.choice([3, 20])
    per_query = max(1, SIZES[size] // (n_queries * 40))
    queries = [_id(rng, f'q{i}', odd) for i in range(n_queries + 2)]
    qrels_lines, run_lines = [], []
    for qi, q in enumerate(queries):
        in_qrels, in_run = qi != n_queries + 1, qi != n_queries        # one query only in each file
        n_docs = rng.randint(0, per_query) if size == 'small' else per_query
        docs = list(dict.fromkeys(_id(rng, f'd{qi}x{j}', odd) for j in range(n_docs)))
        scores = _scores(rng, len(docs))
        if in_run:
            for rank, (d, s) in enumerate(zip(docs, scores, strict=True), 1):
                fields = [q, rng.choice(['Q0', '0', 'x']), d, str(rank), _score_text(rng, s), 'tag']
                if rng.random() < 0.1:
                    fields += rng.choice([['extra'], ['a', 'b'], ['x\u00a0y']])
                run_lines.append(_join(rng, fields, odd))
                if odd and rng.random() < 0.02:
                    run_lines.append(rng.choice(['', ' ', '\t', '# comment', ' #c x y z w v']))
        if in_qrels:
            judged = [d for d in docs if rng.random() < 0.5] + [_id(rng, f'u{qi}x{j}', odd) for j in range(3)]
            for d in judged:
                grade = rng.choice(['0', '0', '1', '2', '3', '-1', '+1', '4', '-2'])
                qrels_lines.append(_join(rng, [q, rng.choice(['0', 'Q0', '1']), d, grade], odd))
    if odd:
        _comment(rng, qrels_lines, '# qrels comment')
        _comment(rng, run_lines, '#run comment')
    return Case(seed, size, _text(rng, qrels_lines), _text(rng, run_lines))


def _id(rng: random.Random, base: str, odd: bool) -> str:
    if odd and rng.random() < 0.15:
        c = rng.choice(ODD_ID_CHARS)
        base = rng.choice([base + c, c + base, base[:1] + c + base[1:]])
    if rng.random() < 0.02:
        base += 'L' * rng.randint(100, 300)         # a long id
    return base


def _scores(rng: random.Random, n: int) -> list[float]:
    out, s = [], rng.uniform(5, 50)
    for _ in range(n):
        if rng.random() > 0.15:                     # about 15% of neighbours tie
            s -= rng.choice([rng.uniform(0, 1), 0.25, 1.0])
        out.append(round(s, 4))
    rng.shuffle(out)                                # the file order is not the ranking
    return out


def _score_text(rng: random.Random, s: float) -> str:
    form = rng.random()
    if form < 0.6:
        return f'{s:.4f}'
    if form < 0.7:
        return f'{s:e}'
    if form < 0.8:
        return float.hex(s)
    if form < 0.9:
        return f'+{s!r}' if s >= 0 else repr(s)
    return repr(s)


def _join(rng: random.Random, fields: list[str], odd: bool) -> str:
    if not odd:
        return ' '.join(fields)
    line = ''.join(f + rng.choice(SEPARATORS) for f in fields[:-1]) + fields[-1]
    if rng.random() < 0.1:
        line = rng.choice(SEPARATORS) + line
    if rng.random() < 0.1:
        line += rng.choice(SEPARATORS)
    return line


def _comment(rng: random.Random, lines: list[str], text: str) -> None:
    """One comment line, never first or last, never next to another comment."""
    if len(lines) > 2:
        at = rng.randint(1, len(lines) - 1)
        if not lines[at - 1].lstrip().startswith('#') and not lines[at].lstrip().startswith('#'):
            lines.insert(at, text)


def _text(rng: random.Random, lines: list[str]) -> bytes:
    body = '\n'.join(lines)
    if lines and rng.random() < 0.8:
        body += '\n'
    return body.encode('utf-8')
