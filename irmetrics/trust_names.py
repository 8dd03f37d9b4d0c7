"""The public names of :mod:`irmetrics.trust`, listed once.

``irmetrics.trust`` exports them (its ``__all__``) and ``irmetrics`` re-exports them, importing the trust room
on first use (``irmetrics.kendall_tau`` imports it, ``import irmetrics`` does not): the package needs the names
before the room, so they live here, outside it, where importing them imports nothing else.
"""

NAMES = ('DiscriminativePower', 'JudgmentAgreement', 'JudgmentCoverage', 'KendallTau', 'Pool', 'QrelsStats', 'RBO',
         'Reproducibility', 'RunAgreement', 'SwapRates', 'SystemAgreement', 'TauAP', 'TieDependence',
         'UnjudgedBounds', 'cohen_kappa', 'delta_relative_improvement', 'discriminative_power', 'effect_ratio',
         'judgment_coverage', 'kendall_tau', 'krippendorff_alpha', 'plot_system_agreement', 'pool', 'qrels_stats',
         'rbo', 'reproducibility', 'rmse', 'run_agreement', 'swap_rates', 'system_agreement', 'tau_ap',
         'tie_dependence', 'unjudged_bounds')
