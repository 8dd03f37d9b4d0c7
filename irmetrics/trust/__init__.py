"""Checking the evaluation itself (docs/checking.md): how much of a score is tie order, whether two
evaluations rank systems alike, whether two sets of judgments agree, how complete the judgments are,
whether a measure tells systems apart and a reproduction is faithful.

Built on the public API and on :mod:`irmetrics.comparing` (never on engines); imported on first use.
"""
from .ties import TieDependence, tie_dependence

__all__: list[str] = ['TieDependence', 'tie_dependence']
