"""Agreement between two sets of judgments of the same pairs: Cohen's kappa, weighted kappa, Krippendorff's alpha.

Two qrels (human assessors and an LLM judge, two assessors, two rounds) are compared on the (query,
document) pairs both judge; a pair only one of them judges is counted, never guessed.  Every
statistic is read from one array of counts, queries x grades of a x grades of b (built by one
``np.bincount``), so the whole-collection value and each query's value come from the same code.

With ``O`` the observed table of counts (rows: a's labels, columns: b's), ``n`` its total, ``E`` the
table expected by chance (``row_i * col_j / n``) and ``W`` disagreement weights (0 on the diagonal),
both kappas are ``1 - sum(W * O) / sum(W * E)``: Cohen's kappa has ``W = 1`` off the diagonal, the
weighted kappa ``|g_i - g_j|`` (linear) or ``(g_i - g_j)**2`` (quadratic) between grades ``g``.
Krippendorff's alpha is ``1 - (m - 1) * sum(C * D) / sum(m_c * m_k * D)`` with ``C = O + O.T`` the
coincidences of values, ``m_c`` its margins, ``m = 2n`` values in all and ``D`` the squared
difference function of the level: nominal (0 or 1), interval (``(g_c - g_k)**2``) or ordinal
(``(sum of m_g for g from c to k - (m_c + m_k) / 2)**2``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constraints import Choice, Level, Option
from ..data.inputs import to_qrels
from ..data.judged_pairs import judgment_rows
from ..data.qrels import Qrels
from ..data.segments import distinct
from ..errors import InputError, OptionError, warn
from ..rendering.result import Table, Tabled
from ..rendering.text import text_table
from .judged_pairs import one_grade_each
from .read_only import ReadOnlyArrays

WEIGHTS = Option('weights', Choice('linear', 'quadratic'))
LEVEL = Option('level', Choice('nominal', 'ordinal', 'interval'))
REL = Option('rel', Level())      # a whole grade, or a real one (1.5) for real-valued grades


@dataclass(frozen=True, eq=False)
class JudgmentAgreement(ReadOnlyArrays, Tabled):
    """How far two qrels agree on the pairs both judge (see :func:`cohen_kappa`, :func:`krippendorff_alpha`).

    ``statistic``: the agreement over every pair both judge (NaN where undefined, with a warning);
    ``method``: what it is; ``both``, ``only_a``, ``only_b``: pairs judged by both, by a alone, by b
    alone; ``grades`` and ``counts``: the confusion of grades over the pairs both judge (a's grade in
    rows, b's in columns; :attr:`confusion` as a DataFrame); ``query_ids`` and the ``query_*`` arrays:
    the same per query (every query either qrels judges; NaN where a query's value is undefined).
    """

    statistic: float
    method: str
    both: int
    only_a: int
    only_b: int
    grades: tuple[float, ...]
    counts: np.ndarray
    query_ids: tuple[str, ...]
    query_both: np.ndarray
    query_only_a: np.ndarray
    query_only_b: np.ndarray
    query_statistic: np.ndarray

    @property
    def confusion(self) -> Any:
        """The confusion of grades as a DataFrame: a's grades as rows, b's as columns."""
        import pandas as pd
        return pd.DataFrame(self.counts, index=pd.Index(self.grades, name='a'),
                            columns=pd.Index(self.grades, name='b'))

    def table(self, *, by_query: bool = False) -> Table:
        """The statistic on one row (with ``by_query``: one row per query: both, only_a, only_b, statistic), the
        pairs and the confusion of grades in the notes."""
        if by_query:
            rows = [[q, int(both), int(only_a), int(only_b), float(value)]
                    for q, both, only_a, only_b, value in zip(self.query_ids, self.query_both, self.query_only_a,
                                                              self.query_only_b, self.query_statistic, strict=True)]
            return Table(['query', 'both', 'only_a', 'only_b', 'statistic'], rows)
        return Table(['statistic', 'value'], [[self.method, self.statistic]], notes=confusion_notes(self))

    def to_dataframe(self) -> Any:
        """Per query: ``both``, ``only_a``, ``only_b`` and the statistic, indexed by query id."""
        import pandas as pd
        return pd.DataFrame({'both': self.query_both, 'only_a': self.query_only_a, 'only_b': self.query_only_b,
                             'statistic': self.query_statistic}, index=pd.Index(self.query_ids, name='query_id'))

    def to_dict(self) -> dict[str, Any]:
        """The overall values (plain Python numbers) and the confusion as ``{grade_a: {grade_b: count}}``."""
        return {'method': self.method, 'statistic': self.statistic, 'both': self.both, 'only_a': self.only_a,
                'only_b': self.only_b,
                'confusion': {a: dict(zip(self.grades, row, strict=True))
                              for a, row in zip(self.grades, self.counts.tolist(), strict=True)}}

    def __repr__(self) -> str:
        return (f'<JudgmentAgreement {self.method} = {self.statistic:.4f} on {self.both} pairs judged by both '
                f'({self.only_a} by a only, {self.only_b} by b only; {len(self.query_ids)} queries)>')


def cohen_kappa(qrels_a: Any, qrels_b: Any, *, rel: float = 1, weights: str | None = None) -> JudgmentAgreement:
    """Cohen's kappa between two qrels over the (query, document) pairs both judge.

    Unweighted: Cohen's kappa of the binary labels relevant (grade >= ``rel``, as everywhere in
    irmetrics; negative grades are non-relevant) and non-relevant, ``kappa = (p_o - p_e) / (1 - p_e)``,
    ``p_o`` the share of pairs labelled alike and ``p_e`` the share expected by chance from each qrels'
    own label frequencies (Cohen 1960).  Weighted: the kappa of the grades themselves,
    ``1 - sum(W * O) / sum(W * E)`` with disagreement weights ``|g - h|`` (linear) or ``(g - h)**2``
    (quadratic) between grades ``g`` and ``h`` (Cohen 1968); the distance is the difference of the grades,
    so a grade neither qrels uses still counts in it (scikit-learn's ``cohen_kappa_score`` with
    ``labels=range(lowest, highest + 1)``).

    Pairs judged by one qrels only are counted (``only_a``, ``only_b``) and left out.  A kappa that is
    undefined because every pair has the same label in both (``p_e = 1``) is NaN, as is such a query's
    value (per query, without a warning).

    Parameters
    ----------
    qrels_a, qrels_b : any qrels input
        The two sets of judgments.
    rel : int
        The lowest relevant grade of the unweighted kappa; it does not apply to the weighted one.
    weights : str or None
        None: the kappa of relevant against non-relevant; ``'linear'`` or ``'quadratic'``: the weighted
        kappa of the grades.

    Returns
    -------
    JudgmentAgreement
        The kappa (``statistic``), per query too, the pairs judged by both or by one, and the confusion
        of grades.

    Raises
    ------
    InputError
        For qrels that share no pair (the ids are probably spelled differently).
    DuplicateError
        For a document judged under several iterations.
    OptionError
        For ``rel`` other than 1 together with ``weights``.

    Warns
    -----
    IrmetricsWarning
        When the kappa is undefined (NaN).

    References
    ----------
    J. Cohen, A coefficient of agreement for nominal scales, Educational and Psychological Measurement,
    1960; J. Cohen, Weighted kappa: nominal scale agreement with provision for scaled disagreement or
    partial credit, Psychological Bulletin, 1968.

    Examples
    --------
    >>> irmetrics.cohen_kappa('examples/qrels.txt', 'examples/qrels.txt', rel=2).statistic   # one file twice
    1.0
    """
    rel = REL.check(rel)
    if weights is not None:
        weights = WEIGHTS.check(weights)
        if rel != 1:
            raise OptionError(f'rel={rel} applies to the binary kappa; the weighted kappa (weights={weights!r}) '
                              f'compares the grades themselves: leave rel out')
    return kappa_of(grade_table(qrels_a, qrels_b), rel, weights)


def kappa_of(table: GradeTable, rel: float, weights: str | None) -> JudgmentAgreement:
    """Cohen's kappa of ``table`` as :func:`cohen_kappa` gives it (``rel`` and ``weights`` checked already)."""
    if weights is None:
        relevant = (np.asarray(table.grades) >= rel).astype(np.int64)
        binary = np.zeros((len(table.grades), 2))
        binary[np.arange(len(table.grades)), relevant] = 1.0
        counts = np.einsum('gi,qgh,hj->qij', binary, table.counts, binary)
        disagreement = 1.0 - np.eye(2)
        method = f"Cohen's kappa (relevant: grade >= {rel})"
    else:
        counts = table.counts
        gap = np.abs(np.subtract.outer(table.grades, table.grades)).astype(np.float64)
        disagreement = gap if weights == 'linear' else gap ** 2
        method = f'weighted kappa ({weights})'
    return table.result(method, lambda tables: kappa(tables, disagreement), counts)


def krippendorff_alpha(qrels_a: Any, qrels_b: Any, *, level: str = 'ordinal') -> JudgmentAgreement:
    """Krippendorff's alpha between two qrels (two coders) over the grades of the pairs both judge.

    ``alpha = 1 - D_o / D_e``: the observed disagreement over the expected one,
    ``1 - (m - 1) * sum(C * D) / sum(m_c * m_k * D)``, ``C`` the coincidence matrix of grades (each
    pair both judge adds its two grades in both orders), ``m_c`` its margins, ``m`` the number of
    values and ``D`` the squared difference of the ``level``.  A pair only one qrels judges cannot be
    paired and counts for nothing, as in Krippendorff's definition with missing values.  The same cases
    as :func:`cohen_kappa`: no shared pair is an error; one grade throughout (no expected disagreement)
    gives NaN with a warning.

    Parameters
    ----------
    qrels_a, qrels_b : any qrels input
        The judgments of the two coders.
    level : str
        ``'nominal'`` (grades are categories), ``'ordinal'`` (default: only their order counts, through
        how many values lie between two grades) or ``'interval'`` (their differences).

    Returns
    -------
    JudgmentAgreement
        Alpha (``statistic``), per query too, with the counts of pairs and the grades' confusion.

    References
    ----------
    K. Krippendorff, Content Analysis: An Introduction to Its Methodology, Sage, 2004; K. Krippendorff,
    Computing Krippendorff's Alpha-Reliability, 2011.

    Examples
    --------
    >>> a = irmetrics.read_trec_qrels('examples/qrels.txt')
    >>> b = [(q.query_id, q.doc_id, min(q.relevance, 1)) for q in a]        # grades 2 and 3 read as 1
    >>> [round(irmetrics.krippendorff_alpha(a, b, level=v).statistic, 4) for v in ('ordinal', 'nominal')]
    [0.8678, 0.582]
    """
    return alpha_of(grade_table(qrels_a, qrels_b), LEVEL.check(level))


def levels_kappa_of(table: GradeTable) -> JudgmentAgreement:
    """Cohen's (unweighted) kappa of the grades of ``table`` as categories, every grade a label of its own:
    ``1 - sum(W * O) / sum(W * E)`` with ``W = 1`` off the diagonal of the grades x grades table (Cohen 1960;
    scikit-learn's ``cohen_kappa_score`` of the grades), the 4-level kappa of graded LLM judges."""
    disagreement = 1.0 - np.eye(len(table.grades))
    return table.result(f"Cohen's kappa ({len(table.grades)} levels)", lambda tables: kappa(tables, disagreement),
                        table.counts)


def alpha_of(table: GradeTable, level: str) -> JudgmentAgreement:
    """Krippendorff's alpha of ``table`` at ``level`` (checked already), as :func:`krippendorff_alpha` gives it."""
    return table.result(f"Krippendorff's alpha ({level})", lambda tables: alpha(tables, table.grades, level),
                        table.counts)


@dataclass(frozen=True, eq=False)
class JudgmentAgreements(Tabled):
    """Every statistic of agreement between two qrels (:func:`every_statistic`): one row each, the pairs and the
    confusion of grades in the notes; with ``by_query`` Cohen's kappa of each query."""

    statistics: tuple[JudgmentAgreement, ...]
    names: tuple[str, str] = ('a', 'b')

    def table(self, *, by_query: bool = False) -> Table:
        if by_query:
            per_query = self.statistics[0].table(by_query=True)
            return Table([*per_query.columns[:-1], 'kappa'], per_query.rows)
        rows = [[r.method, r.statistic] for r in self.statistics]
        return Table(['statistic', 'value'], rows, notes=confusion_notes(self.statistics[0], self.names))

    def to_dict(self) -> dict[str, Any]:
        return {r.method: r.statistic for r in self.statistics}


def confusion_notes(result: JudgmentAgreement, names: tuple[str, str] = ('a', 'b')) -> str:
    """The pairs judged by both qrels or one, and the confusion of their grades, as lines of text."""
    grades = [str(g) for g in result.grades]
    rows = [[g, *map(str, row)] for g, row in zip(grades, result.counts.tolist(), strict=True)]
    return (f'{result.both} pairs judged by both, {result.only_a} by {names[0]} only, {result.only_b} by {names[1]} '
            f'only; grades (rows: {names[0]}, columns: {names[1]}):\n' + text_table(['', *grades], rows))


def every_statistic(qrels_a: Any, qrels_b: Any, *, rel: float = 1,
                    names: tuple[str, str] = ('a', 'b')) -> JudgmentAgreements:
    """Cohen's kappa at ``rel``, the linear and quadratic weighted kappas and Krippendorff's alpha at the
    three levels, from one table of the pairs both qrels judge (``irmetrics kappa`` prints them all);
    ``names``: what to call the two qrels in the notes."""
    table = grade_table(qrels_a, qrels_b)
    return JudgmentAgreements((kappa_of(table, REL.check(rel), None), kappa_of(table, 1, 'linear'),
                               kappa_of(table, 1, 'quadratic'),
                               *(alpha_of(table, level) for level in ('nominal', 'ordinal', 'interval'))), names)


def kappa(counts: np.ndarray, disagreement: np.ndarray) -> np.ndarray:
    """``1 - sum(W * O) / sum(W * E)`` of each table of ``counts`` (tables x labels x labels), NaN where
    the chance disagreement ``sum(W * E)`` is 0 (also a table with no pair)."""
    rows, columns = counts.sum(axis=2), counts.sum(axis=1)
    total = counts.sum(axis=(1, 2))
    observed = np.einsum('qij,ij->q', counts, disagreement)
    expected = np.einsum('qi,qj,ij->q', rows, columns, disagreement)
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(expected > 0, 1.0 - observed * total / expected, np.nan)


def alpha(counts: np.ndarray, grades: tuple[float, ...], level: str) -> np.ndarray:
    """Krippendorff's alpha of each table of ``counts`` (tables x grades x grades, two coders), NaN where
    there is no expected disagreement."""
    coincidences = counts + counts.transpose(0, 2, 1)
    margins = coincidences.sum(axis=2)
    values = margins.sum(axis=1)
    if level == 'nominal':
        distance = np.broadcast_to(1.0 - np.eye(len(grades)), coincidences.shape)
    elif level == 'interval':
        numbers = np.asarray(grades, dtype=np.float64)
        distance = np.broadcast_to(np.subtract.outer(numbers, numbers) ** 2, coincidences.shape)
    else:
        below = np.cumsum(margins, axis=1) - margins            # values of the grades below each grade
        position = np.arange(len(grades))
        low, high = np.minimum.outer(position, position), np.maximum.outer(position, position)
        between = below[:, high] + margins[:, high] - below[:, low]          # m_g summed from c to k
        distance = (between - (margins[:, :, None] + margins[:, None, :]) / 2) ** 2
    observed = np.einsum('qck,qck->q', coincidences, distance)
    expected = np.einsum('qc,qk,qck->q', margins, margins, distance)
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(expected > 0, 1.0 - (values - 1) * observed / expected, np.nan)


@dataclass(frozen=True)
class GradeTable:
    """The pairs both qrels judge, as counts per query and pair of grades, and the overlap counts."""

    grades: tuple[float, ...]
    counts: np.ndarray                  # queries x grades x grades
    query_ids: tuple[str, ...]
    both: np.ndarray
    only_a: np.ndarray
    only_b: np.ndarray

    def result(self, method: str, statistic: Callable[[np.ndarray], np.ndarray], counts: np.ndarray
               ) -> JudgmentAgreement:
        """The agreement of ``statistic`` (of tables of counts, one value each) over all the queries'
        ``counts`` summed, and of each query's."""
        overall = float(statistic(counts.sum(axis=0)[None])[0])
        if overall != overall:
            warn(f'{method} is undefined (NaN): the {int(self.both.sum())} pairs both qrels judge leave no '
                 f'disagreement to expect by chance (one label throughout)')
        return JudgmentAgreement(overall, method, int(self.both.sum()), int(self.only_a.sum()),
                                 int(self.only_b.sum()), self.grades, self.counts.sum(axis=0).astype(np.int64),
                                 self.query_ids, self.both, self.only_a, self.only_b, statistic(counts))


def grade_table(qrels_a: Any, qrels_b: Any, names: tuple[str, str] = ('qrels_a', 'qrels_b')) -> GradeTable:
    """The pairs both qrels judge as a :class:`GradeTable`; ``names``: what the errors call the two qrels."""
    a = one_grade_each(to_qrels(qrels_a), names[0])
    b = one_grade_each(to_qrels(qrels_b), names[1])
    rows_a = judgment_rows(a, b.query_ids, b.qidx, b.doc_ids)         # each b judgment's row in a, or -1
    shared = np.flatnonzero(rows_a >= 0)
    if not len(shared):
        raise InputError(f'{names[0]} ({_size(a)}) and {names[1]} ({_size(b)}) judge no (query, document) pair in '
                         f'common: nothing to compare (are the query and document ids spelled alike?)')
    in_b = b.query_ids.lookup(a.query_ids)
    b_only_queries = np.flatnonzero(in_b < 0)
    query_of_b = np.where(in_b >= 0, in_b, a.num_queries + np.cumsum(in_b < 0) - 1)   # b's queries in the union
    n_queries = a.num_queries + len(b_only_queries)
    query_ids = tuple(a.query_ids.to_list() + b.query_ids.take(b_only_queries).to_list())
    grade_a, grade_b = a.relevance[rows_a[shared]], b.relevance[shared]
    both_grades = np.concatenate((grade_a, grade_b))
    grades = distinct(both_grades)                          # one sort (np.unique's inverse hashes, slower here)
    codes = np.searchsorted(grades, both_grades)
    code_a, code_b = codes[:len(shared)], codes[len(shared):]
    query = a.qidx[rows_a[shared]].astype(np.int64)
    g = len(grades)
    counts = np.bincount((query * g + code_a) * g + code_b, minlength=n_queries * g * g).reshape(n_queries, g, g)
    both = np.bincount(query, minlength=n_queries)
    judged_a = np.bincount(a.qidx, minlength=n_queries)
    judged_b = np.bincount(query_of_b[b.qidx], minlength=n_queries)
    return GradeTable(tuple(grades.tolist()), counts.astype(np.float64), query_ids, both, judged_a - both,
                       judged_b - both)


def _size(qrels: Qrels) -> str:
    return f'{len(qrels)} judgments of {qrels.num_queries} queries'
