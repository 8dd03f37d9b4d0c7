"""Can one nugget assignment (the AutoNuggetizer's) stand in for another (people's)?  The agreement of the labels
and of the leaderboards they give, in one result: the question :func:`irmetrics.judge_agreement` answers for qrels.

Both assignment files are read and checked against the same nuggets (:mod:`.records`, :mod:`.tables`: every error
names the file and the line) and must assess the same answers: each (run, topic) record of one is in the other
(an error names the first that is not), so every (run, topic, nugget) is labelled by both.  The labels are compared
by :func:`~irmetrics.label_agreement` on the levels ``not_support < partial_support < support`` (numbered 0, 1,
2), the topic as the topic and (run, nugget) as the item; the leaderboards by the code of
:func:`irmetrics.judge_agreement` (:mod:`irmetrics.trust.leaderboard_agreement`): the runs ranked by their mean
nugget score under each file, over the topics the files assign.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..api.run_names import stem
from ..comparing.toolkit import checked_seed
from ..data.paths import is_path
from ..errors import recorded_warnings
from ..trust.judges import JudgeAgreement
from ..trust.label_agreement import label_agreement
from ..trust.leaderboard_agreement import CI, N_RESAMPLES, checked_top, leaderboard_agreement
from ..trust.rank_correlation import TIE_VARIANT
from . import records, scores, tables
from .evaluation import warn_missing
from .measures import NUGGET_MEASURES, parse_rag_measures


class AssignmentAgreement(JudgeAgreement):
    """One nugget assignment against another (:func:`assignment_agreement`): ``judgments`` (the agreement of the
    labels, a :class:`~irmetrics.LabelAgreement`), ``leaderboard`` (of the runs' rankings by ``measure``), and the
    warnings given on the way; rendered as the report of :class:`~irmetrics.JudgeAgreement`."""

    compared = 'assignments'
    sides = ('against', 'assignments')
    labels_key = 'labels'
    systems = 'runs'

    def page_title(self) -> str:
        """What the HTML page is called."""
        return f'irmetrics rag: {self.judgments.names[1]} against {self.judgments.names[0]}'


def assignment_agreement(nuggets: Any, assignments: Any, against: Any, *, measure: Any = 'all',
                         threshold: str = 'support', top: int | None = None, ci: float = 0.95,
                         n_resamples: int = 1000, seed: int | None = 0, tie_variant: str = 'a', p: float = 0.9,
                         labels: tuple[str, str] | None = None) -> AssignmentAgreement:
    """Can the nugget ``assignments`` (e.g. the AutoNuggetizer's) stand in for ``against`` (e.g. people's, the
    reference) when scoring and ranking these runs?  The agreement of the labels and of the leaderboards.

    The labels, on every (run, topic, nugget) both files assign: Cohen's kappa of the three levels as
    categories, Cohen's kappa of the two classes at or above ``threshold`` and below it, Krippendorff's alpha
    (ordinal, and interval with the levels 0, 1, 2: partial support halfway, as the nugget scores weigh it) and
    the confusion of levels (see :func:`~irmetrics.label_agreement`).  At the default ``threshold='support'``
    partial support counts with not_support (the strict scores' reading); ``'partial_support'`` counts it with
    support (any support at all).

    The leaderboards: each run's ``measure`` (a nugget score, ``all`` by default) on each topic the files
    assign, under each file; the runs ranked by their means and compared by Kendall's tau-b, tau_AP
    (``against`` the reference), Spearman's rho and Pearson's r, each with a percentile bootstrap interval
    over the topics, RBO, and the agreement among the ``top`` best runs (see
    :mod:`irmetrics.trust.leaderboard_agreement`).  A run without a record for one of those topics scores 0
    there under both, with a warning.

    Parameters
    ----------
    nuggets : path, list of dicts or DataFrame
        The nuggets both files assign.
    assignments, against : path, list of dicts or DataFrame
        The two assignments of the same (run, topic) records: the one checked, and the reference.
    measure : str or Measure
        The nugget score ranking the runs: ``all``, ``vital``, ``strict_all`` or ``strict_vital``.
    threshold : str
        The lowest level of the upper class of the binarised kappa: ``'support'`` (default) or
        ``'partial_support'``.
    top, ci, n_resamples, seed, tie_variant, p
        As for :func:`irmetrics.judge_agreement`: the top runs (default half of them, from 6 runs on), the
        level of the intervals, the bootstrap's resamples and seed, tau_AP's and RBO's tie variant, RBO's
        persistence.
    labels : tuple of two str, optional
        What to call ``against`` and ``assignments`` (default: their files' stems when they differ, else
        ``against`` and ``assignments``).

    Returns
    -------
    AssignmentAgreement
        ``judgments`` and ``leaderboard``, rendered as one report.

    Raises
    ------
    InputError
        For a bad record in any file (naming the file and line), a (run, topic) assigned in one file and not
        the other, fewer than 3 runs or fewer than 2 topics.
    MeasureError
        For a measure that is not one nugget score.

    References
    ----------
    R. Pradeep et al., The Great Nugget Recall: Automating Fact Extraction and RAG Evaluation with Large
    Language Models, SIGIR 2025, arXiv:2504.15068 (automatic against manual assignments, by kappa and by the
    runs' Kendall's tau); J. Cohen, 1960; K. Krippendorff, 2004.

    Examples
    --------
    >>> from irmetrics import rag
    >>> found = rag.assignment_agreement('examples/rag/nuggets.jsonl', 'examples/rag/agreement/automatic.jsonl',
    ...                                  'examples/rag/agreement/manual.jsonl')
    >>> round(found.judgments.levels_kappa.statistic, 4), round(found.leaderboard.correlations[0].value, 4)
    (0.6443, 1.0)
    """
    chosen = _one_nugget_measure(measure)
    tie_variant = TIE_VARIANT.check(tie_variant)
    ci, n_resamples, seed = CI.check(ci), N_RESAMPLES.check(n_resamples), checked_seed(seed)
    names = labels or _names(against, assignments)
    known = tables.nuggets(records.read('nuggets', nuggets))
    read = (records.read('assignments', against), records.read('assignments', assignments))
    checked = tuple(tables.assignments(r, known) for r in read)
    runs = list(dict.fromkeys(checked[0].runs + checked[1].runs))
    n_topics = len(known.topics)
    cells = tuple(_record_cells(c, runs, n_topics) for c in checked)
    _same_records(read, checked, cells, known.topics)
    with recorded_warnings() as seen:
        judgments = label_agreement(*(_labels(c, cell, known, len(runs)) for c, cell in zip(checked, cells,
                                                                                               strict=True)),
                                    levels=tables.ASSIGNMENT, threshold=threshold, names=names)
        top = checked_top(top, len(runs))
        values = _scores(chosen, known, checked, runs, cells[0])
        leaderboard = leaderboard_agreement(runs, values, chosen, (f'{chosen} ({names[0]})', f'{chosen} ({names[1]})'),
                                            top=top, ci=ci, n_resamples=n_resamples, seed=seed,
                                            tie_variant=tie_variant, p=p)
    return AssignmentAgreement(judgments, leaderboard, str(chosen), tuple(seen))


def _scores(measure: Measure, known: tables.Nuggets, checked: tuple[tables.Assignments, ...], runs: list[str],
            cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each run's ``measure`` on each topic some record assigns (``cells``: the records'), under each file (runs x
    topics, in C order: their means are summed as :func:`~.evaluation.calc`'s, to the bit); a warning for a run
    without a record for some of those topics (it scores 0 there)."""
    n_topics = len(known.topics)
    present = np.zeros(len(runs) * n_topics, dtype=bool)
    present[cells] = True
    seen = present.reshape(len(runs), n_topics)
    assigned = np.flatnonzero(seen.any(axis=0))
    warn_missing(runs, [known.topics[t] for t in assigned], seen[:, assigned], 'assignments')
    a, b = (np.ascontiguousarray(scores.nugget_values([measure], known, c, len(runs), _run_index(c, runs))[0]
                                 [:, assigned]) for c in checked)
    return a, b


def _names(against: Any, assignments: Any) -> tuple[str, str]:
    if is_path(against) and is_path(assignments) and _stem(against) != _stem(assignments):
        return _stem(against), _stem(assignments)
    return 'against', 'assignments'


def _stem(path: Any) -> str:
    """The file's name without compression suffix and JSON lines extension."""
    name = stem(os.fspath(path))
    for suffix in ('.jsonl', '.json'):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name


def _one_nugget_measure(given: Any) -> Measure:
    from ..errors import MeasureError
    found = parse_rag_measures(given)
    if len(found) != 1 or found[0] not in NUGGET_MEASURES:
        raise MeasureError(f'assignment_agreement: {", ".join(map(str, found))}: the runs are ranked by one nugget '
                           f'score ({", ".join(map(str, NUGGET_MEASURES))})')
    return found[0]


def _run_index(checked: tables.Assignments, runs: list[str]) -> np.ndarray:
    position = {run: i for i, run in enumerate(runs)}
    return np.array([position[r] for r in checked.runs], dtype=np.int64)


def _record_cells(checked: tables.Assignments, runs: list[str], n_topics: int) -> np.ndarray:
    """Each record's (run, topic) cell, the runs numbered as in ``runs``."""
    cells: np.ndarray = _run_index(checked, runs)[checked.record_run] * n_topics + checked.record_topic
    return cells


def _same_records(read: tuple[records.Records, ...], checked: tuple[tables.Assignments, ...],
                  cells: tuple[np.ndarray, ...], topics: list[str]) -> None:
    """An error at the first record of either file whose (run, topic) the other file does not assign."""
    for i, other in ((0, 1), (1, 0)):
        alone = np.flatnonzero(~np.isin(cells[i], cells[other]))
        if len(alone):
            r = int(alone[0])
            raise read[i].error(r, f'run {checked[i].runs[checked[i].record_run[r]]!r} is assigned for topic '
                                   f'{topics[checked[i].record_topic[r]]!r} here but not in {read[other].source}: '
                                   f'both assignments must assess the same (run, topic) answers')


def _labels(checked: tables.Assignments, cells: np.ndarray, known: tables.Nuggets, n_runs: int) -> Any:
    """The labels as a table of (topic, item, label), the item a (run, nugget) pair."""
    import pandas as pd
    cell = cells[checked.record]
    run = cell // len(known.topics)
    return pd.DataFrame({'topic': np.asarray(known.topics, dtype=object)[known.topic[checked.nugget]],
                         'item': checked.nugget.astype(np.int64) * n_runs + run,
                         'label': np.asarray(tables.ASSIGNMENT, dtype=object)[checked.label]})
