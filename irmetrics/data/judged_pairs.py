"""Finding (query, document) pairs in qrels: which judgment, if any, a retrieved or judged pair has.

One join serves every room that reads the grade of a pair outside an evaluation: the agreement between two
qrels, the pool (which pooled documents are judged already), the bounds under unjudged documents, and the
relevance at each rank of a trained fusion method's training runs.  Every pair is turned into one integer key
in the qrels' own codes (query code times the number of distinct documents, plus the document's code), and
the keys are matched by one sort and a binary search, without a Python loop over the pairs.
"""
from __future__ import annotations

import numpy as np

from .ids import Ids
from .qrels import Qrels


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
