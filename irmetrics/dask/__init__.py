"""Distributed evaluation with Dask (``pip install "irmetrics[dask]"``): runs too large for one machine.

    >>> import irmetrics.dask as irmd
    >>> run = irmd.read_trec_run('examples/run_bm25.txt')   # a glob of files too; or dask.dataframe.read_parquet
    >>> irmd.calc_aggregate(['AP', 'nDCG@10'], 'examples/qrels.txt', run)
    {'AP': 0.4086513386923678, 'nDCG@10': 0.4361483952026271}

The qrels are prepared once on the client and shared with the workers; each partition of the run
is evaluated by the engine-neutral partition function (:meth:`irmetrics.Evaluator.calc_queries`)
once its queries are complete; the results are the in-memory ones (docs/scaling.md).  This
package sits on the public API (:mod:`irmetrics.api.evaluator`); ``import irmetrics`` never imports it.
"""
from .evaluate import DaskEvaluator, calc, calc_aggregate, calc_on_cluster, evaluator
from .results import DaskResults
from .trec import read_trec_run

__all__ = ['DaskEvaluator', 'DaskResults', 'calc', 'calc_aggregate', 'calc_on_cluster', 'evaluator', 'read_trec_run']
