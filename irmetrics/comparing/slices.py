"""Comparisons within slices of the queries (short and long queries, topics by year, ...), with one
correction over every slice.

Each slice is compared on its own queries exactly as :func:`.compare` compares (its means, intervals,
tests); the p-values of every slice are then corrected together, within each measure or over all
measures (``correction_scope``), so that a family of comparisons spanning the slices keeps its error
rate: the family is every pair of runs in every slice (on each measure, or on all).  Significance
still needs the exact randomisation test to be able to reach ``alpha`` on each slice's differences
(:mod:`.small_samples`).
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import corrections, report
from .base import (
    ComparisonError,
    EvaluationOptions,
    Options,
    checked_format,
    checked_places,
    html_escape,
    html_page,
    latex_escape,
    measures_first,
    recorded_warnings,
)
from .comparison import Comparison, build_comparison, evaluated
from .settings import Settings
from .statistics import nonzero_differences, significant_where
from .vocabulary import SELF_CORRECTING, RunsLike

if TYPE_CHECKING:
    from typing_extensions import Unpack


class SlicedComparison(Mapping[str, Comparison]):
    """``{slice: Comparison}``, corrected together; :meth:`to_dataframe` stacks them with a ``slice``
    column, :meth:`render` shows each slice's report under its name and size (``print``: the tables)."""

    def __init__(self, slices: dict[str, Comparison]):
        self._slices = slices

    def __getitem__(self, name: str) -> Comparison:
        return self._slices[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._slices)

    def __len__(self) -> int:
        return len(self._slices)

    @property
    def _first(self) -> Comparison:
        return next(iter(self._slices.values()))

    def to_dataframe(self) -> Any:
        """Every slice's :meth:`Comparison.to_dataframe` under a first ``slice`` column; ``attrs['warnings']``:
        every slice's warnings, once each."""
        import pandas as pd
        frame = pd.concat([cmp.to_dataframe().assign(slice=name) for name, cmp in self._slices.items()],
                          ignore_index=True)[['slice', *self._first.to_dataframe().columns]]
        frame.attrs['warnings'] = list(dict.fromkeys(w for cmp in self._slices.values() for w in cmp.warnings))
        return frame

    def to_dict(self) -> dict[str, Any]:
        """``{'slices': {slice: Comparison.to_dict()}}``: what ``render('json')`` writes."""
        return {'slices': {name: cmp.to_dict() for name, cmp in self._slices.items()}}

    def render(self, format: str = 'table', *, places: int | None = None, show: str | Sequence[str] = (),
               label: str = 'tab:comparison') -> str:
        """Every slice in ``format`` (as :meth:`Comparison.render`): in the formats people read each slice's
        report under its name and its number of queries (in LaTeX, each table's caption names its slice and its
        label ends with it; in HTML, one page); in CSV and TSV :meth:`to_dataframe`'s rows, in JSON
        :meth:`to_dict`, in JSON lines each row with its ``slice``."""
        checked_format(format)
        places = checked_places(places)
        report.check_show(self._first, show)
        if format in ('csv', 'tsv'):
            return report.delimited(self.to_dataframe(), format, places)
        if format in ('json', 'jsonl'):
            docs = {name: report.to_dict(cmp, places) for name, cmp in self._slices.items()}
            return (json.dumps({'slices': docs}, indent=2) + '\n' if format == 'json' else
                    ''.join(json.dumps({'slice': name, **row}) + '\n' for name, doc in docs.items()
                            for row in doc['rows']))
        if format == 'html':
            return html_page(f'irmetrics comparison in {len(self)} slices: {", ".join(self._first.runs)}',
                             [f'<h1>Comparison of {len(self._first.runs)} runs in {len(self)} slices</h1>'] +
                             [f'<h2>{html_escape(self._heading(name))}</h2>'
                              + report.html_summary(cmp, 4 if places is None or places < 0 else places, show)
                              for name, cmp in self._slices.items()])
        if format == 'latex':
            return '\n'.join(cmp.render('latex', places=places, show=show, label=f'{label}-{name}')
                             .replace(r'\caption{', r'\caption{' + latex_escape(self._heading(name)) + '. ', 1)
                             for name, cmp in self._slices.items())
        return '\n'.join(f'{self._heading(name)}\n{cmp.render(format, places=places, show=show)}'
                         for name, cmp in self._slices.items())

    def _heading(self, name: str) -> str:
        return f'Slice {name!r} ({len(self._slices[name].query_ids)} queries)'

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f'<SlicedComparison: {len(self)} slices of {len(self._first.runs)} runs>'


