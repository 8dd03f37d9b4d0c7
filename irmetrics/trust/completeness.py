"""How complete the judgments are: what the qrels hold per query, and how much of each run's top k they judge.

:func:`qrels_stats` counts the judgments of each query by grade (one ``np.bincount`` over query and
grade codes); :func:`judgment_coverage` is the ``Judged@k`` measure (the share of a run's top k that
the qrels judge, with any grade) of each run, evaluated as ``calc`` evaluates it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..api.argument_order import qrels_first
from ..api.evaluator import Evaluator
from ..api.options import Options
from ..api.results import aggregate
from ..comparing.toolkit import name_runs
from ..constraints import Int, Option
from ..data.inputs import to_qrels
from ..errors import OptionError
from ..measures import Judged
from ..rendering.result import Table, Tabled
from .judgment_agreement import REL
from .read_only import ReadOnlyArrays

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..api.options import EvaluationOptions

CUTOFF = Option('cutoffs', Int(minimum=1))


@dataclass(frozen=True, eq=False)
class QrelsStats(ReadOnlyArrays, Tabled):
    """What the qrels hold: per query (``query_ids``, the qrels' order) and overall.

    ``grades``: the grades the qrels use, ascending; ``counts``: queries x grades, the judgments of
    each grade; ``judged``: judgments per query; ``relevant``: those with grade >= ``rel``;
    ``share_relevant``: relevant / judged.  ``total`` sums every column over the queries.
    """

    rel: int | float
    query_ids: tuple[str, ...]
    grades: tuple[float, ...]
    counts: np.ndarray
    judged: np.ndarray
    relevant: np.ndarray

    @property
    def share_relevant(self) -> np.ndarray:
        return cast(np.ndarray, self.relevant / np.maximum(self.judged, 1))

    @property
    def total(self) -> dict[str, Any]:
        """The whole qrels: queries, judgments, judgments per grade, relevant, share relevant, and the
        fewest and most relevant documents a query has (a query without any makes R-normalised
        measures 0 for every run)."""
        judged, relevant = int(self.judged.sum()), int(self.relevant.sum())
        return {'queries': len(self.query_ids), 'judged': judged,
                'grades': dict(zip(self.grades, self.counts.sum(axis=0).tolist(), strict=True)),
                'relevant': relevant, 'share_relevant': relevant / judged if judged else 0.0,
                'fewest_relevant': int(self.relevant.min()) if len(self.relevant) else 0,
                'most_relevant': int(self.relevant.max(initial=0)),
                'queries_without_relevant': int(np.count_nonzero(self.relevant == 0))}

    def table(self, *, by_query: bool = False) -> Table:
        """The whole qrels on one row ``all`` (with ``by_query``, after one row per query): judged, one column
        per grade, relevant, share of relevant."""
        header = ['query', 'judged', *(f'grade {g}' for g in self.grades), 'relevant', 'share']
        rows: list[list[Any]] = []
        if by_query:
            rows = [[q, int(judged), *map(int, counts), int(relevant), float(share)]
                    for q, judged, counts, relevant, share in zip(self.query_ids, self.judged, self.counts.tolist(),
                                                                  self.relevant, self.share_relevant, strict=True)]
        t = self.total
        rows.append(['all', t['judged'], *t['grades'].values(), t['relevant'], t['share_relevant']])
        notes = (f'{t["queries"]} queries; relevant (grade >= {self.rel}) per query: {t["fewest_relevant"]} to '
                 f'{t["most_relevant"]}; {t["queries_without_relevant"]} without any\n')
        return Table(header, rows, notes=notes)

    def to_dataframe(self) -> Any:
        """Per query (index ``query_id``): ``judged``, one column per grade (``grade 0``, ...), ``relevant``,
        ``share_relevant``."""
        import pandas as pd
        columns: dict[str, Any] = {'judged': self.judged}
        columns |= {f'grade {g}': self.counts[:, j] for j, g in enumerate(self.grades)}
        columns |= {'relevant': self.relevant, 'share_relevant': self.share_relevant}
        return pd.DataFrame(columns, index=pd.Index(self.query_ids, name='query_id'))

    def to_dict(self) -> dict[str, Any]:
        return {'rel': self.rel, **self.total}

    def __repr__(self) -> str:
        t = self.total
        return (f'<QrelsStats {t["queries"]} queries, {t["judged"]} judgments, {t["relevant"]} relevant '
                f'(grade >= {self.rel}; {t["share_relevant"]:.1%})>')


def qrels_stats(qrels: Any, *, rel: float = 1) -> QrelsStats:
    """Counts of the judgments of ``qrels``, per query and overall.

    How many judgments, of each grade, and how many relevant (grade >= ``rel``, as everywhere in
    irmetrics; negative grades are counted under their grade and are not relevant).

    Parameters
    ----------
    qrels : any qrels input
        The judgments, in any form irmetrics reads.
    rel : int
        The lowest relevant grade.

    Returns
    -------
    QrelsStats
        The counts per query and in total (``total``); ``render()`` prints them.

    Examples
    --------
    >>> print(irmetrics.qrels_stats('examples/qrels.txt').render())
    query  judged  grade 0  grade 1  grade 2  grade 3  relevant   share
    all       400      187      111       52       50       213  0.5325
    10 queries; relevant (grade >= 1) per query: 15 to 26; 0 without any
    <BLANKLINE>
    """
    rel = REL.check(rel)
    q = to_qrels(qrels)
    grades, codes = np.unique(q.relevance, return_inverse=True)
    n, g = q.num_queries, len(grades)
    counts = np.bincount(q.qidx.astype(np.int64) * g + codes.ravel(), minlength=n * g).reshape(n, g)
    relevant = np.bincount(q.qidx, weights=q.relevance >= rel, minlength=n).astype(np.int64)
    return QrelsStats(rel, tuple(q.query_ids.to_list()), tuple(grades.tolist()), counts, np.diff(q.offsets),
                      relevant)


@dataclass(frozen=True, eq=False)
class JudgmentCoverage(ReadOnlyArrays, Tabled):
    """``Judged@k`` of each run: ``values`` is runs x queries x cutoffs (the qrels' queries; a query the
    run misses scores 0, as in ``calc``), ``mean`` runs x cutoffs."""

    runs: tuple[str, ...]
    cutoffs: tuple[int, ...]
    query_ids: tuple[str, ...]
    values: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """Runs x cutoffs: each ``Judged@k`` aggregated as ``calc`` aggregates it (to the last digit)."""
        return np.array([[aggregate(Judged @ k, self.values[r, :, j]) for j, k in enumerate(self.cutoffs)]
                         for r in range(len(self.runs))]).reshape(len(self.runs), len(self.cutoffs))

    def table(self, *, by_query: bool = False) -> Table:
        """One row per run, one column per ``Judged@k``; with ``by_query`` one row per run and query."""
        header = [f'Judged@{k}' for k in self.cutoffs]
        if by_query:
            rows = [[run, q, *map(float, values[i])] for run, values in zip(self.runs, self.values, strict=True)
                    for i, q in enumerate(self.query_ids)]
            return Table(['run', 'query', *header], rows, numeric_from=2)
        return Table(['run', *header], [[run, *map(float, means)] for run, means in zip(self.runs, self.mean,
                                                                                        strict=True)])

    def to_dataframe(self) -> Any:
        """The means: one row per run, one column per ``Judged@k``."""
        import pandas as pd
        return pd.DataFrame(self.mean, index=pd.Index(self.runs, name='run'),
                            columns=[f'Judged@{k}' for k in self.cutoffs])

    def per_query(self) -> Any:
        """Per run and query (a MultiIndex ``run, query_id``), one column per ``Judged@k``."""
        import pandas as pd
        index = pd.MultiIndex.from_product([self.runs, self.query_ids], names=['run', 'query_id'])
        return pd.DataFrame(self.values.reshape(-1, len(self.cutoffs)), index=index,
                            columns=[f'Judged@{k}' for k in self.cutoffs])

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {run: {f'Judged@{k}': float(v) for k, v in zip(self.cutoffs, row, strict=True)}
                for run, row in zip(self.runs, self.mean, strict=True)}

    def __repr__(self) -> str:
        return f'<JudgmentCoverage {len(self.runs)} runs x Judged@{",".join(map(str, self.cutoffs))}>'


@qrels_first('judgment_coverage(runs, qrels, cutoffs)')
def judgment_coverage(qrels: Any, runs: Mapping[str, Any] | Sequence[Any], *,
                      cutoffs: int | Sequence[int] = (10, 100),
                      **options: Unpack[EvaluationOptions]) -> JudgmentCoverage:
    """How much of each run's top k the qrels judge.

    The ``Judged@k`` measure (judged documents in the top k over ``min(k, n)``, n the documents retrieved;
    MacAvaney, Macdonald and Ounis, ECIR 2022) of each run at each cutoff, per query and averaged over the
    qrels' queries.  A run with low coverage is evaluated mostly on documents assumed non-relevant: see
    :func:`unjudged_bounds` for how far its values could move.

    Parameters
    ----------
    qrels : any qrels input
        The judgments whose coverage is measured.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs (named by their files' stems).
    cutoffs : int or sequence of int
        One or several k.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    JudgmentCoverage
        ``Judged@k`` per run, query and cutoff (``values``) and its means (``mean``).

    Raises
    ------
    OptionError
        For no cutoff, or a cutoff below 1.

    Examples
    --------
    >>> found = irmetrics.judgment_coverage('examples/qrels.txt', ['examples/run_bm25.txt', 'examples/run_dense.txt'],
    ...                                     cutoffs=(5, 10))
    >>> print(found.render())
    run        Judged@5  Judged@10
    run_bm25     0.6400     0.6700
    run_dense    0.8800     0.7900
    <BLANKLINE>
    """
    chosen = (cutoffs,) if isinstance(cutoffs, int) else tuple(cutoffs)
    chosen = tuple(dict.fromkeys(CUTOFF.check(k) for k in chosen))
    if not chosen:
        raise OptionError('cutoffs: give one cutoff k or more')
    names, inputs = name_runs(runs, at_least=1)
    evaluator = Evaluator([Judged @ k for k in chosen], qrels, **Options.of(options, 'judgment_coverage').given())
    results = [evaluator.calc(run) for run in inputs]
    values = np.stack([r.values for r in results]) if results else np.zeros((0, 0, len(chosen)))
    return JudgmentCoverage(tuple(names), chosen, tuple(evaluator.query_ids), values)
