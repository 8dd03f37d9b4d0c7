"""The measure algebra: what a measure is, independent of any engine or input.

* :mod:`.measure`: measure values, their definitions (name, parameters, what a value is computed
  from, aggregation, formula, citation) and the registry of definitions and aliases;
* :mod:`.params`: typed parameters and the constraint objects that validate them;
* :mod:`.parse`: the one parser of measure strings, with its name dialects;
* :mod:`.trec_names` and :mod:`.ranx_names`: trec_eval's and ranx's names for the same measures.

It imports :mod:`irmetrics.errors` only: the data layer, the engines, the API and the command line
are built on it, never the reverse.
"""
