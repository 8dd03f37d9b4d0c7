"""Parsing measure strings, without ``eval``.

One parser serves the API, the CLI and printed labels:

    NAME [ '(' key=value {',' key=value} ')' ] [ '@' value ]

Values are integers, floats, quoted strings, ``True``/``False``,
``{int: number, ...}`` mappings and ``(number, ...)`` lists.  This is the ``'irmetrics'`` dialect;
:mod:`irmetrics.dialects` adds trec_eval's and ranx's names and the rule that chooses among them.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import MeasureError, MeasureSyntaxError
from .measure import REGISTRY, Measure, MeasureRegistry
from .params import integer_literal

#: How deep values may nest in brackets (``{1: (0.5, 1)}`` is 2 deep): far beyond any parameter, and far
#: below Python's recursion limit, so that hostile text gets a MeasureSyntaxError, never a RecursionError.
MAX_NESTING = 32

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<number>[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
    | (?P<string>'[^'\\]*'|"[^"\\]*")
    | (?P<name>[^\W\d]\w*)
    | (?P<punct>[()@=,{}:])
    )""", re.VERBOSE | re.UNICODE)


class _Tokens:
    def __init__(self, text: str):
        self.text = text
        self.items: list[tuple[str, str, int]] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if not m or m.end() == pos:
                raise self.error(f'unexpected character {stripped[pos:].lstrip()[:1]!r}', pos)
            kind = m.lastgroup or ''
            self.items.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def error(self, what: str, pos: int | None = None) -> MeasureSyntaxError:
        if pos is None:
            pos = self.items[self.i][2] if self.i < len(self.items) else len(self.text)
        return MeasureSyntaxError(f'cannot parse measure {self.text!r}: {what} at position {pos}')

    def peek(self) -> tuple[str, str, int] | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take(self, kind: str | None = None, value: str | None = None) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None or (kind and tok[0] != kind) or (value and tok[1] != value):
            want = repr(value) if value else (kind or 'a token')
            got = 'end of text' if tok is None else repr(tok[1])
            raise self.error(f'expected {want}, found {got}')
        self.i += 1
        return tok

    def accept(self, value: str) -> bool:
        tok = self.peek()
        if tok is not None and tok[0] == 'punct' and tok[1] == value:
            self.i += 1
            return True
        return False


def _number(text: str) -> int | float:
    if re.fullmatch(r'[+-]?\d+', text):
        return integer_literal(text)
    return float(text)


def _value(tokens: _Tokens, depth: int = 0) -> Any:
    """The value at the tokens' position; ``depth``: the brackets it is inside."""
    tok = tokens.peek()
    if tok is None:
        raise tokens.error('expected a value, found end of text')
    kind, text, _ = tok
    if kind == 'punct' and text in '({':
        if depth >= MAX_NESTING:
            raise tokens.error(f'values nested more than {MAX_NESTING} brackets deep')
        tokens.i += 1
        return _list(tokens, depth + 1) if text == '(' else _mapping(tokens, depth + 1)
    tokens.i += 1
    if kind == 'number':
        return _number(text)
    if kind == 'string':
        return text[1:-1]
    if kind == 'name' and text in ('True', 'False'):
        return text == 'True'
    tokens.i -= 1
    raise tokens.error(f'expected a value, found {text!r}')


def _list(tokens: _Tokens, depth: int) -> tuple[Any, ...]:
    """The items of a list, after its ``(``, up to its ``)``: numbers and strings."""
    items: list[Any] = []
    while not tokens.accept(')'):
        item = _value(tokens, depth)
        if isinstance(item, (dict, tuple)):
            raise tokens.error('expected a number or a string in a list')
        items.append(item)
        if not tokens.accept(','):
            tokens.take('punct', ')')
            break
    return tuple(items)


def _mapping(tokens: _Tokens, depth: int) -> dict[Any, Any]:
    """The pairs of a mapping, after its ``{``, up to its ``}``."""
    mapping: dict[Any, Any] = {}
    if tokens.accept('}'):
        return mapping
    while True:
        key = _value(tokens, depth)
        if isinstance(key, dict):
            raise tokens.error('expected a number or a string as key, found a mapping')
        if key in mapping:
            raise tokens.error(f'key {key!r} given twice')
        tokens.take('punct', ':')
        mapping[key] = _value(tokens, depth)
        if tokens.accept('}'):
            return mapping
        tokens.take('punct', ',')


def parse_measure(text: str | Measure, registry: MeasureRegistry = REGISTRY) -> Measure:
    """Parse a measure string such as ``'nDCG@10'`` or ``"P(rel=2)@5"`` (its name looked up in ``registry``:
    the measures of rankings, or another family's, as the RAG measures').

    Raises :class:`MeasureError` for syntax errors and invalid parameters, and
    :class:`UnknownMeasureError` (with suggestions) for unknown names.  Measures
    that lack a required parameter (``'P'`` without a cutoff) are refused.
    """
    if isinstance(text, Measure):
        return text.check_complete()
    if not isinstance(text, str):
        raise MeasureError(f'expected a measure or a measure string, got {type(text).__name__}')
    tokens = _Tokens(text)
    name = tokens.take('name')[1]
    measure = registry.lookup(name)
    kwargs: dict[str, Any] = {}
    if tokens.accept('(') and not tokens.accept(')'):
        while True:
            key = tokens.take('name')[1]
            tokens.take('punct', '=')
            if key in kwargs:
                raise tokens.error(f'parameter {key!r} given twice')
            kwargs[key] = _value(tokens)
            if tokens.accept(')'):
                break
            tokens.take('punct', ',')
    measure = measure(**kwargs)
    if tokens.accept('@'):
        measure = measure @ _value(tokens)
    extra = tokens.peek()
    if extra is not None:
        raise tokens.error(f'unexpected {extra[1]!r}')
    return measure.check_complete()


def split_measure_list(text: str) -> list[str]:
    """Split ``'nDCG@10 P(rel=2)@5'`` at white space outside brackets and quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ''
    for ch in text:
        if quote:
            quote = '' if ch == quote else quote
        elif ch in '\'"':
            quote = ch
        elif ch in '({':
            depth += 1
        elif ch in ')}':
            depth -= 1
        elif ch.isspace() and depth <= 0:
            if current:
                parts.append(''.join(current))
                current = []
            continue
        current.append(ch)
    if current:
        parts.append(''.join(current))
    return parts
