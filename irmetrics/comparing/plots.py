"""Figures of a comparison, and the 11-point precision-recall curve (matplotlib, imported only here).

Install with ``pip install "irmetrics[plot]"``.  Every function returns the matplotlib Figure
without showing it; figures are made with the object-oriented API (no global pyplot state), so
they work under any backend, Agg included.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .base import ComparisonError, Evaluator, InputError, Options, find_run
from .vocabulary import ComparisonView, RunsLike, letter, name_runs

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .base import EvaluationOptions

INSTALL = 'pip install "irmetrics[plot]"'
RECALL_LEVELS = [i / 10 for i in range(11)]
BETTER, _WORSE = '#2a7ab0', '#d1603d'


def figure(rows: int = 1, height: float = 3.6, width: float = 7.5) -> tuple[Any, list[Any]]:
    """A matplotlib Figure (object-oriented, constrained layout) of ``rows`` panels, or one line saying
    how to install matplotlib."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ComparisonError(f'plotting needs matplotlib: {INSTALL}') from None
    fig = Figure(figsize=(width, height * rows), layout='constrained')
    return fig, [fig.add_subplot(rows, 1, i + 1) for i in range(rows)]


def plot_deltas(cmp: ComparisonView, measure: Any, run: str | None = None, baseline: str | None = None) -> Any:
    """Per-query differences ``run - baseline`` on ``measure``, sorted from the largest gain to the
    largest loss, one bar per query ("topic-by-topic"); one panel per compared run when ``run`` is
    None.  Queries where either run is undefined are left out."""
    j = cmp.measure_index(measure)
    baseline, run = _deltas_runs(cmp, run, baseline)
    b = cmp.runs.index(baseline)
    others = [cmp.runs.index(run)] if run is not None else [r for r in range(len(cmp.runs)) if r != b]
    fig, axes = figure(len(others), height=3.2)
    for ax, o in zip(axes, others, strict=True):
        _delta_panel(ax, cmp, j, o, b)
    return fig


def _deltas_runs(cmp: ComparisonView, run: str | None, baseline: str | None) -> tuple[str, str | None]:
    """The baseline and the run (None: every other run) of :func:`plot_deltas`, found among the compared runs:
    the comparison's one baseline when none is given."""
    if baseline is None and len(cmp.baselines) > 1:
        raise ComparisonError(f'plot_deltas: the comparison has several baselines ({", ".join(cmp.baselines)}): '
                              f'choose one, plot_deltas(measure, baseline=NAME)')
    baseline = baseline if baseline is not None else (cmp.baselines or (None,))[0]
    if baseline is None:
        raise ComparisonError('plot_deltas needs a baseline: compare(..., baseline=NAME) or plot_deltas(measure, '
                              'baseline=NAME)')
    try:
        return (find_run(baseline, cmp.runs, cmp.runs, 'baseline'),
                None if run is None else find_run(run, cmp.runs, cmp.runs))
    except InputError as ex:
        raise ComparisonError(str(ex)) from None


def _delta_panel(ax: Any, cmp: ComparisonView, j: int, o: int, b: int) -> None:
    """One panel of :func:`plot_deltas`: run ``o`` minus run ``b`` on measure ``j``, a bar per query."""
    m = cmp.measures[j]
    sign = 1 if m.definition.higher_is_better else -1
    diff = cmp.values[o, :, j] - cmp.values[b, :, j]
    keep = ~np.isnan(diff)
    order = np.argsort(-diff[keep] * sign, kind='stable')
    d = diff[keep][order]
    qids = np.array(cmp.query_ids, dtype=object)[keep][order]
    colors = np.where(d * sign > 0, BETTER, np.where(d * sign < 0, _WORSE, '#999999'))
    ax.bar(np.arange(d.size), d, width=0.85 if d.size < 200 else 1.0, color=colors)
    ax.axhline(0, color='#333333', linewidth=0.8)
    ax.axhline(d.mean(), color='#333333', linewidth=1, linestyle='--', label=f'mean {d.mean():+.4f}')
    wins, losses = int((d * sign > 0).sum()), int((d * sign < 0).sum())
    ax.set_title(f'{cmp.runs[o]} − {cmp.runs[b]}: {m} per {cmp.unit[0]} ({wins} better, {losses} worse, '
                 f'{d.size - wins - losses} tied)', fontsize=10)
    ax.set_ylabel(f'Δ {m}')
    ax.set_xlim(-0.6, d.size - 0.4)
    if d.size <= 40:
        ax.set_xticks(np.arange(d.size), qids, rotation=90 if d.size > 12 else 0, fontsize=8)
        ax.set_xlabel(cmp.unit[0])
    else:
        ax.set_xticks([])
        ax.set_xlabel(f'{d.size} {cmp.unit[1]}, sorted by difference')
    ax.legend(loc='upper right', fontsize=8, frameon=False)
    ax.grid(axis='y', alpha=0.3)


