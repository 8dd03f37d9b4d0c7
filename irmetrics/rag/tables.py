"""Nuggets, assignments and answers checked and put in numpy columns, vectorised over every record.

The topics are the nuggets' (as the queries of an evaluation are the qrels'); a nugget is known by its topic
and text.  Every problem is one :class:`~irmetrics.errors.InputError` naming the file and the line: a null or
missing field, an unknown importance, assignment or support label, a topic twice in the nuggets, a topic without
nuggets, the same nugget twice, an assignment of a nugget the topic does not have (or with another importance),
an assignment record missing one of the topic's nuggets, and the same (run, topic) twice.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .records import Records

#: The labels of each kind, in the order of their codes.
IMPORTANCE = ('okay', 'vital')
ASSIGNMENT = ('not_support', 'partial_support', 'support')
SUPPORT = ('no_support', 'partial_support', 'full_support')


@dataclass(frozen=True)
class Nuggets:
    """The topics (in the order of the file) and, for each nugget, its topic's code and whether it is vital."""

    topics: list[str]
    topic: np.ndarray
    vital: np.ndarray
    #: ``topic id + '\\x1f' + text`` of each nugget, what assignments are matched on
    keys: pa.Array


@dataclass(frozen=True)
class Assignments:
    """One row per assigned nugget: its record's (run, topic) cell and its assignment's code."""

    runs: list[str]
    #: each record's run code and topic code
    record_run: np.ndarray
    record_topic: np.ndarray
    #: each assigned nugget's record, nugget (index into :class:`Nuggets`) and label (:data:`ASSIGNMENT`)
    record: np.ndarray
    nugget: np.ndarray
    label: np.ndarray


@dataclass(frozen=True)
class Answers:
    """One row per (sentence, citation) pair with its support label, and each sentence's answer."""

    runs: list[str]
    record_run: np.ndarray
    record_topic: np.ndarray
    #: each sentence's record
    sentence_record: np.ndarray
    #: each citation's sentence and support label (:data:`SUPPORT`)
    citation_sentence: np.ndarray
    label: np.ndarray


def nuggets(records: Records) -> Nuggets:
    t = records.table
    _no_nulls(records, ('qid', 'nuggets'))
    topics = t.column('qid').combine_chunks()
    _unique(records, np.asarray(_codes(topics)), 'topic {} has two nugget records', ids=(topics,))
    items, parent = _flat(t.column('nuggets'))
    counts = np.bincount(parent, minlength=t.num_rows)
    if (counts == 0).any():
        i = int(np.flatnonzero(counts == 0)[0])
        raise records.error(i, f'topic {topics[i].as_py()!r} has no nuggets')
    text = _field(records, items, parent, 'text', 'nugget')
    importance = _labels(records, _field(records, items, parent, 'importance', 'nugget'), parent, IMPORTANCE,
                         'importance')
    keys = pc.binary_join_element_wise(pc.take(topics, pa.array(parent)), text, '\x1f')
    _unique(records, np.asarray(_codes(keys)), 'the nugget {} is given twice', parent, keys)
    return Nuggets(topics.to_pylist(), parent, importance == 1, keys)


