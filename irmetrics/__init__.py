"""irmetrics: exact, fast evaluation of rankings with trec_eval's conventions.

    >>> import irmetrics as irm
    >>> from irmetrics import AP, P, nDCG
    >>> irm.calc_aggregate([AP, nDCG@10, P(rel=2)@5], 'examples/qrels.txt', 'examples/run_bm25.txt')
    {'AP': 0.4086513386923678, 'nDCG@10': 0.4361483952026271, 'P(rel=2)@5': 0.4}

The public API only: everything is defined in the packages below it (docs/architecture.md):
:mod:`irmetrics.data` (qrels and runs in columns, the readers), :mod:`irmetrics.algebra` (what a measure
is), :mod:`irmetrics.measures` (the definitions), :mod:`irmetrics.dialects` (measure names),
:mod:`irmetrics.providers` (the engines), :mod:`irmetrics.api` (the evaluator, the calculation
functions, results), :mod:`irmetrics.rendering` (results as text), :mod:`irmetrics.comparing` (comparing
runs: ``irmetrics.compare`` and its companions, imported on first use), :mod:`irmetrics.trust` (checking the
evaluation: ties, agreement, judgments, pools, imported on first use), :mod:`irmetrics.bridges`
(irmetrics inside ir_measures and PyTerrier) and :mod:`irmetrics.errors`.
"""
import importlib
from typing import TYPE_CHECKING, Any

from . import providers as _providers  # noqa: F401  (registers the engines)
from .algebra.measure import Measure
from .algebra.params import NOT_PROVIDED
from .api.calc import calc, calc_aggregate, evaluator, iter_calc
from .api.curves import roc_curve
from .api.custom import define
from .api.evaluator import Evaluator
from .api.partitions import Partitions
from .api.results import CalcResults, MeasureValues, Metric
from .bridges import use_in_ir_measures
from .data.arrays import Scores, TopK
from .data.inputs import to_qrels, to_run
from .data.items import Items
from .data.prefs import JudgmentGroups, Preferences
from .data.qrels import Qrels
from .data.records import Qrel, ScoredDoc
from .data.run import Run
from .data.trec.prefs import read_trec_prefs, read_trec_qrels_jg
from .data.trec.reader import read_trec_qrels, read_trec_run
from .dialects import parse_measure, parse_measures
from .dialects.trec_eval import parse_trec_measure
from .errors import (
    AmbiguousMeasureError,
    ArgumentOrderError,
    ComparisonError,
    DuplicateError,
    InputError,
    IrmetricsError,
    IrmetricsWarning,
    MeasureError,
    MeasureSyntaxError,
    OptionError,
    OutputError,
    ProviderError,
    UnknownMeasureError,
    UnsupportedMeasureError,
)
from .measures import *  # noqa: F401,F403
from .measures import __all__ as _measure_names
from .trust_names import NAMES as _TRUST  # the names of irmetrics.trust, imported on first use too

__version__ = '0.1.0'

if TYPE_CHECKING:
    from .comparing import (
        Comparison,
        SlicedComparison,
        compare,
        compare_slices,
        georisk,
        plot_pr_curve,
        trisk,
        urisk,
    )
    from .fusion import fuse, optimize_fusion  # noqa: F401  (the names of _FUSION)
    from .trust import (  # noqa: F401  (the names of _TRUST for type checkers; tests/docs/test_public_api.py)
        RBO,
        DiscriminativePower,
        JudgeAgreement,
        JudgmentAgreement,
        JudgmentCoverage,
        KendallTau,
        LabelAgreement,
        LeaderboardAgreement,
        Pool,
        PreferenceAgreement,
        QrelsStats,
        Reproducibility,
        RunAgreement,
        SwapRates,
        SystemAgreement,
        TauAP,
        TieDependence,
        UnjudgedBounds,
        cohen_kappa,
        delta_relative_improvement,
        effect_ratio,
        judge_agreement,
        judgment_coverage,
        kendall_tau,
        krippendorff_alpha,
        plot_system_agreement,
        pool,
        qrels_stats,
        rmse,
        tau_ap,
        tie_dependence,
        unjudged_bounds,
    )
    from .trust.discriminative_power import discriminative_power  # noqa: F401  (a function named as its module)
    from .trust.label_agreement import label_agreement  # noqa: F401  (a function named as its module)
    from .trust.preference_agreement import preference_agreement  # noqa: F401  (a function named as its module)
    from .trust.rbo import rbo  # noqa: F401  (a function named as its module)
    from .trust.reproducibility import reproducibility  # noqa: F401  (a function named as its module)
    from .trust.run_agreement import run_agreement  # noqa: F401  (a function named as its module)
    from .trust.swap_rates import swap_rates  # noqa: F401  (a function named as its module)
    from .trust.system_agreement import system_agreement  # noqa: F401  (a function named as its module)

#: Names of :mod:`irmetrics.comparing`, imported on first use: most jobs never compare runs.
_COMPARE = ('Comparison', 'compare', 'compare_slices', 'plot_pr_curve', 'SlicedComparison',
            'urisk', 'trisk', 'georisk')

#: Names of :mod:`irmetrics.fusion` (combining runs), imported on first use too.
_FUSION = ('fuse', 'optimize_fusion')
#: the rooms imported on first use, and their names
_LAZY = {'.comparing': _COMPARE, '.trust': _TRUST, '.fusion': _FUSION}


def __getattr__(name: str) -> Any:
    for room, names in _LAZY.items():
        if name in names:
            package = importlib.import_module(room, __name__)
            values = {n: getattr(package, n) for n in names}
            globals().update(values)                # later lookups find them without this function
            return values[name]
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')

__all__ = ['AmbiguousMeasureError', 'ArgumentOrderError', 'calc', 'calc_aggregate', 'CalcResults', 'compare',
           'compare_slices', 'Comparison',
           'ComparisonError', 'MeasureValues', 'define', 'DuplicateError', 'evaluator', 'Evaluator', 'InputError',
           'IrmetricsError', 'IrmetricsWarning', 'iter_calc', 'Measure', 'MeasureError', 'MeasureSyntaxError',
           'Metric', 'OptionError', 'OutputError', 'NOT_PROVIDED', 'Partitions', 'parse_measure', 'parse_measures',
           'parse_trec_measure', 'plot_pr_curve', 'ProviderError', 'Qrel', 'Qrels', 'Items', 'read_trec_qrels',
           'read_trec_prefs', 'read_trec_qrels_jg', 'read_trec_run', 'Preferences', 'JudgmentGroups', 'roc_curve',
           'Run', 'ScoredDoc', 'Scores', 'TopK', 'SlicedComparison', 'to_qrels', 'to_run',
           'UnknownMeasureError', 'urisk', 'trisk', 'georisk',
           'UnsupportedMeasureError', 'use_in_ir_measures', '__version__', *_TRUST, *_FUSION, *_measure_names]
