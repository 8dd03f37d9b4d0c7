"""How far a measure could move if the unjudged documents a run retrieves were judged.

trec_eval, and so irmetrics, counts a retrieved document the qrels do not list as non-relevant.
:func:`unjudged_bounds` evaluates each measure twice: as judged (``unjudged='nonrelevant'``, today's
numbers), and with every unjudged document the measure reads (the top ``k`` for a measure with a cutoff
``k``, every retrieved document otherwise: :attr:`~irmetrics.Measure.depth`) added to the qrels with
grade ``grade`` (``unjudged='relevant'``).  Only the qrels' queries count, as in ``calc``.

What the second value means depends on the measure.  For a measure that reads only the grades of the
ranked documents and can only grow when one of them grows (P, Success, RR, Hits, DCG, ERR, RBP, SetP,
NumRet; without ``judged_only``, ``relative`` or a ``gains`` map), the two values are a lower and an
upper bound of the value the run would have under any judgment of those documents with grades from 0
to ``grade`` (``bounds`` is True).  For every other measure they are not: assuming the unjudged
documents relevant also adds them to the relevant documents of the query (R), which R-normalised
measures divide by (AP, nDCG, R, Rprec, bpref, ...), so the value under ``'relevant'`` can be lower
than the judged one, and the true value can lie outside both (``bounds`` is False; the two values are
then two scenarios, not an interval).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..algebra.measure import Measure
from ..api.evaluator import Evaluator
from ..api.options import Options
from ..api.results import MeasureValues, aggregate
from ..constraints import Int, Option
from ..data.inputs import to_qrels, to_run
from ..data.judged_pairs import judgment_rows
from ..data.qrels import LARGEST_GRADE, Qrels
from ..data.run import Run
from ..data.segments import ranges
from ..errors import IrmetricsWarning, MeasureError
from ..rendering.result import Table, Tabled
from .read_only import ReadOnlyArrays

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..api.options import EvaluationOptions

GRADE = Option('grade', Int(minimum=1, maximum=LARGEST_GRADE - 1))      # a grade the qrels can hold

@dataclass(frozen=True, eq=False)
class UnjudgedBounds(ReadOnlyArrays, Tabled):
    """Each measure evaluated with the unjudged documents it reads taken as non-relevant and as relevant.

    ``nonrelevant`` and ``relevant`` are queries x measures (the qrels' queries, ``query_ids``);
    ``unjudged`` counts, per query and measure, the unjudged documents within the measure's depth;
    ``bounds[j]`` says whether the two values of measure ``j`` bound its value under any judgment of
    those documents (see the module docstring); ``grade`` is the grade they were given.
    """

    measures: tuple[Measure, ...]
    query_ids: tuple[str, ...]
    grade: int | float
    nonrelevant: np.ndarray
    relevant: np.ndarray
    unjudged: np.ndarray
    bounds: tuple[bool, ...]

    def aggregated(self, unjudged: str = 'nonrelevant') -> MeasureValues:
        """Each measure's aggregate (its mean, or what its definition says) under ``unjudged``
        (``'nonrelevant'`` or ``'relevant'``), keyed by the measure's name (found by the measure too)."""
        if unjudged not in ('nonrelevant', 'relevant'):
            raise MeasureError(f"unjudged must be 'nonrelevant' or 'relevant', not {unjudged!r}")
        values = self.nonrelevant if unjudged == 'nonrelevant' else self.relevant
        return MeasureValues((m, aggregate(m, values[:, j])) for j, m in enumerate(self.measures))

    def table(self, *, by_query: bool = False) -> Table:
        """One row per measure: its aggregates with the unjudged documents non-relevant and relevant, whether
        they bound it, the unjudged documents within its depth; with ``by_query`` one row per query and measure."""
        if by_query:
            rows = [[q, str(m), float(low), float(high), int(n)]
                    for i, q in enumerate(self.query_ids)
                    for m, low, high, n in zip(self.measures, self.nonrelevant[i], self.relevant[i], self.unjudged[i],
                                               strict=True)]
            return Table(['query', 'measure', 'nonrelevant', 'relevant', 'unjudged'], rows, numeric_from=2)
        low, high = self.aggregated('nonrelevant'), self.aggregated('relevant')
        rows = [[str(m), float(low[m]), float(high[m]), bound, int(n)]
                for m, bound, n in zip(self.measures, self.bounds, self.unjudged.sum(axis=0), strict=True)]
        notes = (f'relevant: the unjudged documents taken as relevant at grade {self.grade}; bounds: whether the '
                 f'two values bound the measure whatever their judgments\n')
        return Table(['measure', 'nonrelevant', 'relevant', 'bounds', 'unjudged'], rows, notes=notes)

    def to_dataframe(self) -> Any:
        """One row per measure: ``nonrelevant`` and ``relevant`` (aggregates), ``bounds`` and ``unjudged``
        (unjudged documents within the measure's depth, summed over the queries)."""
        import pandas as pd
        low, high = self.aggregated('nonrelevant'), self.aggregated('relevant')
        return pd.DataFrame({'nonrelevant': [low[m] for m in self.measures],
                             'relevant': [high[m] for m in self.measures], 'bounds': list(self.bounds),
                             'unjudged': self.unjudged.sum(axis=0)},
                            index=pd.Index([str(m) for m in self.measures], name='measure'))

    def per_query(self) -> Any:
        """One row per query and measure: ``query_id``, ``measure``, ``nonrelevant``, ``relevant``, ``unjudged``."""
        import pandas as pd
        n_queries, n_measures = self.nonrelevant.shape
        return pd.DataFrame({'query_id': np.repeat(self.query_ids, n_measures),
                             'measure': [str(m) for m in self.measures] * n_queries,
                             'nonrelevant': self.nonrelevant.ravel(), 'relevant': self.relevant.ravel(),
                             'unjudged': self.unjudged.ravel()})

    def to_dict(self) -> dict[str, dict[str, Any]]:
        low, high = self.aggregated('nonrelevant'), self.aggregated('relevant')
        return {str(m): {'nonrelevant': low[m], 'relevant': high[m], 'bounds': b}
                for m, b in zip(self.measures, self.bounds, strict=True)}

    def __repr__(self) -> str:
        low, high = self.aggregated('nonrelevant'), self.aggregated('relevant')
        shown = '; '.join(f'{m}: {low[m]:.4f} .. {high[m]:.4f}{"" if b else " (not bounds)"}'
                          for m, b in zip(self.measures, self.bounds, strict=True))
        return f'<UnjudgedBounds over {len(self.query_ids)} queries, unjudged at grade {self.grade}: {shown}>'


def unjudged_bounds(measures: Any, qrels: Any, run: Any, *, grade: int | None = None,
                    **options: Unpack[EvaluationOptions]) -> UnjudgedBounds:
    """Each measure's value with the unjudged documents ``run`` retrieves taken as non-relevant (as
    trec_eval counts them) and as relevant at ``grade``, per query and aggregated.

    How much a score depends on the documents nobody judged (users of DiffIR and of OpenSearch's
    search-relevance tools have asked for it).  A document is unjudged when the qrels do not list it for
    its query (a negative grade is a judgment).  Under ``'relevant'`` each measure reads the unjudged
    documents within its depth (its cutoff ``k``, or the whole ranking) as judged with ``grade``; the
    queries are the qrels', a query missing from the run scores as in ``calc``.

    Parameters
    ----------
    measures : str, Measure or list of them
        Measures of one query's ranking; measures of a whole run and of subtopics are refused.
    qrels : any qrels input
        The judgments; what they do not list is unjudged.
    run : any run input
        The ranking whose unjudged documents are read both ways.
    grade : int or None
        The grade of the unjudged documents under ``'relevant'`` (default: the highest grade of the
        qrels, at least 1, so that a graded measure gets the most any grading on the qrels' scale could
        give; a real-valued highest grade, 2.7, as it is).  A grade given is a whole number.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    UnjudgedBounds
        The values under ``'nonrelevant'`` and ``'relevant'``, per query and aggregated
        (``aggregated(which)``), and ``bounds``: for each measure whether the two values bound its value
        under every judgment of those documents with grades 0 to ``grade``: true of the measures that read
        only the ranked documents' grades and grow with them (P, Success, RR, Hits, DCG, ERR, RBP, SetP,
        NumRet), false of R-normalised ones (AP, nDCG, R, ...), whose value under ``'relevant'`` may even
        be lower (the module docstring says why).

    Raises
    ------
    MeasureError
        For a measure of a whole run or of subtopics.

    Examples
    --------
    >>> found = irmetrics.unjudged_bounds(['P@10', 'AP'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    >>> [{k: round(v, 4) for k, v in found.aggregated(w).items()} for w in ('nonrelevant', 'relevant')]
    [{'P@10': 0.49, 'AP': 0.4087}, {'P@10': 0.82, 'AP': 0.747}]
    >>> found.bounds
    (True, False)
    """
    grade = GRADE.check(grade) if grade is not None else None
    checked = Options.of(options, 'unjudged_bounds')
    judged = to_qrels(qrels)
    ranking = to_run(run, duplicates=checked.duplicates)
    evaluator = Evaluator(measures, judged, **checked.given())
    chosen = tuple(evaluator.measures)
    refused = [m for m in chosen if m.definition.scope != 'query' or m.definition.subtopics]
    if refused:
        raise MeasureError(f'{refused[0]} cannot be bounded over unjudged documents: unjudged_bounds adds '
                           f'judgments of one grade per document to the qrels, for measures of one query')
    grade = max(judged.relevance.max(initial=0).item(), 1) if grade is None else grade   # 2.7 stays 2.7
    nonrelevant = evaluator.calc(ranking).values
    relevant = np.empty_like(nonrelevant)
    unjudged = np.zeros(nonrelevant.shape, dtype=np.int64)
    query, rank, missing = _unjudged_rows(judged, ranking)
    tables = _Tables(judged, ranking)
    for depth in dict.fromkeys(m.depth for m in chosen):
        columns = [j for j, m in enumerate(chosen) if m.depth == depth]
        within = missing & (rank < depth) if depth is not None else missing
        unjudged[:, columns] = np.bincount(query[within], minlength=judged.num_queries)[:, None]
        scenario = tables.with_judgments(np.flatnonzero(within), grade)
        with warnings.catch_warnings():                     # the first evaluation warned about the inputs
            warnings.simplefilter('ignore', IrmetricsWarning)
            scenario_evaluator = Evaluator([chosen[j] for j in columns], scenario, **checked.given())
            relevant[:, columns] = scenario_evaluator.calc(ranking).values
    return UnjudgedBounds(chosen, tuple(evaluator.query_ids), grade, nonrelevant, relevant, unjudged,
                          tuple(bounds_value(m) for m in chosen))


def bounds_value(measure: Measure) -> bool:
    """Whether ``measure``'s values with the unjudged documents non-relevant and relevant bound its value
    under any judgment of them: its family reads only the ranked documents' grades and grows with them
    (:attr:`~irmetrics.algebra.measure.MeasureDef.monotone`), and no parameter breaks that (``judged_only``
    reranks, ``relative`` and NumRet's ``judged_nonrel`` read other judgments, a ``gains`` map may decrease)."""
    breaking = {'judged_only', 'relative', 'judged_nonrel', 'gains'} & set(measure.params)     # set away from defaults
    return measure.definition.monotone and not breaking


def _unjudged_rows(judged: Qrels, ranking: Run) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the run's rows in ranked order: each row's qrels query code (0 when not a qrels query), its rank
    (from 0) and whether it is an unjudged document of a qrels query."""
    rows = ranking.order
    qidx = ranking.qidx[rows]
    query = ranking.query_ids.lookup(judged.query_ids)[qidx]
    rank = ranges(np.diff(ranking.offsets))
    found = judgment_rows(judged, ranking.query_ids, qidx, ranking.doc_ids.take(rows))
    return np.maximum(query, 0), rank, (query >= 0) & (found < 0)


class _Tables:
    """The qrels and the run as Arrow tables, made once (on first use) for every depth's judgments."""

    def __init__(self, judged: Qrels, ranking: Run):
        self.judged, self.ranking = judged, ranking
        self._arrow: tuple[Any, Any] | None = None

    def with_judgments(self, ranked: np.ndarray, grade: float) -> Qrels:
        """The qrels with the run's documents at positions ``ranked`` of its ranked order added, each judged
        ``grade`` (iteration 0)."""
        if not len(ranked):
            return self.judged
        import pyarrow as pa
        if self._arrow is None:
            self._arrow = (self.judged.to_arrow(), self.ranking.to_arrow())
        table, run = self._arrow
        added = run.take(pa.array(ranked))
        extra = pa.table({'query_id': added.column('query_id'),
                          'iteration': pa.array(np.full(len(ranked), '0', object), pa.string()),
                          'doc_id': added.column('doc_id'),
                          'relevance': pa.array(np.full(len(ranked), grade))})   # int64, or a real grade
        return to_qrels(pa.concat_tables([table, extra.cast(table.schema)]))

