"""The evaluation API: evaluators, the calculation functions, runs in parts, and their results.

* :mod:`.evaluator`: :class:`~.evaluator.Evaluator`, measures and qrels prepared once;
* :mod:`.calc`: ``calc``, ``calc_aggregate``, ``iter_calc``, ``evaluator``;
* :mod:`.results`: what they return; :mod:`.diagnostics`: warnings about suspicious input.

Built on :mod:`irmetrics.algebra`, :mod:`irmetrics.data` and the engines (:mod:`irmetrics.providers`);
the comparison, rendering, Dask, bridge and command-line rooms are built on it.
"""