def groups_of(slices: Mapping[Any, Any], query_ids: Sequence[str]) -> dict[str, list[int]]:
    """Each slice's positions among ``query_ids``: from ``{slice: [query ids]}`` or ``{query id: slice}``."""
    known = {q: i for i, q in enumerate(query_ids)}
    groups: dict[str, list[int]] = {}
    by_slice = all(isinstance(v, (list, tuple, set, frozenset)) for v in slices.values())
    pairs = ((str(q), str(g)) for g, qs in slices.items() for q in qs) if by_slice else \
        ((str(q), str(g)) for q, g in slices.items())
    for q, g in pairs:
        if q not in known:
            raise ComparisonError(f'slice {g!r}: query {q!r} is not a query of the qrels')
        groups.setdefault(g, []).append(known[q])
    if not groups:
        raise ComparisonError('no slice given: slices={slice: [query ids]} or {query id: slice}')
    return {g: sorted(set(positions)) for g, positions in groups.items()}


@measures_first('compare_slices(runs, qrels, measures, slices)')
def compare_slices(measures: Any, qrels: Any, runs: RunsLike, *, slices: Mapping[Any, Any],
                   baseline: str | Sequence[str] | None = None, test: str | Sequence[str] = 't',
                   correction: str | None = None, correction_scope: str = 'measure', alpha: float = 0.05,
                   ci: float = 0.95, ci_method: str = 't', n_resamples: int = 10000, seed: int | None = 0,
                   **options: Unpack[EvaluationOptions]) -> SlicedComparison:
    """Compare ``runs`` within each slice of the queries, with one correction over all the slices.

    Each slice is compared on its own queries as :func:`.compare` compares; ``correction`` then adjusts
    the p-values of every slice together (see the module docstring).

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures, as :func:`.compare` takes them.
    qrels : any qrels input
        The judgments; their queries are the ones sliced.
    runs : dict or list of run inputs
        The runs, named as :func:`.compare` names them.
    slices : mapping
        ``{slice: [query ids]}`` or ``{query id: slice}``; every query id must be a query of the qrels.
    baseline : str, list of str or None
        The baseline run or runs, as in :func:`.compare`.
    test : str or tuple of str
        The test or tests, as in :func:`.compare`.
    correction : str or None
        The correction, applied over the comparisons of all the slices together.
    correction_scope : str
        ``'measure'``: a family per measure; ``'all'``: one family over every measure.
    alpha : float
        The significance level.
    ci : float
        The confidence level of the intervals.
    ci_method : str
        How the intervals are computed, as in :func:`.compare`.
    n_resamples : int
        The resamples of the resampling tests and intervals, in each slice.
    seed : int or None
        Their seed.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    SlicedComparison
        ``{slice: Comparison}``, corrected together.

    Raises
    ------
    ArgumentOrderError
        When the arguments are in the order before 1.0 (``compare_slices(runs, qrels, measures, slices)``).
    ComparisonError
        When no slice is given, or a slice names a query the qrels do not hold.

    Examples
    --------
    >>> halves = {'first': [str(q) for q in range(401, 406)], 'second': [str(q) for q in range(406, 411)]}
    >>> found = irmetrics.compare_slices('AP', 'examples/qrels.txt',
    ...                                  ['examples/run_bm25.txt', 'examples/run_dense.txt'], slices=halves, alpha=0.1)
    >>> {name: bool(c.significant['t'][0, 0]) for name, c in found.items()}
    {'first': True, 'second': False}
    """
    settings = Settings.checked(test, correction, correction_scope, alpha, ci, ci_method, n_resamples, seed,
                                options.get('memory_limit'), 'compare_slices')
    with recorded_warnings() as seen:
        found = evaluated(measures, qrels, runs, baseline, Options.of(options, 'compare_slices'))
    groups = groups_of(slices, found.query_ids)
    raw = dataclasses.replace(settings, correction=None)
    first = {g: build_comparison(found.runs, found.measures, [found.query_ids[i] for i in rows], found.values[:, rows],
                                 found.baseline, raw, warnings=seen)
             for g, rows in groups.items()}
    final = dataclasses.replace(settings, slices=len(groups))
    return SlicedComparison(_corrected_together(first, final))


def _corrected_together(first: dict[str, Comparison], settings: Settings) -> dict[str, Comparison]:
    """The slices' comparisons with their p-values corrected over all slices, and their significance."""
    adjusted: dict[str, dict[str, np.ndarray]] = {g: {} for g in first}
    for test in settings.tests:
        stacked = np.stack([cmp.pvalue[test] for cmp in first.values()])      # (slices, pairs, measures)
        if test in SELF_CORRECTING or settings.correction is None:
            together = stacked.copy()
        elif settings.correction_scope == 'all':
            together = corrections.adjust_pvalues(stacked.ravel(), settings.correction).reshape(stacked.shape)
        else:
            together = np.stack([corrections.adjust_pvalues(stacked[:, :, j].ravel(), settings.correction)
                                 .reshape(stacked.shape[:2]) for j in range(stacked.shape[2])], axis=2)
        for g, p in zip(first, together, strict=True):
            adjusted[g][test] = p
    out = {}
    for g, cmp in first.items():
        fields = {name: getattr(cmp, name) for name in Comparison.__slots__}
        fields.update(settings=settings, p_adjusted=adjusted[g],
                      significant=significant_where(adjusted[g], nonzero_differences(cmp.values, cmp.pairs),
                                               settings.alpha))
        out[g] = Comparison(**fields)
    return out
