"""The measure algebra: what a measure is, independent of any engine or input.

* :mod:`.measure`: measure values, their definitions (name, parameters, what a value is computed
  from, aggregation, formula, citation) and the registry of definitions and aliases;
* :mod:`.params`: typed parameters and the constraint objects that validate them;
* :mod:`.parse`: the parser of measure strings in irmetrics' own syntax (the other dialects, trec_eval's
  and ranx's names, are in :mod:`irmetrics.dialects`, above the definitions they name).

It imports :mod:`irmetrics.errors` only: the definitions, the data layer, the engines, the API and the command line
are built on it, never the reverse.
"""
