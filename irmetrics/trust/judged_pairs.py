"""Qrels as one grade per judged pair, which the agreement between judgments compares (the pairs themselves
are found by :func:`irmetrics.data.judged_pairs.judgment_rows`)."""
from __future__ import annotations

from ..data.qrels import Qrels
from ..errors import DuplicateError


def one_grade_each(qrels: Qrels, argument: str) -> Qrels:
    """``qrels`` when each (query, document) has one grade; a :class:`DuplicateError` naming ``argument``
    when a document is judged under several iterations (subtopics), whose grades cannot be one label."""
    if qrels.judged_twice is not None:
        problem, line = qrels.judged_twice
        raise DuplicateError(f'{argument}: {problem}; agreement compares one grade per document: read the qrels '
                             f'with duplicates="max" (--qrels-duplicates max) to use each document\'s highest grade',
                             qrels.source, line)
    return qrels
