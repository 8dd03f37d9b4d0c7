"""irmetrics as a torchmetrics ``Metric``, so that Lightning and ``MetricCollection`` treat it as any other.

    from irmetrics.bridges.torchmetrics import RankingMetric
    metric = RankingMetric(['nDCG@10', 'R@20'], held_out, exclude=train)   # in a LightningModule's __init__
    metric.update(scores, offset=lo)                                       # in validation_step
    self.log_dict(metric.compute())                                        # {'nDCG@10': ..., 'R@20': ...}

Each ``update`` computes the batch's per-user values where the scores are (as
:meth:`irmetrics.Evaluator.accumulator` does) and keeps them as two list states (the users' codes and
their values), which torchmetrics gathers across processes with ``dist_reduce_fx='cat'`` before
``compute``; ``compute`` returns the aggregates (a dict of floats keyed by measure name) of every user,
and :attr:`results` the whole :class:`~irmetrics.CalcResults`.  Measures of a whole run (Coverage, Gini)
need each user's top ranking and go through the accumulator instead.  This module imports torchmetrics;
nothing imports it but the user.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np
import torch
from torchmetrics import Metric
from torchmetrics.utilities import dim_zero_cat

from ..api.accumulator import batch_values
from ..api.evaluator import Evaluator
from ..api.results import CalcResults, MeasureValues, QueryValues
from ..errors import MeasureError


class RankingMetric(Metric):
    """The measures of an :class:`~irmetrics.Evaluator` as a torchmetrics ``Metric`` (module docstring)."""

    full_state_update = False
    higher_is_better = True

    def __init__(self, measures: Any, qrels: Any, *, items: Any = None, exclude: Any = None,
                 duplicates: str = 'error', **kwargs: Any):
        """``measures``, ``qrels``, ``items``, ``exclude``: as :func:`irmetrics.evaluator`; ``duplicates``: as
        :meth:`irmetrics.Evaluator.calc`; ``kwargs``: torchmetrics' ``Metric`` options."""
        super().__init__(**kwargs)
        self.evaluator = Evaluator(measures, qrels, items=items, exclude=exclude)
        if self.evaluator.run_measures:
            whole = self.evaluator.run_measures[0]
            raise MeasureError(f'{whole!r} is a measure of a whole run: use Evaluator.accumulator(), which keeps '
                               f'each user\'s top ranking')
        self.duplicates = duplicates
        self.results: CalcResults | None = None
        self.add_state('codes', default=[], dist_reduce_fx='cat')
        self.add_state('values', default=[], dist_reduce_fx='cat')

    def update(self, run: Any, offset: int = 0) -> None:
        """Add a batch: arrays whose row ``i`` is the user ``offset + i``, or a run of named queries."""
        parts, _ = batch_values(self.evaluator, run, offset, self.duplicates)
        for part in parts:
            self._state('codes').append(torch.as_tensor(part.codes, dtype=torch.int64))
            self._state('values').append(torch.as_tensor(part.values, dtype=torch.float64))

    def _state(self, name: str) -> Any:
        """A list state (a tensor once torchmetrics has gathered it across processes)."""
        return cast(Any, getattr(self, name))

    def compute(self) -> MeasureValues:
        """The aggregates of every user given (on every process, after torchmetrics' gathering)."""
        n = len(self.evaluator.measures)
        codes, values = self._state('codes'), self._state('values')
        codes = dim_zero_cat(codes).cpu().numpy() if len(codes) else np.zeros(0, dtype=np.int64)
        values = dim_zero_cat(values).cpu().numpy().reshape(-1, n) if len(values) else np.zeros((0, n))
        self.results = self.evaluator.combine([QueryValues(codes, values)], 'the batches')
        return self.results.aggregated
