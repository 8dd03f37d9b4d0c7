"""Hypothesis strategies for the input property tests: qrels and runs as Python data, and the TREC text of
them in any spelling trec_eval reads alike (any of C's separators, padding, CRLF, comment and blank lines,
fields after the run tag, every number notation strtod reads).

The text of a collection is built row by row (:class:`Rows`), so that a test can spoil one row and know
which line of the text it is.
"""
import bz2
import gzip
import lzma
from dataclasses import dataclass

from hypothesis import strategies as st
from trec_text_cases import ODD_ID_CHARS

#: How a TREC text can arrive compressed: file suffix -> compressor.
COMPRESSIONS = {'': bytes, '.gz': gzip.compress, '.bz2': bz2.compress, '.xz': lzma.compress}

#: characters of ids: anything UTF-8 holds but C's separators, the newline, NUL and the byte-order mark
ID_CHARACTERS = st.characters(codec='utf-8', exclude_characters=' \t\n\v\f\r\x00\ufeff') | st.sampled_from(ODD_ID_CHARS)
#: ids; none starts with '#', which would make its line a comment
IDS = st.text(ID_CHARACTERS, min_size=1, max_size=6).filter(lambda s: not s.startswith('#'))
GRADES = st.integers(-2, 4) | st.integers(-(2 ** 53) + 1, 2 ** 53 - 1)
SCORES = st.sampled_from([0.0, -0.0, 1.0, 0.5, -2.0, 1e-300]) | st.floats(allow_nan=False, allow_infinity=False)
SEPARATORS = st.text(st.sampled_from(' \t\v\f\r'), min_size=1, max_size=3)
PADDING = st.sampled_from(['', '', '', ' ', '\t', ' \r', '\v'])


@st.composite
def collections(draw):
    """(qrels, run) as dicts of dicts: a few queries and documents shared by both, tied scores, queries
    of each that the other lacks; the qrels are never empty."""
    queries = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    docs = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(docs), GRADES, min_size=1, max_size=6)) for q in queries}
    run_queries = draw(st.lists(st.sampled_from(queries) | IDS, max_size=5, unique=True))
    run = {q: draw(st.dictionaries(st.sampled_from(docs) | IDS, SCORES, min_size=1, max_size=8)) for q in run_queries}
    return qrels, run


def qrels_rows(qrels):
    return [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]


def run_rows(run):
    return [(q, d, s) for q, docs in run.items() for d, s in docs.items()]


def _grade_text(grade):
    return st.sampled_from([str(grade), f'+{grade}' if grade >= 0 else str(grade),
                            f'{grade:03d}' if grade >= 0 else str(grade)])


def _score_text(score):
    return st.sampled_from([repr(score), float.hex(score), f'{score:.17g}', f'{score:+.17e}', f'{score:.17G}'])


@st.composite
def qrels_fields(draw, qrels):
    """The fields of each qrels line: query, iteration, document, grade."""
    return [[q, draw(IDS), d, draw(_grade_text(g))] for q, d, g in qrels_rows(qrels)]


@st.composite
def run_fields(draw, run):
    """The fields of each run line: query, Q0, document, rank, score, tag (and sometimes more)."""
    return [[q, draw(IDS), d, draw(IDS), draw(_score_text(s)), draw(IDS), *draw(st.lists(IDS, max_size=2))]
            for q, d, s in run_rows(run)]


@dataclass
class Rows:
    """TREC text made of rows of fields, with what the text puts between and around them."""

    fields: list[list[str]]
    separators: list[list[str]]           # between the fields of each row
    padding: list[tuple[str, str]]        # before and after each row
    skipped: list[list[str]]              # comment and blank lines before each row
    newline: str
    final_newline: bool

    def text(self) -> bytes:
        """The text, UTF-8; a field may be bytes (a test's spoilt field), taken as they are."""
        lines = []
        for fields, seps, (before, after), skipped in zip(self.fields, self.separators, self.padding, self.skipped,
                                                         strict=True):
            lines += [line.encode() for line in skipped]
            parts = [f if isinstance(f, bytes) else f.encode() for f in fields]
            lines.append(before.encode() + b''.join(f + s.encode() for f, s in zip(parts, [*seps, ''], strict=True))
                         + after.encode())
        newline = self.newline.encode()
        return newline.join(lines) + (newline if self.final_newline and lines else b'')

    def line_of(self, row):
        """The 1-based line of the text holding row ``row``."""
        return sum(len(s) + 1 for s in self.skipped[:row + 1])


@st.composite
def rows(draw, fields):
    """:class:`Rows` of ``fields`` with any valid spelling."""
    n = len(fields)
    skipped = st.lists(st.sampled_from(['', ' \t', '# a comment', '#', '  #x y z']), max_size=2)
    return Rows(fields, [draw(st.lists(SEPARATORS, min_size=len(f) - 1, max_size=len(f) - 1)) for f in fields],
                [(draw(PADDING), draw(PADDING)) for _ in range(n)],
                [draw(skipped) if draw(st.integers(0, 5)) == 0 else [] for _ in range(n)],
                draw(st.sampled_from(['\n', '\r\n'])), draw(st.booleans()))
