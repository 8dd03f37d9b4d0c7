"""The data layer: qrels and runs in columns, from every input irmetrics accepts.

* :mod:`.qrels`, :mod:`.run`: the columnar :class:`Qrels` and :class:`Run` every input becomes once
  (with :mod:`.records`, :mod:`.duplicates` and :mod:`.locate` for their rows);
* :mod:`.ids`: the id layer, numpy and Arrow layouts behind one interface;
* :mod:`.ranking` (the one ranking rule, trec_eval's) and :mod:`.segments` (arrays grouped by query);
* :mod:`.trec`: TREC text files; :mod:`.inputs`: every other input (DataFrames, dicts, records).

It knows nothing of measures: :mod:`irmetrics.api` and the providers use it, never the reverse.
"""
