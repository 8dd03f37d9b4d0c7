"""Names shared by the computations and the reports: the tests, and how runs are named and lettered."""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .base import ComparisonError, default_names, source_path

#: The tests by name, with the description the reports print.
TESTS = {
    't': 'paired t-test',
    'wilcoxon': 'Wilcoxon signed-rank test',
    'sign': 'sign test',
    'randomization': 'paired randomisation test',
    'bootstrap': 'paired bootstrap test (shift method)',
    'tukey': 'randomised Tukey HSD',
}
#: The tests that control the family-wise error themselves: no correction applies to them.
SELF_CORRECTING = ('tukey',)

RunsLike = Mapping[str, Any] | Sequence[Any]


class ComparisonView(Protocol):
    """What the reports and plots read of a comparison (:class:`~.comparison.Comparison` has it all);
    they are typed by this, so that they never import the class that renders through them."""

    @property
    def runs(self) -> Sequence[str]: ...

    @property
    def measures(self) -> Sequence[Any]: ...

    @property
    def query_ids(self) -> Sequence[str]: ...

    @property
    def values(self) -> np.ndarray: ...

    @property
    def unit(self) -> tuple[str, str]: ...

    @property
    def baseline(self) -> str | tuple[str, ...] | None: ...

    @property
    def baselines(self) -> tuple[str, ...]: ...

    @property
    def settings(self) -> Any: ...

    @property
    def pairs(self) -> Sequence[tuple[int, int]]: ...

    @property
    def mean(self) -> np.ndarray: ...

    @property
    def delta(self) -> np.ndarray: ...

    @property
    def enumerated(self) -> dict[str, int]: ...

    @property
    def fewest_queries(self) -> dict[str, int]: ...

    @property
    def p_adjusted(self) -> dict[str, np.ndarray]: ...

    @property
    def significant(self) -> dict[str, np.ndarray]: ...

    @property
    def tests(self) -> tuple[str, ...]: ...

    @property
    def risk(self) -> Any: ...

    @property
    def family_size(self) -> int: ...

    @property
    def warnings(self) -> tuple[str, ...]: ...

    def rows(self) -> list[dict[str, Any]]: ...

    def to_dataframe(self, *, wide: bool = False) -> Any: ...

    def measure_index(self, measure: Any) -> int: ...

    def plot_distribution(self, measure: Any, kind: str = 'box') -> Any: ...

    def plot_deltas(self, measure: Any, run: str | None = None, baseline: str | None = None) -> Any: ...


def name_runs(runs: RunsLike, at_least: int = 2) -> tuple[list[str], list[Any]]:
    """Run names and inputs: a mapping's keys, else each file's stem (or the paths as given, when two
    stems are the same; :mod:`irmetrics.api.run_names`), else ``run<i>`` (1-based).  A run is given by a
    file when the input kinds say so (:func:`irmetrics.data.inputs.source_path`)."""
    if isinstance(runs, Mapping):
        names, inputs = [str(k) for k in runs], list(runs.values())
    elif isinstance(runs, (str, bytes, os.PathLike)) or not isinstance(runs, Sequence):
        raise ComparisonError('runs must be a dict {name: run} or a list of runs, each a path, a DataFrame, '
                              'a dict of dicts or records')
    else:
        inputs = list(runs)
        given = [source_path(r) for r in inputs]
        stems = iter(default_names([path for path in given if path is not None]))
        names = [next(stems) if path is not None else f'run{i}' for i, path in enumerate(given, 1)]
    if len(inputs) < at_least:
        raise ComparisonError(f'a comparison needs two runs or more, got {len(inputs)}' if at_least == 2 else
                              'no run given')
    if len(set(names)) < len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ComparisonError(f'two runs are named {twice!r}: name them with a dict {{name: run}}')
    return names, inputs


def letter(i: int) -> str:
    """a, b, ..., z, aa, ab, ...: the label of run i in tables and plots."""
    text = ''
    i += 1
    while i:
        i, rest = divmod(i - 1, 26)
        text = chr(ord('a') + rest) + text
    return text
