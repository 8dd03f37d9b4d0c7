"""The values of the RAG measures, per (run, topic) cell, vectorised over every assigned nugget and citation.

Each function returns a runs x topics array; a cell without a record is 0 and flagged in ``present``.
Partial support is worth ``0.5`` exactly, so a value is the same double the nuggetizer computes
(``count + 0.5 * count``, then one division by the number of nuggets).
"""
from __future__ import annotations

import numpy as np

from ..algebra.measure import Measure
from .measures import ALL, STRICT_ALL, STRICT_VITAL, SUPPORT_PRECISION, SUPPORT_RECALL, VITAL
from .tables import Answers, Assignments, Nuggets


def _per_cell(cell: np.ndarray, where: np.ndarray, cells: int) -> np.ndarray:
    return np.bincount(cell[where], minlength=cells).astype(np.float64)


def nugget_values(measures: list[Measure], nuggets: Nuggets, assigned: Assignments, n_runs: int,
                  run_index: np.ndarray) -> np.ndarray:
    """measures x runs x topics: ``run_index`` maps the assignments' run codes to the ``n_runs`` runs."""
    n_topics = len(nuggets.topics)
    cells = n_runs * n_topics
    record_cell = run_index[assigned.record_run] * n_topics + assigned.record_topic
    cell = record_cell[assigned.record]
    vital = nuggets.vital[assigned.nugget]
    full, partial = assigned.label == 2, assigned.label == 1
    topic_all = np.bincount(nuggets.topic, minlength=n_topics).astype(np.float64)
    topic_vital = np.bincount(nuggets.topic, weights=nuggets.vital, minlength=n_topics)
    sums = {
        ALL: (_per_cell(cell, full, cells) + 0.5 * _per_cell(cell, partial, cells), topic_all),
        STRICT_ALL: (_per_cell(cell, full, cells), topic_all),
        VITAL: (_per_cell(cell, full & vital, cells) + 0.5 * _per_cell(cell, partial & vital, cells), topic_vital),
        STRICT_VITAL: (_per_cell(cell, full & vital, cells), topic_vital),
    }
    out = np.zeros((len(measures), n_runs, n_topics))
    for i, m in enumerate(measures):
        numerator, denominator = sums[m]
        numerator = numerator.reshape(n_runs, n_topics)
        np.divide(numerator, denominator, out=out[i], where=denominator > 0)
    return out


def support_values(measures: list[Measure], answers: Answers, n_runs: int, n_topics: int,
                   run_index: np.ndarray) -> np.ndarray:
    """measures x runs x topics of the support measures (``run_index`` as for :func:`nugget_values`)."""
    cells = n_runs * n_topics
    record_cell = run_index[answers.record_run] * n_topics + answers.record_topic
    weight = np.array([0.0, 0.5, 1.0])[answers.label]
    sentence_cell = record_cell[answers.sentence_record]
    citation_cell = sentence_cell[answers.citation_sentence]
    n_sentences = len(answers.sentence_record)
    full = np.bincount(answers.citation_sentence, weights=answers.label == 2, minlength=n_sentences)
    partial = np.bincount(answers.citation_sentence, weights=answers.label == 1, minlength=n_sentences)
    best = np.where(full > 0, 1.0, np.where(partial > 0, 0.5, 0.0))
    sums = {
        SUPPORT_PRECISION: (np.bincount(citation_cell, weights=weight, minlength=cells),
                            np.bincount(citation_cell, minlength=cells)),
        SUPPORT_RECALL: (np.bincount(sentence_cell, weights=best, minlength=cells),
                         np.bincount(sentence_cell, minlength=cells)),
    }
    out = np.zeros((len(measures), n_runs, n_topics))
    for i, m in enumerate(measures):
        numerator, denominator = sums[m]
        np.divide(numerator, denominator, out=out[i].reshape(-1), where=denominator > 0)
    return out


def present(n_runs: int, n_topics: int, run_index: np.ndarray, record_run: np.ndarray,
            record_topic: np.ndarray) -> np.ndarray:
    """runs x topics: whether a record gives the cell."""
    seen = np.zeros(n_runs * n_topics, dtype=bool)
    seen[run_index[record_run] * n_topics + record_topic] = True
    return seen.reshape(n_runs, n_topics)
