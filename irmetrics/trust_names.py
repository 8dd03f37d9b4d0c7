"""The public names of :mod:`irmetrics.trust`, listed once.

``irmetrics.trust`` exports them (its ``__all__``) and ``irmetrics`` re-exports them, importing the trust room
on first use (``irmetrics.kendall_tau`` imports it, ``import irmetrics`` does not): the package needs the names
before the room, so they live here, outside it, where importing them imports nothing else.
"""

#: also this module's ``__all__``: documentation tools read a starred name in ``irmetrics.__all__`` as the
#: ``__all__`` of the module it comes from
NAMES = __all__ = ('DiscriminativePower', 'JudgeAgreement', 'JudgmentAgreement', 'JudgmentCoverage',
         'KendallTau', 'LabelAgreement', 'LeaderboardAgreement', 'Pool', 'PreferenceAgreement', 'QrelsStats',
         'RBO', 'Reproducibility', 'RunAgreement', 'SwapRates', 'SystemAgreement', 'TauAP', 'TieDependence',
         'UnjudgedBounds', 'cohen_kappa', 'delta_relative_improvement', 'discriminative_power',
         'effect_ratio', 'judge_agreement', 'judgment_coverage', 'kendall_tau', 'krippendorff_alpha',
         'label_agreement', 'plot_system_agreement', 'pool', 'preference_agreement', 'qrels_stats', 'rbo',
         'reproducibility', 'rmse', 'run_agreement', 'swap_rates', 'system_agreement', 'tau_ap',
         'tie_dependence', 'unjudged_bounds')
