"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from .agreement_plots import plot_system_agreement
from .completeness import JudgmentCoverage, QrelsStats, judgment_coverage, qrels_stats
from .discriminative_power import DiscriminativePower, discriminative_power
from .judgment_agreement import JudgmentAgreement, cohen_kappa, krippendorff_alpha
from .pools import Pool, pool
from .rank_correlation import KendallTau, TauAP, kendall_tau, tau_ap
from .rbo import RBO, rbo
from .reproducibility import Reproducibility, delta_relative_improvement, effect_ratio, reproducibility, rmse
from .run_agreement import RunAgreement, run_agreement
from .swap_rates import SwapRates, swap_rates
from .system_agreement import SystemAgreement, system_agreement
from .ties import TieDependence, tie_dependence
from .unjudged import UnjudgedBounds, unjudged_bounds

__all__ = ['DiscriminativePower', 'JudgmentAgreement', 'JudgmentCoverage', 'KendallTau', 'Pool', 'QrelsStats', 'RBO',
           'Reproducibility', 'RunAgreement', 'SwapRates', 'SystemAgreement', 'TauAP', 'TieDependence',
           'UnjudgedBounds', 'cohen_kappa', 'delta_relative_improvement', 'discriminative_power', 'effect_ratio',
           'judgment_coverage', 'kendall_tau', 'krippendorff_alpha', 'plot_system_agreement', 'pool', 'qrels_stats',
           'rbo', 'reproducibility', 'rmse', 'run_agreement', 'swap_rates', 'system_agreement', 'tau_ap',
           'tie_dependence', 'unjudged_bounds']
