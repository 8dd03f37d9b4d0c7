"""RAG answers evaluated: every run's value of every measure on every topic, then results and comparisons.

The topics are the nuggets' and the runs those of the assignments (then the answers), in the order they first
appear.  A run without a record for a topic scores 0 there, with a warning (a run that did not answer a topic
has supported none of its nuggets).  The values go into the structures every evaluation of irmetrics has: a
:class:`~irmetrics.CalcResults` per run (every format of ``irmetrics`` and ``CalcResults.render``) and the
:class:`~irmetrics.Comparison` of :func:`irmetrics.compare` (paired tests over the topics, corrections,
intervals, reports), built from the same per-topic values.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..api.results import CalcResults
from ..comparing import Comparison
from ..comparing.toolkit import Settings, build_comparison
from ..errors import InputError, recorded_warnings, warn
from . import records, scores, tables
from .measures import NUGGET_MEASURES, SUPPORT_MEASURES, parse_rag_measures


@dataclass(frozen=True)
class RagValues:
    """The per-topic values of runs: ``values[run, topic, measure]``."""

    runs: list[str]
    topics: list[str]
    measures: list[Measure]
    values: np.ndarray

    def results(self) -> dict[str, CalcResults]:
        """Each run's :class:`~irmetrics.CalcResults` (topics as queries), by run name."""
        return {run: CalcResults(list(self.topics), list(self.measures), self.values[i])
                for i, run in enumerate(self.runs)}


def evaluate(measures: Any, nuggets: Any, assignments: Any = None, answers: Any = None) -> RagValues:
    """The values of ``measures`` (:func:`~.measures.parse_rag_measures`) for every run and topic.

    ``nuggets``, ``assignments`` and ``answers``: JSON lines files (``.gz`` too), lists of dicts or pandas
    DataFrames (:mod:`.records`); the nugget measures need the assignments, the support measures the answers.
    """
    wanted = parse_rag_measures(measures)
    known = tables.nuggets(records.read('nuggets', nuggets))
    nugget_measures = [m for m in wanted if m in NUGGET_MEASURES]
    support_measures = [m for m in wanted if m in SUPPORT_MEASURES]
    assigned = _needed('assignments', assignments, nugget_measures, known)
    answered = _needed('answers', answers, support_measures, known)
    found = [t for t in (assigned, answered) if t is not None]
    runs = list(dict.fromkeys(r for t in found for r in t.runs))
    if not runs:
        raise InputError('no runs: the assignments (or answers) hold no records')
    n_runs, n_topics = len(runs), len(known.topics)
    values = np.zeros((len(wanted), n_runs, n_topics))
    for table, chosen in ((assigned, nugget_measures), (answered, support_measures)):
        if table is None:
            continue
        index = np.array([runs.index(r) for r in table.runs], dtype=np.int64)
        got = (scores.nugget_values(chosen, known, table, n_runs, index) if isinstance(table, tables.Assignments)
               else scores.support_values(chosen, table, n_runs, n_topics, index))
        values[[wanted.index(m) for m in chosen]] = got
        warn_missing(runs, known.topics, scores.present(n_runs, n_topics, index, table.record_run,
                                                         table.record_topic), type(table).__name__.lower())
    return RagValues(runs, known.topics, wanted, np.ascontiguousarray(values.transpose(1, 2, 0)))


def _needed(kind: str, given: Any, measures: list[Measure], known: tables.Nuggets) -> Any:
    if not measures:
        return None
    if given is None:
        raise InputError(f'{", ".join(map(str, measures))} need{"s" * (len(measures) == 1)} the {kind}')
    read = records.read(kind, given)
    return tables.assignments(read, known) if kind == 'assignments' else tables.answers(read, known)


def warn_missing(runs: list[str], topics: list[str], seen: np.ndarray, kind: str) -> None:
    """A warning for each run without a record of ``kind`` for some ``topics`` (``seen``: runs x topics)."""
    for i in np.flatnonzero(~seen.all(axis=1)):
        missing = [topics[j] for j in np.flatnonzero(~seen[i])]
        warn(f'run {runs[i]!r} has no {kind} for {len(missing)} of the {len(topics)} topics '
             f'({", ".join(map(repr, missing[:3]))}{", ..." * (len(missing) > 3)}): they score 0')


def calc(measures: Any, nuggets: Any, assignments: Any = None, answers: Any = None) -> dict[str, CalcResults]:
    """Each run's values of the RAG ``measures`` on every topic of ``nuggets``, as a
    :class:`~irmetrics.CalcResults` by run name (``.aggregated``: the means over the topics).

    Examples
    --------
    >>> from irmetrics import rag
    >>> results = rag.calc('all vital', 'examples/rag/nuggets.jsonl', 'examples/rag/assignments.jsonl')
    >>> {run: round(r.aggregated['vital'], 4) for run, r in results.items()}
    {'bm25_llm': 0.5833, 'dense_llm': 0.9167}
    """
    return evaluate(measures, nuggets, assignments, answers).results()


def compare(measures: Any, nuggets: Any, assignments: Any = None, answers: Any = None, *,
            baseline: str | Sequence[str] | None = None, test: str | Sequence[str] = 't',
            correction: str | None = None, correction_scope: str = 'measure', alpha: float = 0.05,
            ci: float = 0.95, ci_method: str = 't', n_resamples: int = 10000, seed: int | None = 0) -> Comparison:
    """The runs compared on the RAG ``measures`` with paired tests over the topics: the
    :class:`~irmetrics.Comparison` :func:`irmetrics.compare` gives (same options, same report), built from the
    per-topic values of :func:`evaluate`.  ``baseline`` names a run (or several)."""
    settings = Settings.checked(test, correction, correction_scope, alpha, ci, ci_method, n_resamples, seed, None)
    with recorded_warnings() as seen:
        found = evaluate(measures, nuggets, assignments, answers)
    chosen = _baselines(baseline, found.runs)
    return build_comparison(found.runs, found.measures, found.topics, found.values, chosen, settings, warnings=seen,
                            unit=('topic', 'topics'))


def _baselines(baseline: str | Sequence[str] | None, runs: list[str]) -> str | tuple[str, ...] | None:
    from ..comparing import ComparisonError
    if baseline is None:
        return None
    names = [baseline] if isinstance(baseline, str) else list(baseline)
    unknown = [b for b in names if b not in runs]
    if unknown or len(set(names)) < len(names) or not names:
        raise ComparisonError(f'baseline {unknown[0] if unknown else baseline!r}: name each baseline once, among the '
                              f'runs {", ".join(runs)}')
    return names[0] if len(names) == 1 else tuple(names)
