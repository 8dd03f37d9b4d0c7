"""Comparing runs with proper statistics, built on per-query results (never on engines).

:func:`compare` evaluates runs with one evaluator and returns a :class:`Comparison`: means and
confidence intervals, paired differences, effect sizes, wins/ties/losses, p-values of the chosen
tests, corrected for multiple comparisons; it prints as a table and renders to DataFrame,
Markdown, LaTeX, HTML and JSON.  Modules: :mod:`.comparison` (the call and the result),
:mod:`.significance` (t, Wilcoxon, sign tests), :mod:`.resampling` (randomisation, bootstrap,
randomised Tukey HSD), :mod:`.corrections`, :mod:`.intervals`, :mod:`.report` (renderers),
:mod:`.plots` (matplotlib figures), :mod:`.risk` and :mod:`.risk_of_runs` (URisk, TRisk, GeoRisk:
risk-sensitive evaluation against baselines), :mod:`.base` (what the package takes from the core),
:mod:`.toolkit` (what :mod:`irmetrics.trust` takes from this package: its one door for it).

scipy and matplotlib are imported only by the functions that use them.
"""
from .base import ComparisonError
from .comparison import Comparison, compare
from .plots import plot_pr_curve
from .risk_of_runs import GeoRiskResult, TRiskResult, URiskResult, georisk, trisk, urisk
from .slices import SlicedComparison, compare_slices
from .vocabulary import TESTS

__all__ = ['Comparison', 'ComparisonError', 'SlicedComparison', 'TESTS', 'compare', 'compare_slices',
           'plot_pr_curve', 'GeoRiskResult', 'TRiskResult', 'URiskResult', 'georisk', 'trisk', 'urisk']
