"""irmetrics' own engine: vectorised numpy over one ranked, joined table.

Every native kernel lives in the module named like its measure family in
:mod:`irmetrics.measures`; :mod:`.table` holds the shared ranking and join.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...algebra.measure import REGISTRY, Measure
from ...data.qrels import Qrels
from ...data.run import Run
from ..base import ANY, Pattern, Prepared, Provider
from . import (  # noqa: F401  (each module registers its kernels)
    accuracy,
    ap,
    auc,
    beyond_accuracy,
    bpref,
    compat,
    counts,
    cwl,
    diversity,
    err,
    f1,
    hits,
    infap,
    iprec,
    judged,
    lag,
    ndcg,
    normalized_gain,
    precision,
    rbp,
    recall,
    rprec,
    rr,
    set_measures,
    success,
    utility,
)
from .auc import roc_curves
from .kernels import KERNELS
from .relstring import relevance_strings
from .table import QrelsIndex, RankedTable


class NativePrepared(Prepared):
    def __init__(self, measures: Sequence[Measure], qrels: Qrels):
        self.measures = list(measures)
        self.index = QrelsIndex(qrels)

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray]:
        table = RankedTable(self.index, run)
        return {m: KERNELS[m.definition](m, table) for m in self._of('query')}

    def evaluate_run(self, run: Run) -> dict[Measure, float]:
        table = RankedTable(self.index, run)
        return {m: float(KERNELS[m.definition](m, table)) for m in self._of('run')}

    def evaluate_against(self, run: Run, baseline: Run) -> dict[Measure, float]:
        table, base = RankedTable(self.index, run), RankedTable(self.index, baseline)
        return {m: float(KERNELS[m.definition](m, table, base)) for m in self._of('baseline')}

    def evaluate_runs(self, runs: Sequence[Run]) -> dict[Measure, np.ndarray]:
        tables = [RankedTable(self.index, run) for run in runs]
        return {m: np.asarray(KERNELS[m.definition](m, tables), dtype=np.float64) for m in self._of('runs')}

    def _of(self, scope: str) -> list[Measure]:
        return [m for m in self.measures if m.definition.scope == scope]

    def relevance_strings(self, run: Run, depth: int, judged_only: bool = False) -> list[str]:
        return relevance_strings(self.index, run, depth, judged_only)

    def roc_curves(self, run: Run, rel: int, cutoff: int | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return roc_curves(self.index, run, rel, cutoff)


class NativeProvider(Provider):
    name = 'native'
    install = 'built in'
    description = "irmetrics' own vectorised numpy engine (the default; every measure)"

    @property
    def patterns(self):
        return [Pattern(d.bare, **{p.name: ANY for p in d.params})
                for d in REGISTRY.definitions() if d in KERNELS]

    def supports(self, measure: Measure) -> bool:
        """Every parameter of every measure with a kernel (what :attr:`patterns` says, without building it)."""
        return measure.definition in KERNELS

    def prepare(self, measures: Sequence[Measure], qrels: Qrels) -> Prepared:
        return NativePrepared(measures, qrels)
