"""Finding (query, document) pairs in qrels: which judgment, if any, a retrieved or judged pair has.

One join serves the agreement between two qrels, the pool (which pooled documents are judged already)
and the bounds under unjudged documents: every pair is turned into one integer key in the qrels' own
codes (query code times the number of distinct documents, plus the document's code), and the keys
are matched by one sort and a binary search, without a Python loop over the pairs.
"""
from __future__ import annotations

import numpy as np

from ..data.ids import Ids
from ..data.qrels import Qrels
from ..errors import DuplicateError


def judgment_rows(qrels: Qrels, query_ids: Ids, qidx: np.ndarray, doc_ids: Ids) -> np.ndarray:
    """For each pair (query ``query_ids[qidx[i]]``, document ``doc_ids[i]``), the row of ``qrels`` that
    judges it, or -1 when the qrels do not (a document judged under several iterations: its highest-graded row,
    the grade the measures that read one grade per document see)."""
    vocabulary, doc_codes = qrels.doc_ids.encode()
    width = np.int64(max(len(vocabulary), 1))
    judged_keys = qrels.qidx.astype(np.int64) * width + doc_codes
    query = query_ids.lookup(qrels.query_ids)[np.asarray(qidx, dtype=np.int64)]
    doc = doc_ids.lookup(vocabulary) if len(doc_ids) else np.zeros(0, dtype=np.int64)
    keys = np.where((query >= 0) & (doc >= 0), query * width + doc, -1)
    order = np.lexsort((qrels.relevance, judged_keys))      # the rows of one pair by grade: the highest last
    ordered = judged_keys[order]
    at = np.clip(np.searchsorted(ordered, keys, side='right') - 1, 0, max(len(ordered) - 1, 0))
    found = (keys >= 0) & (ordered[at] == keys) if len(ordered) else np.zeros(len(keys), dtype=bool)
    rows = np.full(len(keys), -1, dtype=np.int64)
    rows[found] = order[at[found]]
    return rows


def one_grade_each(qrels: Qrels, argument: str) -> Qrels:
    """``qrels`` when each (query, document) has one grade; a :class:`DuplicateError` naming ``argument``
    when a document is judged under several iterations (subtopics), whose grades cannot be one label."""
    if qrels.judged_twice is not None:
        problem, line = qrels.judged_twice
        raise DuplicateError(f'{argument}: {problem}; agreement compares one grade per document: read the qrels '
                             f'with duplicates="max" (--qrels-duplicates max) to use each document\'s highest grade',
                             qrels.source, line)
    return qrels
