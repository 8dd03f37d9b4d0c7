"""The record types of one judgment and one retrieved document (ir_measures' and ir_datasets' shapes).

Iterating a :class:`~irmetrics.data.qrels.Qrels` or :class:`~irmetrics.data.run.Run` yields them, and
iterables of them (or of plain tuples in their field order) are accepted as inputs.
"""
from __future__ import annotations

from typing import NamedTuple


class Qrel(NamedTuple):
    """One relevance judgment; ``iteration`` is the subtopic id in diversity qrels."""
    query_id: str
    doc_id: str
    relevance: int | float          # a float only where the grades are real-valued
    iteration: str = '0'


class ScoredDoc(NamedTuple):
    """One retrieved document with its score."""
    query_id: str
    doc_id: str
    score: float