def _run_topic_records(records: Records, known: Nuggets, topic: str, body: str,
                       what: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The runs, and each record's run and topic code, of records of one (run, topic) each: every field given,
    every topic one of the nuggets', no (run, topic) twice."""
    t = records.table
    _no_nulls(records, (topic, 'run_id', body))
    runs, record_run = _run_codes(t.column('run_id'))
    record_topic = _topic_codes(records, t.column(topic), known, topic)
    _unique(records, record_run.astype(np.int64) * len(known.topics) + record_topic,
            f'a second {what} of run {{}} for topic {{}}', ids=(t.column('run_id'), t.column(topic)))
    return runs, record_run, record_topic


def assignments(records: Records, known: Nuggets) -> Assignments:
    t = records.table
    runs, record_run, record_topic = _run_topic_records(records, known, 'qid', 'nuggets', 'assignment record')
    items, parent = _flat(t.column('nuggets'))
    text = _field(records, items, parent, 'text', 'assigned nugget')
    keys = pc.binary_join_element_wise(pc.take(t.column('qid').combine_chunks(), pa.array(parent)), text, '\x1f')
    nugget = np.asarray(pc.index_in(keys, value_set=known.keys).fill_null(-1))
    if (nugget < 0).any():
        i = int(np.flatnonzero(nugget < 0)[0])
        raise records.error(int(parent[i]), f'the nugget {text[i].as_py()!r} is not one of topic '
                                            f'{t.column("qid")[int(parent[i])].as_py()!r}\'s nuggets')
    importance = _labels(records, _field(records, items, parent, 'importance', 'assigned nugget'), parent,
                         IMPORTANCE, 'importance')
    other = np.flatnonzero(importance != known.vital[nugget])
    if len(other):
        raise records.error(int(parent[other[0]]), f'the nugget {text[int(other[0])].as_py()!r} is '
                                                   f'{IMPORTANCE[importance[other[0]]]!r} here but '
                                                   f'{IMPORTANCE[1 - importance[other[0]]]!r} in the nuggets')
    label = _labels(records, _field(records, items, parent, 'assignment', 'assigned nugget'), parent, ASSIGNMENT,
                    'assignment')
    _unique(records, parent.astype(np.int64) * len(nugget) + nugget, 'the nugget {} is assigned twice', parent, text)
    _complete(records, known, record_topic, parent)
    return Assignments(runs, record_run, record_topic, parent, nugget, label)


def answers(records: Records, known: Nuggets) -> Answers:
    t = records.table
    runs, record_run, record_topic = _run_topic_records(records, known, 'topic_id', 'answer', 'answer')
    sentences, sentence_record = _flat(t.column('answer'))
    citations, support = (sentences.field(f) for f in ('citations', 'support'))
    if support.null_count:
        i = int(np.flatnonzero(np.asarray(support.is_null()))[0])
        raise records.error(int(sentence_record[i]), f'sentence {_nth(sentence_record, i)} of the answer has no '
                                                     f'"support" labels (one a citation)')
    cited = np.asarray(pc.list_value_length(citations).fill_null(0))
    labelled = np.asarray(pc.list_value_length(support))
    if (cited != labelled).any():
        i = int(np.flatnonzero(cited != labelled)[0])
        raise records.error(int(sentence_record[i]), f'sentence {_nth(sentence_record, i)} of the answer has '
                                                     f'{cited[i]} citations but {labelled[i]} support labels')
    labels, citation_sentence = _flat(support)
    label = _labels(records, labels, sentence_record[citation_sentence], SUPPORT, 'support')
    return Answers(runs, record_run, record_topic, sentence_record, citation_sentence, label)


def _nth(parents: np.ndarray, i: int) -> int:
    """The 1-based position of item ``i`` among the items of its record."""
    return int(i - np.searchsorted(parents, parents[i]) + 1)


def _flat(lists: pa.ChunkedArray | pa.Array) -> tuple[pa.Array, np.ndarray]:
    """The items of a list column, and the row of each (null lists have none)."""
    array = lists.combine_chunks() if isinstance(lists, pa.ChunkedArray) else lists
    return pc.list_flatten(array), np.asarray(pc.list_parent_indices(array), dtype=np.int64)


def _codes(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    encoded = column.dictionary_encode()
    chunks = encoded.chunks if isinstance(encoded, pa.ChunkedArray) else [encoded]
    return pa.concat_arrays([c.indices for c in chunks]) if chunks else pa.array([], pa.int32())


def _run_codes(column: pa.ChunkedArray) -> tuple[list[str], np.ndarray]:
    encoded = column.combine_chunks().dictionary_encode()
    return encoded.dictionary.to_pylist(), np.asarray(encoded.indices, dtype=np.int64)


def _topic_codes(records: Records, column: pa.ChunkedArray, known: Nuggets, field: str) -> np.ndarray:
    codes = np.asarray(pc.index_in(column, value_set=pa.array(known.topics, pa.string())).fill_null(-1))
    if (codes < 0).any():
        i = int(np.flatnonzero(codes < 0)[0])
        raise records.error(i, f'topic {column[i].as_py()!r} ({field}) has no nuggets')
    return codes.astype(np.int64)


def _no_nulls(records: Records, fields: tuple[str, ...]) -> None:
    for f in fields:
        column = records.table.column(f)
        if column.null_count:
            i = int(np.flatnonzero(np.asarray(column.is_null()))[0])
            raise records.error(i, f'the {records.kind} record has no {f!r}')


def _field(records: Records, items: pa.Array, parent: np.ndarray, name: str, what: str) -> pa.Array:
    values = items.field(name)
    if values.null_count:
        i = int(np.flatnonzero(np.asarray(values.is_null()))[0])
        raise records.error(int(parent[i]), f'a {what} has no {name!r}')
    return values


def _labels(records: Records, values: pa.Array, parent: np.ndarray, allowed: tuple[str, ...], name: str) -> np.ndarray:
    """The code of each value in ``allowed``; an error names the first value that is none of them."""
    codes = np.asarray(pc.index_in(values, value_set=pa.array(allowed)).fill_null(-1))
    if (codes < 0).any():
        i = int(np.flatnonzero(codes < 0)[0])
        raise records.error(int(parent[i]), f'unknown {name} {values[i].as_py()!r} (expected '
                                            f'{", ".join(allowed)})')
    return codes.astype(np.int8)


def _unique(records: Records, keys: np.ndarray, problem: str, parent: np.ndarray | None = None,
            shown: pa.Array | None = None, ids: tuple[pa.ChunkedArray, ...] = ()) -> None:
    """An error at the second occurrence of a key of ``keys`` (one a record, or one an item of record
    ``parent``), ``problem`` filled with the repeated item (``shown``) or the record's ``ids``."""
    order = np.argsort(keys, kind='stable')
    repeated = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if not len(repeated):
        return
    second = int(order[repeated + 1].min())
    record = second if parent is None else int(parent[second])
    words = [repr(shown[second].as_py())] if shown is not None else [repr(c[second].as_py()) for c in ids]
    raise records.error(record, problem.format(*words))


def _complete(records: Records, known: Nuggets, record_topic: np.ndarray, parent: np.ndarray) -> None:
    """Each assignment record assigns every nugget of its topic (each once: checked before)."""
    per_topic = np.bincount(known.topic, minlength=len(known.topics))
    assigned = np.bincount(parent, minlength=len(record_topic))
    short = np.flatnonzero(assigned != per_topic[record_topic])
    if len(short):
        i = int(short[0])
        raise records.error(i, f'the record assigns {assigned[i]} of the {per_topic[record_topic[i]]} nuggets of topic '
                               f'{known.topics[record_topic[i]]!r}: every nugget needs an assignment')