def plot_distribution(cmp: ComparisonView, measure: Any, kind: str = 'box') -> Any:
    """Each run's per-query values on ``measure`` as a box plot (``kind='violin'``: a violin), the
    mean marked by a diamond; queries where a run is undefined are left out of its box."""
    if kind not in ('box', 'violin'):
        raise ComparisonError(f"unknown kind {kind!r}: use 'box' or 'violin'")
    j = cmp.measure_index(measure)
    m = cmp.measures[j]
    columns = [v[~np.isnan(v)] for v in cmp.values[:, :, j]]
    fig, (ax,) = figure(1, height=0.9 + 0.45 * len(cmp.runs) if len(cmp.runs) > 6 else 3.6)
    positions = np.arange(1, len(cmp.runs) + 1)
    if kind == 'box':
        ax.boxplot(columns, positions=positions, orientation='horizontal', widths=0.55, patch_artist=True,
                   boxprops={'facecolor': '#dbe8f3', 'edgecolor': '#2a5d84'}, medianprops={'color': '#2a5d84'},
                   flierprops={'markersize': 3, 'markeredgecolor': '#888888'})
    else:
        ax.violinplot(columns, positions=positions, orientation='horizontal', showmedians=True, widths=0.8)
    ax.scatter(cmp.mean[:, j], positions, marker='D', color=_WORSE, zorder=3, s=22, label='mean')
    ax.set_yticks(positions, [f'({letter(r)}) {name}' for r, name in enumerate(cmp.runs)])
    ax.invert_yaxis()
    ax.set_xlabel(f'{m} per {cmp.unit[0]}')
    ax.set_title(f'{m}: distribution over {len(cmp.query_ids)} {cmp.unit[1]}', fontsize=10)
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)   # beside, never on a box
    ax.grid(axis='x', alpha=0.3)
    return fig


def plot_pr_curve(qrels: Any, runs: RunsLike | Any, **options: Unpack[EvaluationOptions]) -> Any:
    """The 11-point interpolated precision-recall curve of each run, one line per run.

    Each point is the mean of ``IPrec@0.0`` ... ``IPrec@1.0`` over the qrels' queries (trec_eval's
    ``iprec_at_recall``).  Needs matplotlib.

    Parameters
    ----------
    qrels : any qrels input
        The judgments.
    runs : dict, list or one run input
        As :func:`irmetrics.compare` takes them (a dict ``{name: run}`` or a list), or a single run.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, one line per run.

    Examples
    --------
    >>> fig = irmetrics.plot_pr_curve('examples/qrels.txt',
    ...                               {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt'})
    >>> [line.get_label() for line in fig.axes[0].lines]
    ['bm25', 'dense']
    """
    several = isinstance(runs, Mapping) or (isinstance(runs, Sequence) and not isinstance(runs, (str, bytes)))
    names, inputs = name_runs(runs if several else [runs], at_least=1)
    fig, (ax,) = figure(1, height=4.6, width=6.4)
    evaluator = Evaluator([f'IPrec@{r:.1f}' for r in RECALL_LEVELS], qrels,
                          **Options.of(options, 'plot_pr_curve').given())
    for name, run in zip(names, inputs, strict=True):
        means = list(evaluator.calc(run).aggregated.values())
        ax.plot(RECALL_LEVELS, means, marker='o', markersize=4, label=name)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(RECALL_LEVELS)
    ax.set_xlabel('recall')
    ax.set_ylabel('interpolated precision')
    ax.set_title(f'11-point interpolated precision-recall ({len(evaluator.qrels.query_ids)} queries)', fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc='upper right', fontsize=8)
    return fig
