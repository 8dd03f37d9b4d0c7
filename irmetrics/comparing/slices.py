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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import corrections
from .base import ComparisonError, EvaluationOptions, Options, measures_first
from .comparison import Comparison, build_comparison, evaluated
from .settings import Settings
from .statistics import nonzero_differences, significant_where
from .vocabulary import SELF_CORRECTING, RunsLike

if TYPE_CHECKING:
    from typing_extensions import Unpack


class SlicedComparison(Mapping[str, Comparison]):
    """``{slice: Comparison}``, corrected together; :meth:`to_dataframe` stacks them with a ``slice``
    column, ``print`` shows each slice's table under its name."""

    def __init__(self, slices: dict[str, Comparison]):
        self._slices = slices

    def __getitem__(self, name: str) -> Comparison:
        return self._slices[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._slices)

    def __len__(self) -> int:
        return len(self._slices)

    def to_dataframe(self) -> Any:
        import pandas as pd
        return pd.concat([cmp.to_dataframe().assign(slice=name) for name, cmp in self._slices.items()],
                         ignore_index=True)[['slice', *self._first.to_dataframe().columns]]

    @property
    def _first(self) -> Comparison:
        return next(iter(self._slices.values()))

    def to_table(self, places: int = 4, show: Sequence[str] = ()) -> str:
        """Each slice's :meth:`Comparison.to_table` under its name and size (what ``print`` shows)."""
        return self._each(lambda cmp: cmp.to_table(places, show))

    def to_markdown(self, places: int = 4, show: Sequence[str] = ()) -> str:
        """Each slice's :meth:`Comparison.to_markdown` under its name and size."""
        return self._each(lambda cmp: cmp.to_markdown(places, show))

    def _each(self, render: Callable[[Comparison], str]) -> str:
        return '\n'.join(f'Slice {name!r} ({len(cmp.query_ids)} queries)\n{render(cmp)}'
                         for name, cmp in self._slices.items())

    def __str__(self) -> str:
        return self.to_table()

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
    """Compare ``runs`` within each slice of the queries (``slices``: ``{slice: [query ids]}`` or
    ``{query id: slice}``), every option as in :func:`.compare`, ``correction`` over all the slices
    together (see the module docstring)."""
    settings = Settings.checked(test, correction, correction_scope, alpha, ci, ci_method, n_resamples, seed)
    names, chosen, query_ids, values, base = evaluated(measures, qrels, runs, baseline,
                                                       Options.of(options, 'compare_slices'))
    groups = groups_of(slices, query_ids)
    raw = dataclasses.replace(settings, correction=None)
    first = {g: build_comparison(names, chosen, [query_ids[i] for i in rows], values[:, rows], base, raw)
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
