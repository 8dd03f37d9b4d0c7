"""The JSON lines of a RAG evaluation read into Arrow tables, each record's line kept for messages.

Three kinds of records, each one JSON object a line (the AutoNuggetizer's files and the TREC 2024 RAG track's
answer format), or the same records as a list of dicts or a pandas DataFrame:

* nuggets: ``{"qid", "query", "nuggets": [{"text", "importance"}]}``, importance ``vital`` or ``okay``;
* assignments: ``{"qid", "run_id", "nuggets": [{"text", "importance", "assignment"}]}``, assignment
  ``support``, ``partial_support`` or ``not_support`` (the other fields the nuggetizer writes are ignored);
* answers: ``{"run_id", "topic_id", "answer": [{"text", "citations", "support"}]}``, ``support`` (irmetrics'
  field) one label per citation, ``full_support``, ``partial_support`` or ``no_support``.

A file is read by Arrow's JSON reader; when that fails (malformed JSON, a number where an id was expected),
it is read again line by line, ids made text, and the first bad line named.  :mod:`.tables` checks the values.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..data.paths import is_path
from ..data.trec.blocks import open_text
from ..errors import InputError

_TEXT = pa.string()
#: The fields read of each kind of record (others are ignored), and their types.
SCHEMAS = {
    'nuggets': pa.schema([('qid', _TEXT), ('nuggets', pa.list_(pa.struct([('text', _TEXT), ('importance', _TEXT)])))]),
    'assignments': pa.schema([('qid', _TEXT), ('run_id', _TEXT), ('nuggets', pa.list_(pa.struct(
        [('text', _TEXT), ('importance', _TEXT), ('assignment', _TEXT)])))]),
    'answers': pa.schema([('run_id', _TEXT), ('topic_id', _TEXT), ('answer', pa.list_(pa.struct(
        [('text', _TEXT), ('citations', pa.list_(_TEXT)), ('support', pa.list_(_TEXT))])))]),
}
#: The id fields of each kind, read as text whatever JSON type they have (a topic id 42 is '42').
_IDS = {'nuggets': ('qid',), 'assignments': ('qid', 'run_id'), 'answers': ('run_id', 'topic_id')}


@dataclass(frozen=True)
class Records:
    """One kind of records as an Arrow table, and where each came from: ``source`` (a file's path, or
    ``'nuggets records'`` for Python objects) and ``lines`` (each record's 1-based line, or item number)."""

    kind: str
    table: pa.Table
    source: str
    lines: Sequence[int]

    def error(self, record: int, problem: str) -> InputError:
        """An :class:`InputError` naming the source and the line of record number ``record``."""
        return InputError(problem, self.source, int(self.lines[record]))


def read(kind: str, given: Any) -> Records:
    """The records of ``kind`` (:data:`SCHEMAS`) from a path (JSON lines, compressed or not), a list of dicts or
    a pandas DataFrame."""
    if isinstance(given, Records):
        return given
    if is_path(given):
        return _file(kind, os.fspath(given))
    if hasattr(given, 'to_dict') and hasattr(given, 'columns'):          # a pandas DataFrame
        given = given.to_dict('records')
    if isinstance(given, Sequence) and not isinstance(given, (str, bytes)):
        source = f'{kind} records'
        return _from_objects(kind, list(given), source, range(1, len(given) + 1))
    raise InputError(f'{kind}: expected a JSON lines file, a list of dicts or a pandas DataFrame, got '
                     f'{type(given).__name__}')


def _file(kind: str, path: str) -> Records:
    import pyarrow.json as pj
    if not os.path.isfile(path):
        raise InputError(f'no such file ({kind})', path)
    options = pj.ParseOptions(explicit_schema=SCHEMAS[kind], unexpected_field_behavior='ignore')
    with open_text(path) as f:
        data = f.read()
    try:
        table = pj.read_json(pa.py_buffer(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        table = None
    lines = [n for n, line in enumerate(data.split(b'\n'), 1) if line.strip()]
    if table is not None and table.num_rows == len(lines):
        return Records(kind, table, path, lines)
    objects = [_parsed(raw, path, n) for n, raw in zip(lines, (data.split(b'\n')[n - 1] for n in lines), strict=True)]
    return _from_objects(kind, objects, path, lines)


def _parsed(raw: bytes, path: str, line: int) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as ex:
        raise InputError(f'malformed JSON: {ex}', path, line) from None


def _from_objects(kind: str, objects: list[Any], source: str, lines: Sequence[int]) -> Records:
    """Records from Python objects, each checked: an object with the fields of its kind, ids made text."""
    schema = SCHEMAS[kind]
    normalise = _NORMALISE[kind]
    rows = [normalise(_checked(o, kind, source, n)) for o, n in zip(objects, lines, strict=True)]
    try:
        table = pa.Table.from_pylist(rows, schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        for row, n in zip(rows, lines, strict=True):
            try:
                pa.Table.from_pylist([row], schema=schema)
            except (pa.ArrowInvalid, pa.ArrowTypeError) as ex:
                raise InputError(f'a {kind} record of the wrong shape ({ex})', source, n) from None
        raise
    return Records(kind, table, source, list(lines))


def _checked(obj: Any, kind: str, source: str, line: int) -> dict[str, Any]:
    if not isinstance(obj, Mapping):
        raise InputError(f'a {kind} record must be a JSON object, found {type(obj).__name__}', source, line)
    missing = [f for f in SCHEMAS[kind].names if obj.get(f) is None]
    if missing:
        raise InputError(f'the {kind} record has no {", ".join(repr(f) for f in missing)}', source, line)
    out = {f: obj[f] for f in SCHEMAS[kind].names}
    for f in _IDS[kind]:
        if isinstance(out[f], (dict, list, bool)):
            raise InputError(f'{f} must be a string or a number, found {json.dumps(out[f])[:40]}', source, line)
        out[f] = str(out[f])
    return out


def _answers(record: dict[str, Any]) -> dict[str, Any]:
    """Citations as text (the track writes them as numbers: indices into the references)."""
    sentences = record['answer']
    if isinstance(sentences, list):
        record['answer'] = [{**s, 'citations': [str(c) for c in s.get('citations') or ()]}
                            if isinstance(s, dict) else s for s in sentences]
    return record


def _same(record: dict[str, Any]) -> dict[str, Any]:
    return record


_NORMALISE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    'nuggets': _same, 'assignments': _same, 'answers': _answers}
