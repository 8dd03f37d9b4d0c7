"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from ..trust_names import NAMES
from .agreement_plots import plot_system_agreement as plot_system_agreement
from .completeness import JudgmentCoverage as JudgmentCoverage
from .completeness import QrelsStats as QrelsStats
from .completeness import judgment_coverage as judgment_coverage
from .completeness import qrels_stats as qrels_stats
from .discriminative_power import DiscriminativePower as DiscriminativePower
from .discriminative_power import discriminative_power as discriminative_power
from .judges import JudgeAgreement as JudgeAgreement
from .judges import judge_agreement as judge_agreement
from .judgment_agreement import JudgmentAgreement as JudgmentAgreement
from .judgment_agreement import cohen_kappa as cohen_kappa
from .judgment_agreement import krippendorff_alpha as krippendorff_alpha
from .label_agreement import LabelAgreement as LabelAgreement
from .label_agreement import label_agreement as label_agreement
from .leaderboard_agreement import LeaderboardAgreement as LeaderboardAgreement
from .pools import Pool as Pool
from .pools import pool as pool
from .preference_agreement import PreferenceAgreement as PreferenceAgreement
from .preference_agreement import preference_agreement as preference_agreement
from .rank_correlation import KendallTau as KendallTau
from .rank_correlation import TauAP as TauAP
from .rank_correlation import kendall_tau as kendall_tau
from .rank_correlation import tau_ap as tau_ap
from .rbo import RBO as RBO
from .rbo import rbo as rbo
from .reproducibility import Reproducibility as Reproducibility
from .reproducibility import delta_relative_improvement as delta_relative_improvement
from .reproducibility import effect_ratio as effect_ratio
from .reproducibility import reproducibility as reproducibility
from .reproducibility import rmse as rmse
from .run_agreement import RunAgreement as RunAgreement
from .run_agreement import run_agreement as run_agreement
from .swap_rates import SwapRates as SwapRates
from .swap_rates import swap_rates as swap_rates
from .system_agreement import SystemAgreement as SystemAgreement
from .system_agreement import system_agreement as system_agreement
from .ties import TieDependence as TieDependence
from .ties import tie_dependence as tie_dependence
from .unjudged import UnjudgedBounds as UnjudgedBounds
from .unjudged import unjudged_bounds as unjudged_bounds

__all__ = list(NAMES)      # irmetrics/trust_names.py lists them once; each import above says "as" to re-export
