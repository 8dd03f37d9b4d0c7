"""The measure algebra and the evaluation API, built on :mod:`irmetrics.data`.

* the algebra: :mod:`.measure` (measure values, definitions, the registry), :mod:`.params` (typed
  parameters), :mod:`.parse` (one parser for measure strings), :mod:`.trec_names` and
  :mod:`.ranx_names` (other tools' names for the same measures);
* the registry of engines: :mod:`.provider` (what a provider declares, who computes what);
* the API: :mod:`.api` (``calc``, ``calc_aggregate``, ``iter_calc``, ``evaluator``) and
  :mod:`.results` (what they return).

Imports run one way: the algebra imports nothing of the API (the API registers itself behind
``Measure.calc`` and friends), and nothing here imports the measures, the providers or the CLI.
"""
