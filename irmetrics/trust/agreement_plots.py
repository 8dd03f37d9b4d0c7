"""The systems under one evaluation against the other (matplotlib, imported only here).

Install with ``pip install "irmetrics[plot]"``.  The function returns the matplotlib Figure without
showing it, made with the object-oriented API (no global pyplot state), so it works under any backend.
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from ..comparing.toolkit import BETTER, figure
from ..errors import InputError


class SystemRankings(Protocol):
    """What the plot reads of a :class:`~.system_agreement.SystemAgreement` (a protocol, so that this module
    never imports the class that calls it)."""

    @property
    def systems(self) -> tuple[str, ...]: ...
    @property
    def values_a(self) -> np.ndarray: ...
    @property
    def values_b(self) -> np.ndarray: ...
    @property
    def label_a(self) -> str: ...
    @property
    def label_b(self) -> str: ...
    @property
    def tau(self) -> Any: ...
    @property
    def tau_ap(self) -> Any: ...
    @property
    def rbo(self) -> Any: ...

    def ranks(self) -> tuple[np.ndarray, np.ndarray]: ...

BY = ('score', 'rank')


def plot_system_agreement(agreement: SystemRankings, *, by: str = 'score') -> Any:
    """A scatter plot of the systems of ``agreement``, under the first evaluation (x) and the second (y).

    One point a system, labelled with its name; the diagonal marks where the two evaluations agree, and
    the title gives Kendall's tau, tau_AP and RBO.  Needs matplotlib.

    Parameters
    ----------
    agreement : SystemAgreement
        What :func:`irmetrics.system_agreement` found.
    by : str
        ``'score'``: each system at its means; ``'rank'``: at its ranks (1 = best, drawn top right).

    Returns
    -------
    matplotlib.figure.Figure
        The scatter plot.

    Raises
    ------
    InputError
        For ``by`` other than ``'score'`` or ``'rank'``.

    Examples
    --------
    >>> runs = {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt',
    ...         'bm25 top 3': irmetrics.read_trec_run('examples/run_bm25.txt').top(3)}
    >>> found = irmetrics.system_agreement('AP', 'examples/qrels.txt', runs, measure_b='P@10')
    >>> irmetrics.plot_system_agreement(found, by='rank').axes[0].get_title()
    "Kendall's tau = 1.000, tau_AP = 1.000, RBO = 1.000 (3 systems)"
    """
    if by not in BY:
        raise InputError(f"plot_system_agreement: by={by!r}; expected 'score' or 'rank'")
    fig, (ax,) = figure(height=5.6, width=6.0)
    if by == 'rank':
        x, y = (r.astype(np.float64) for r in agreement.ranks())
        n = len(agreement.systems)
        low, high = 0.5, n + 0.5
        ax.set_xlim(high, low)                    # rank 1 at the right and at the top
        ax.set_ylim(high, low)
        ticks = np.arange(1, n + 1)
        ax.set_xticks(ticks)
        ax.set_yticks(ticks)
    else:
        x, y = agreement.values_a, agreement.values_b
        both = np.concatenate((x, y))
        pad = 0.05 * max(float(both.max() - both.min()), 1e-9)
        low, high = float(both.min()) - pad, float(both.max()) + pad
        ax.set_xlim(low, high)
        ax.set_ylim(low, high)
    ax.plot([low, high], [low, high], color='#bbbbbb', linewidth=1, zorder=1)
    ax.scatter(x, y, s=36, color=BETTER, zorder=2)
    for name, xi, yi in zip(agreement.systems, x.tolist(), y.tolist(), strict=True):
        ax.annotate(name, (xi, yi), xytext=(5, 4), textcoords='offset points', fontsize=9)
    what = 'rank' if by == 'rank' else 'mean'
    ax.set_xlabel(f'{what}: {agreement.label_a}')
    ax.set_ylabel(f'{what}: {agreement.label_b}')
    ax.set_title(f"Kendall's tau = {agreement.tau.statistic:.3f}, tau_AP = {agreement.tau_ap.statistic:.3f}, "
                 f'RBO = {agreement.rbo.extrapolated:.3f} ({len(agreement.systems)} systems)', fontsize=10)
    ax.grid(True, color='#eeeeee', zorder=0)
    return fig
