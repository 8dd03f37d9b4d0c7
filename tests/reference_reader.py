"""A deliberately plain reader of TREC text, line by line, as trec_eval's readers read it.

It shares no code with irmetrics' readers: it splits each line with ``bytes.split()`` (which splits
on exactly C's ``isspace`` bytes), skips blank lines and lines whose first field starts with '#',
and converts numbers with Python's own parsers.  The differential tests compare irmetrics' readers
with it by evaluating both results.
"""
from __future__ import annotations

import re

_INTEGER = re.compile(rb'[+-]?[0-9]+')
_HEX = re.compile(rb'[+-]?0[xX].*')


def fields_of(text: bytes):
    """(line number, fields) of every line that is neither blank nor a comment."""
    for number, line in enumerate(text.split(b'\n'), 1):
        fields = line.split()
        if fields and not fields[0].startswith(b'#'):
            yield number, fields


def read_qrels(text: bytes) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for number, fields in fields_of(text):
        if len(fields) != 4 or not _INTEGER.fullmatch(fields[3]):
            raise ValueError(f'qrels line {number}: {fields!r}')
        docs = out.setdefault(fields[0].decode(), {})
        doc = fields[2].decode()
        if doc in docs:
            raise ValueError(f'qrels line {number}: {doc!r} judged twice')
        docs[doc] = int(fields[3])
    return out


def read_run(text: bytes) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for number, fields in fields_of(text):
        if len(fields) < 6:
            raise ValueError(f'run line {number}: {fields!r}')
        score = fields[4].decode()
        value = float.fromhex(score) if _HEX.fullmatch(fields[4]) else float(score)
        docs = out.setdefault(fields[0].decode(), {})
        doc = fields[2].decode()
        if doc in docs:
            raise ValueError(f'run line {number}: {doc!r} retrieved twice')
        docs[doc] = value
    return out
