"""Evaluating RAG answers as the TREC 2024 RAG track does (docs/rag.md): nugget scores from the AutoNuggetizer's
assignments and citation support from the answers, each a measure of irmetrics, per topic and as a mean, and
compared between runs with the statistics of :func:`irmetrics.compare`; two assignments of the same answers
(automatic and manual) checked against each other.

Modules: :mod:`.records` (the JSON lines, lists of dicts and DataFrames read into Arrow tables), :mod:`.tables`
(checked, in numpy columns), :mod:`.measures` (the definitions), :mod:`.scores` (their values, vectorised),
:mod:`.evaluation` (``calc``, ``compare``, ``evaluate``) and :mod:`.agreement` (``assignment_agreement``).
"""
from .agreement import AssignmentAgreement, assignment_agreement
from .evaluation import RagValues, calc, compare, evaluate
from .measures import RAG_MEASURES, parse_rag_measures

__all__ = ['RAG_MEASURES', 'AssignmentAgreement', 'RagValues', 'assignment_agreement', 'calc', 'compare', 'evaluate',
           'parse_rag_measures']
