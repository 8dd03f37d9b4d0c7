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

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray | float]:
        """Every measure, of one query or of the whole run, from one ranking and join of ``run``."""
        table = RankedTable(self.index, run)
        return {m: _value(m, KERNELS[m.definition](m, table)) for m in self.measures}

    def relevance_strings(self, run: Run, depth: int, judged_only: bool = False) -> list[str]:
        return relevance_strings(self.index, run, depth, judged_only)

    def roc_curves(self, run: Run, rel: int, cutoff: int | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return roc_curves(self.index, run, rel, cutoff)


def _value(measure: Measure, computed: np.ndarray | float) -> np.ndarray | float:
    """A kernel's result as :meth:`Prepared.evaluate` gives it: per query, or one float for a whole run."""
    return float(computed) if measure.definition.scope == 'run' else computed


class NativeProvider(Provider):
    name = 'native'
    install = 'built in'
    description = "irmetrics' own vectorised numpy engine (the default; every measure)"

    @property
    def patterns(self) -> list[Pattern]:
        return [Pattern(d.bare, **{p.name: ANY for p in d.params})
                for d in REGISTRY.definitions() if d in KERNELS]

    def supports(self, measure: Measure) -> bool:
        """Every parameter of every measure with a kernel (what :attr:`patterns` says, without building it)."""
        return measure.definition in KERNELS

    def prepare(self, measures: Sequence[Measure], qrels: Qrels) -> Prepared:
        return NativePrepared(measures, qrels)
