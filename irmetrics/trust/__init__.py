"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from .agreement_plots import plot_system_agreement
from .rank_correlation import KendallTau, TauAP, kendall_tau, tau_ap
from .rbo import RBO, rbo
from .run_agreement import RunAgreement, run_agreement
from .system_agreement import SystemAgreement, system_agreement

__all__: list[str] = ['KendallTau', 'RBO', 'RunAgreement', 'SystemAgreement', 'TauAP', 'kendall_tau',
                      'plot_system_agreement', 'rbo', 'run_agreement', 'system_agreement', 'tau_ap']
