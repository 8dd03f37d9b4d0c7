"""The public calculation functions: one call from measures, qrels and a run to results.

Each takes the measures, the qrels and the run, then the shared options (:mod:`.options`: provider,
duplicates, items, exclude, strict, dialect, memory_limit), builds an :class:`~.evaluator.Evaluator` (see
there for which queries count and how runs in parts are evaluated) and evaluates the run with it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .evaluator import Evaluator, MeasuresLike
from .options import Options
from .preferences import calc_judgments, is_judgments
from .results import CalcResults, MeasureValues, Metric

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .options import EvaluationOptions


def evaluator(measures: MeasuresLike, qrels: Any, **options: Unpack[EvaluationOptions]) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs.

    The qrels are read and checked once, here; each run given to the evaluator is then evaluated
    against them.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures: :class:`Measure` objects or names, one or several words in a string
        (read as :func:`parse_measures` reads them).
    qrels : any qrels input
        The judgments: a TREC qrels file, a DataFrame, a dict of dicts, :class:`Qrels`, ... (see
        :func:`to_qrels`).
    **options
        The shared options (:mod:`irmetrics.api.options`): ``provider``, ``duplicates``, ``items``,
        ``exclude``, ``strict``, ``dialect``, ``memory_limit``.  ``duplicates`` and ``memory_limit``
        become what every run gets unless its call says otherwise.

    Returns
    -------
    Evaluator
        The measures and qrels prepared once, for any number of runs.

    Examples
    --------
    >>> ev = irmetrics.evaluator(['AP', 'nDCG@10'], 'examples/qrels.txt')
    >>> round(ev.calc_aggregate('examples/run_bm25.txt')['AP'], 4)
    0.4087
    """
    return Evaluator(measures, qrels, **Options.of(options, 'evaluator').given())


def calc(measures: MeasuresLike, qrels: Any, run: Any, **options: Unpack[EvaluationOptions]) -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels``.

    The queries are the qrels': a qrels query missing from the run scores the measure's missing value
    (trec_eval ``-c``), and a run query the qrels do not judge is left out.  One call builds an
    :func:`evaluator` and evaluates the run with it; build the evaluator yourself to evaluate several
    runs against the same qrels.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures, as :class:`Measure` objects or by name (``'AP'``, ``'nDCG@10'``, ``'P(rel=2)@5'``,
        or trec_eval's ``'ndcg_cut.10'``; see :func:`parse_measures`).
    qrels : any qrels input
        The judgments: a path (TREC or Parquet), raw TREC text, a DataFrame, a dict of dicts
        ``{query_id: {doc_id: grade}}``, :class:`Qrels`, ... (see :func:`to_qrels`).
    run : any run input
        The ranking to evaluate: a path, a DataFrame, a dict of dicts ``{query_id: {doc_id: score}}``,
        :class:`Run`, arrays, ... (see :func:`to_run`).
    **options
        The shared options (:mod:`irmetrics.api.options`): ``provider``, ``duplicates``, ``items``,
        ``exclude``, ``strict``, ``dialect``, ``memory_limit``.

    Returns
    -------
    CalcResults
        The per-query values (``per_query``, ``values``), each measure's aggregate (``aggregated``) and
        the values of the measures of a whole run.

    Examples
    --------
    >>> results = irmetrics.calc(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    >>> results.query_ids[:3], round(results.aggregated['P@5'], 4)
    (['401', '402', '403'], 0.5)
    """
    if is_judgments(qrels):                 # preference judgments or judgment groups (trec_eval -R)
        Options.of(options, 'calc')
        return calc_judgments(measures, qrels, run, **options)
    return evaluator(measures, qrels, **options).calc(run)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any,
                   **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """Each measure's aggregate value for ``run`` against ``qrels``.

    The aggregate is the measure's own (the mean over the qrels' queries for most measures, a sum
    for the counts); the queries count as in :func:`calc`.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures to compute, as :func:`calc` takes them.
    qrels : any qrels input
        The judgments, as :func:`calc` takes them.
    run : any run input
        The ranking to evaluate, as :func:`calc` takes it.
    **options
        The shared options, as in :func:`calc`.

    Returns
    -------
    MeasureValues
        ``{measure name: value}``, in the order of the measures; it is found by the :class:`Measure`
        too.

    Examples
    --------
    >>> irmetrics.calc_aggregate(['P@5', 'RR'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    {'P@5': 0.5, 'RR': 0.85}
    """
    return calc(measures, qrels, run, **options).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, **options: Unpack[EvaluationOptions]) -> Iterator[Metric]:
    """Each value of each measure, query by query, as ``Metric(query_id, measure, value)``.

    Every qrels query gives one :class:`Metric` per measure (queries in the qrels' order), except where a
    measure that skips undefined queries is undefined; then each measure of a whole run (Coverage, Gini)
    gives one value, of the query ``'all'``.  The queries count as in :func:`calc`.

    Parameters
    ----------
    measures : str, Measure or list of them
        What to compute; read as in :func:`calc`.
    qrels : any qrels input
        The judgments; read as in :func:`calc`.
    run : any run input
        The ranking; read as in :func:`calc`.
    **options
        The shared options of :func:`calc`.

    Returns
    -------
    Iterator[Metric]
        The values, query by query.

    Examples
    --------
    >>> next(irmetrics.iter_calc(['P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt'))
    Metric(query_id='401', measure=P@5, value=0.8)
    """
    return calc(measures, qrels, run, **options).iter_metrics()
