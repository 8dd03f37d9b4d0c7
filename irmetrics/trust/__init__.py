"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from .completeness import JudgmentCoverage, QrelsStats, judgment_coverage, qrels_stats
from .discriminative_power import DiscriminativePower, discriminative_power
from .judgment_agreement import JudgmentAgreement, cohen_kappa, krippendorff_alpha
from .pools import Pool, pool
from .reproducibility import Reproducibility, delta_relative_improvement, effect_ratio, reproducibility, rmse
from .swap_rates import SwapRates, swap_rates
from .ties import TieDependence, tie_dependence
from .unjudged import UnjudgedBounds, unjudged_bounds

__all__ = ['DiscriminativePower', 'JudgmentAgreement', 'JudgmentCoverage', 'Pool', 'QrelsStats', 'Reproducibility',
           'SwapRates', 'TieDependence', 'UnjudgedBounds', 'cohen_kappa', 'delta_relative_improvement',
           'discriminative_power', 'effect_ratio', 'judgment_coverage', 'krippendorff_alpha', 'pool', 'qrels_stats',
           'reproducibility', 'rmse', 'swap_rates', 'tie_dependence', 'unjudged_bounds']
