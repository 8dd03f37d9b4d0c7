"""Can a judge's qrels (an LLM's grades) stand in for people's when ranking these systems?  One call, one report:
the agreement of the grades (:mod:`.label_agreement`) and of the leaderboards they give
(:mod:`.leaderboard_agreement`).

The grades are compared on the (topic, document) pairs both qrels judge, as the labels of
:func:`~irmetrics.label_agreement`; the leaderboards are each qrels used whole, as it would be in an evaluation
(the documents one of them judges alone count in its own leaderboard), on the topics both judge.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..algebra.measure import Measure
from ..api.options import EvaluationOptions, Options
from ..api.run_names import stem
from ..comparing.toolkit import RunsLike, checked_seed, evaluated, name_runs
from ..constraints import Int, Option
from ..data.inputs import source_path, to_qrels, to_run
from ..data.qrels import Qrels
from ..dialects import parse_measures
from ..errors import InputError, recorded_warnings, warn
from ..rendering.result import Table
from .judgment_agreement import grade_table
from .label_agreement import LabelAgreement, Reported, agreement_of_table
from .leaderboard_agreement import CI, N_RESAMPLES, LeaderboardAgreement, checked_top, leaderboard_agreement
from .rank_correlation import TIE_VARIANT

if TYPE_CHECKING:
    from typing_extensions import Unpack

THRESHOLD = Option('threshold', Int())


@dataclass(frozen=True, eq=False)
class JudgeAgreement(Reported):
    """A judge's qrels against people's (:func:`judge_agreement`): ``judgments`` (the agreement of the grades, a
    :class:`~irmetrics.LabelAgreement`), ``leaderboard`` (of the systems' rankings, a
    :class:`LeaderboardAgreement`), the ``measure`` ranking the systems and the warnings given on the way
    (``recorded``, :attr:`warnings`).
    Its report (:meth:`render`) is four tables in the formats people read (the grades' statistics, their
    confusion, the leaderboards' coefficients with intervals, the systems), one table of every statistic in
    CSV, TSV and JSON lines, and every number (:meth:`to_dict`) in JSON."""

    judgments: LabelAgreement
    leaderboard: LeaderboardAgreement
    measure: str
    recorded: tuple[str, ...] = ()
    #: what the one-row-per-statistic table calls the labels compared
    compared: ClassVar[str] = 'grades'
    #: the keys of :meth:`to_dict` naming the two sides and their agreement, and what the systems are called
    sides: ClassVar[tuple[str, str]] = ('qrels', 'judge')
    labels_key: ClassVar[str] = 'grades'
    systems: ClassVar[str] = 'systems'

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings given on the way (the report carries them)."""
        return self.recorded

    def page_title(self) -> str:
        """What the HTML page is called."""
        return f'irmetrics judges: {self.judgments.names[1]} against {self.judgments.names[0]}'

    def tables(self) -> list[Table]:
        """The report's tables, in order."""
        return [self.judgments.table(), self.judgments.confusion_table(), self.leaderboard.table(),
                self.leaderboard.table(systems=True)]

    def table(self) -> Table:
        """Every statistic on one row: what it compares (:attr:`compared`, ``grades``, or ``leaderboards``), its
        value and interval."""
        grades = [[self.compared, r.method, r.statistic, None, None] for r in self.judgments.statistics]
        boards = [['leaderboards', *row] for row in self.leaderboard.table().rows]
        return Table(['compared', 'statistic', 'value', 'ci_low', 'ci_high'], grades + boards, numeric_from=2)

    def to_dict(self) -> dict[str, Any]:
        """The measure, the grades' agreement, the leaderboards' and the warnings (NaN as NaN: JSON writes null)."""
        reference, judge = self.sides
        return {'measure': self.measure, reference: self.judgments.names[0], judge: self.judgments.names[1],
                self.labels_key: self.judgments.to_dict(), 'leaderboards': self.leaderboard.to_dict(),
                'warnings': list(self.warnings)}

    def __repr__(self) -> str:
        tau = self.leaderboard.correlations[0]
        return (f'<{type(self).__name__} {self.judgments.names[1]} against {self.judgments.names[0]}: '
                f'{self.judgments.levels_kappa.method} = {self.judgments.levels_kappa.statistic:.4f}, '
                f"Kendall's tau-b of {len(self.leaderboard.systems.systems)} {self.systems} by {self.measure} = "
                f'{tau.value:.4f} [{tau.ci_low:.4f}, {tau.ci_high:.4f}]>')


def judge_agreement(measure: Any, qrels: Any, llm_qrels: Any, runs: RunsLike, *, threshold: int = 2,
                    top: int | None = None, ci: float = 0.95, n_resamples: int = 1000, seed: int | None = 0,
                    tie_variant: str = 'a', p: float = 0.9, labels: tuple[str, str] | None = None,
                    **options: Unpack[EvaluationOptions]) -> JudgeAgreement:
    """Can ``llm_qrels`` stand in for ``qrels`` (people's judgments) when ranking the systems ``runs`` by
    ``measure``?  The agreement of the grades and of the leaderboards, in one result.

    The grades, on the (topic, document) pairs both qrels judge (a pair one of them judges alone is counted and
    left out): Cohen's kappa of the grades as categories (4 levels for UMBRELA's 0-3, or whichever grades
    appear), Cohen's kappa of relevant (grade >= ``threshold``) against not, Krippendorff's alpha (ordinal
    and interval) and the confusion of grades (see :func:`~irmetrics.label_agreement`).

    The leaderboards, on the topics both qrels judge, each qrels used whole: the systems ranked by their mean
    ``measure`` under each, compared by Kendall's tau-b, tau_AP (people's qrels the reference), Spearman's
    rho and Pearson's r, each with a percentile bootstrap interval over the topics; RBO; and, among the
    ``top`` best systems under people's qrels, Kendall's tau-b (with its interval) and the share of them
    that the judge puts in its top ``top`` too (see :mod:`irmetrics.trust.leaderboard_agreement`).

    Parameters
    ----------
    measure : str or Measure
        The measure ranking the systems (one; averaged over the topics), e.g. ``'nDCG@10'``.
    qrels : any qrels input
        People's judgments: the reference.
    llm_qrels : any qrels input
        The judge's (an LLM's) judgments of the same topics.
    runs : dict or list of run inputs
        The systems: ``{name: run}`` or a list of runs (named by their files' stems), three or more.
    threshold : int
        The lowest relevant grade of the binarised kappa (default 2, UMBRELA's "highly relevant" and above).
    top : int, optional
        How many of the best systems the top agreement is over (3 or more, fewer than the systems); default:
        half the systems, from 6 systems on (none below).
    ci : float
        The level of the intervals.
    n_resamples : int
        The bootstrap's resamples B.
    seed : int or None
        The seed of the resamples (None: fresh entropy, recorded in the result).
    tie_variant : str
        ``'a'`` or ``'b'``, for tau_AP and RBO (see :func:`~irmetrics.system_agreement`).
    p : float
        RBO's persistence.
    labels : tuple of two str, optional
        What to call the two qrels (default: their files' stems, or ``qrels`` and ``llm_qrels``).
    **options
        The shared options of an evaluation (:mod:`irmetrics.api.options`).

    Returns
    -------
    JudgeAgreement
        ``judgments`` and ``leaderboard``, rendered as one report.

    Raises
    ------
    InputError
        For qrels that share no judged pair (so no topic), fewer than 3 runs, fewer than 2 topics on which every
        run's value is defined, or a measure not averaged over the topics.

    Warns
    -----
    IrmetricsWarning
        For topics only one qrels judges (left out of the leaderboards), fewer topics than the bootstrap
        supports, an undefined statistic, and a top that ends in a tie.

    References
    ----------
    S. Upadhyay et al., "UMBRELA: UMbrela is the (Open-Source Reproduction of the) Bing RELevance Assessor",
    arXiv:2406.06519, 2024; S. Upadhyay et al., "A Large-Scale Study of Relevance Assessments with Large
    Language Models", arXiv:2411.08275, 2024; C. L. A. Clarke and L. Dietz, "LLM-based relevance assessment
    still can't replace human relevance assessment", arXiv:2412.17156, 2024; E. M. Voorhees, "Variations in
    relevance judgments and the measurement of retrieval effectiveness", SIGIR 1998.

    Examples
    --------
    >>> runs = ['examples/run_bm25.txt', 'examples/run_dense.txt', 'examples/judges/run_hybrid.txt',
    ...         'examples/judges/run_title.txt']
    >>> found = irmetrics.judge_agreement('nDCG@10', 'examples/qrels.txt', 'examples/judges/qrels_llm.txt', runs)
    >>> found.judgments.levels_kappa.method, round(found.judgments.levels_kappa.statistic, 4)
    ("Cohen's kappa (4 levels)", 0.5596)
    >>> [(c.statistic, round(c.value, 4)) for c in found.leaderboard.correlations[:2]]
    [("Kendall's tau-b", 0.6667), ('tau_AP (a)', 0.3333)]
    """
    tie_variant = TIE_VARIANT.check(tie_variant)
    threshold = THRESHOLD.check(threshold)
    checked = Options.of(options, 'judge_agreement')
    seed = checked_seed(seed)
    ci, n_resamples = CI.check(ci), N_RESAMPLES.check(n_resamples)
    chosen = _one_measure(measure)
    names = labels or (_label(qrels, 'qrels'), _label(llm_qrels, 'llm_qrels'))
    with recorded_warnings() as seen:
        people, judge = to_qrels(qrels), to_qrels(llm_qrels)
        table = grade_table(people, judge, names)
        judgments = agreement_of_table(table, tuple(map(str, table.grades)), threshold, names)
        run_names, inputs = name_runs(runs, at_least=1)
        top = checked_top(top, len(run_names))
        loaded = {name: to_run(run, duplicates=checked.duplicates) for name, run in zip(run_names, inputs, strict=True)}
        values = _common_values(chosen, (people, judge), loaded, checked, names)
        leaderboard = leaderboard_agreement(run_names, values, chosen, (f'{chosen} ({names[0]})',
                                                                        f'{chosen} ({names[1]})'),
                                            top=top, ci=ci, n_resamples=n_resamples, seed=seed,
                                            tie_variant=tie_variant, p=p)
    return JudgeAgreement(judgments, leaderboard, str(chosen), tuple(seen))


def _one_measure(given: Any) -> Measure:
    found = parse_measures(given)
    if len(found) != 1:
        raise InputError(f'judge_agreement: measure names {len(found)} measures ({", ".join(map(str, found))}); '
                         f'the systems are ranked by one')
    if found[0].definition.aggregate != 'mean':
        raise InputError(f'judge_agreement: {found[0]} is not averaged over the topics (its aggregate is '
                         f'{found[0].definition.aggregate!r}): rank the systems by a measure with a mean')
    return found[0]


def _label(qrels: Any, fallback: str) -> str:
    path = source_path(qrels)
    return stem(path) if path is not None else fallback


def _common_values(measure: Measure, qrels: tuple[Qrels, Qrels], runs: dict[str, Any], options: Options,
                   names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Each run's value of ``measure`` on each topic both qrels judge, under each (runs x topics, twice, the topics
    in the first qrels' order), each qrels evaluated on those topics alone; the topics where a run's value is
    undefined under either are left out (a warning says how many)."""
    import pandas as pd
    people, judge = qrels
    in_judge = judge.query_ids.lookup(people.query_ids)                 # each of people's topics in judge, or -1
    common = np.flatnonzero(in_judge >= 0)            # never empty: the grades' table found a pair both judge
    if len(common) < max(people.num_queries, judge.num_queries):
        warn(f'{people.num_queries - len(common)} topics judged in {names[0]} only and '
             f'{judge.num_queries - len(common)} in {names[1]} only are left out of the leaderboards; they are over '
             f'the {len(common)} topics both judge')
    found = [evaluated([measure], people.subset(common), runs, None, options),
             evaluated([measure], judge.subset(np.sort(in_judge[common])), runs, None, options)]
    topics = people.query_ids.take(common).to_list()
    a, b = (f.values[:, pd.Index(f.query_ids).get_indexer(topics), 0] for f in found)   # both in people's order
    defined = ~(np.isnan(a).any(axis=0) | np.isnan(b).any(axis=0))
    if not defined.all():
        warn(f'{int((~defined).sum())} of the {len(common)} topics both judge leave {measure} undefined for a run '
             f'and are left out of the leaderboards')
    return np.ascontiguousarray(a[:, defined]), np.ascontiguousarray(b[:, defined])   # means summed as calc sums them
