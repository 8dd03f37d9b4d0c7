"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from .discriminative_power import DiscriminativePower, discriminative_power
from .reproducibility import Reproducibility, delta_relative_improvement, effect_ratio, reproducibility, rmse
from .swap_rates import SwapRates, swap_rates

__all__: list[str] = []
__all__ += ['DiscriminativePower', 'discriminative_power', 'Reproducibility', 'reproducibility', 'rmse', 'effect_ratio',
            'delta_relative_improvement', 'SwapRates', 'swap_rates']
