"""irmetrics: exact, fast evaluation of rankings with trec_eval's conventions.

    >>> import irmetrics as irm
    >>> from irmetrics import AP, nDCG, P
    >>> irm.calc_aggregate([AP, nDCG@10, P(rel=2)@5], qrels, run)   # doctest: +SKIP

The public API only; everything is defined in :mod:`irmetrics.core`,
:mod:`irmetrics.measures`, :mod:`irmetrics.providers` and :mod:`irmetrics.compare` (whose
package the function ``irmetrics.compare`` shadows as an attribute: import its modules with
``from irmetrics.compare import report``).
"""
from . import providers as _providers  # noqa: F401  (registers the engines)
from .compare import Comparison, ComparisonError, compare, plot_pr_curve
from .core.api import Evaluator, calc, calc_aggregate, evaluator, iter_calc
from .core.data import Qrel, Qrels, Run, ScoredDoc
from .core.errors import (DuplicateError, InputError, IrmetricsError, MeasureError, ProviderError,
                          UnknownMeasureError, UnsupportedMeasureError)
from .core.inputs import read_trec_qrels, read_trec_run, to_qrels, to_run
from .core.measure import Measure
from .core.params import NOT_PROVIDED
from .core.parse import parse_measure
from .core.results import CalcResults, Metric
from .core.trec_names import parse_trec_measure
from .measures import *  # noqa: F401,F403
from .measures import __all__ as _measure_names
from .providers.native.auc import roc_curve
from .providers.native.custom import define

__version__ = '0.1.0'

__all__ = ['CalcResults', 'Comparison', 'ComparisonError', 'DuplicateError', 'Evaluator', 'InputError', 'IrmetricsError', 'Measure',
           'MeasureError', 'Metric', 'NOT_PROVIDED', 'ProviderError', 'Qrel', 'Qrels', 'Run', 'ScoredDoc',
           'UnknownMeasureError', 'UnsupportedMeasureError', 'calc', 'calc_aggregate', 'compare', 'define',
           'evaluator', 'iter_calc', 'parse_measure', 'parse_trec_measure', 'plot_pr_curve', 'read_trec_qrels',
           'read_trec_run', 'roc_curve', 'to_qrels', 'to_run', '__version__', *_measure_names]
