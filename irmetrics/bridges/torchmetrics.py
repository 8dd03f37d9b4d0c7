"""irmetrics as a torchmetrics ``Metric``, so that Lightning and ``MetricCollection`` treat it as any other.

    from irmetrics.bridges.torchmetrics import RankingMetric
    metric = RankingMetric(['nDCG@10', 'R@20'], held_out, exclude=train)   # in a LightningModule's __init__
    metric.update(scores, offset=lo)                                       # in validation_step
    self.log_dict(metric.compute())                                        # {'nDCG@10': ..., 'R@20': ...}

The metric is an :class:`~irmetrics.api.accumulator.Accumulator` in torchmetrics' clothes: ``update`` adds a
batch to it, ``compute`` returns its aggregates (a dict of floats keyed by measure name; :attr:`results` holds
the whole :class:`~irmetrics.CalcResults`), ``reset`` empties it, and ``forward`` (``metric(batch,
offset=lo)``, what Lightning calls) adds a batch and returns the aggregates of that batch's users alone, on
this process, as torchmetrics' ``forward`` returns the metric of the batch while accumulating it.  Under
``torch.distributed`` the accumulator gathers the processes' values itself (one ``all_gather_object``, which a
process that was given no batch joins as well, after checking that every process has the same measures and
judgments): the metric registers no torchmetrics state, so torchmetrics' own synchronisation has nothing to
gather and starts no collective of its own.  The measures of a whole run (Coverage, Gini) are computed as the
accumulator computes them.  This module imports torchmetrics; nothing imports it but the user.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from torchmetrics import Metric

from ..api.accumulator import Accumulator, Batch, batch_values
from ..api.evaluator import Evaluator
from ..api.options import Options
from ..api.results import CalcResults, MeasureValues
from ..errors import InputError

#: the last batch before any is given (forward reads the batch update() adds)
NO_BATCH = Batch([], None, np.zeros(0, dtype=np.int64))
#: torchmetrics options that would gather tensor states, which this metric does not have: refused, not ignored
NOT_APPLICABLE = ('dist_sync_fn', 'process_group', 'distributed_available_fn')


class RankingMetric(Metric):
    """The measures of an :class:`~irmetrics.Evaluator` as a torchmetrics ``Metric`` (module docstring)."""

    full_state_update = False

    def __init__(self, measures: Any, qrels: Any, **kwargs: Any):
        """``measures``, ``qrels`` and the shared options (:class:`~irmetrics.api.options.Options`: ``provider``,
        ``duplicates``, ``items``, ``exclude``, ``strict``, ``dialect``, ``memory_limit``): as
        :func:`irmetrics.evaluator`; the other ``kwargs``: torchmetrics' ``Metric`` options
        (``sync_on_compute=False`` keeps each process to its own users)."""
        options, kwargs = Options.split(kwargs, 'RankingMetric')
        given = [name for name in NOT_APPLICABLE if kwargs.get(name) is not None]
        if given or kwargs.get('dist_sync_on_step'):
            raise InputError(f'{(given or ["dist_sync_on_step"])[0]}: RankingMetric gathers the processes\' values '
                             f'in compute() through its accumulator (all_gather_object on the default group), not '
                             f'through torchmetrics\' state synchronisation: leave it out', 'RankingMetric')
        super().__init__(**kwargs)
        self.evaluator = Evaluator(measures, qrels, **options.given())
        self.duplicates = options.duplicates
        self.accumulator = Accumulator(self.evaluator, duplicates=options.duplicates,
                                       sync=None if self.sync_on_compute else False)
        self.results: CalcResults | None = None
        self._batch = NO_BATCH

    @property
    def higher_is_better(self) -> bool | None:  # type: ignore[override]
        """True when every measure is better higher, False when every one is better lower, None when they
        disagree (each measure's definition states its direction)."""
        directions = {m.definition.higher_is_better for m in self.evaluator.all_measures}
        return directions.pop() if len(directions) == 1 else None

    def update(self, run: Any, offset: int = 0) -> None:
        """Add a batch: arrays whose row ``i`` is the user ``offset + i``, or a run of named queries (a batch
        holding a user of an earlier one is refused whole: call :meth:`reset` before each epoch's batches)."""
        batch = batch_values(self.evaluator, run, offset, self.duplicates)
        self.accumulator.add(batch)
        self._batch = batch

    def compute(self) -> MeasureValues:
        """The aggregates of every user given (on every process, gathered by the accumulator); an error before
        any batch was given (since the metric was built or reset)."""
        self.results = self.accumulator.compute()
        return self.results.aggregated

    def forward(self, run: Any, offset: int = 0) -> MeasureValues:
        """Add a batch (as :meth:`update`) and return the aggregates of this batch's users alone, on this process
        (the measures of a whole run, Coverage and Gini, of this batch's rankings), as torchmetrics' ``forward``
        returns the metric of the batch alone while accumulating it: the other users of the judgments are not
        in it."""
        self.update(run, offset)
        alone = Accumulator(self.evaluator, duplicates=self.duplicates, sync=False)
        alone.add(self._batch)
        batch_value = alone.compute().aggregated
        self._forward_cache = batch_value  # type: ignore[assignment]  # torchmetrics types it None; Lightning reads it
        return batch_value

    def reset(self) -> None:
        """Forget every batch (torchmetrics' counters too)."""
        super().reset()
        self.accumulator.reset()
        self.results = None
        self._batch = NO_BATCH
