"""The data layer: qrels and runs in columns, from every input irmetrics accepts.

* :mod:`.qrels`, :mod:`.run`: the columnar :class:`Qrels` and :class:`Run` every input becomes once
  (with :mod:`.records`, :mod:`.duplicates` and :mod:`.locate` for their rows);
* :mod:`.ids`: the id layer, numpy and Arrow layouts behind one interface;
* :mod:`.ranking` (the one ranking rule, trec_eval's) and :mod:`.segments` (arrays grouped by query);
* :mod:`.inputs`: the one door for inputs (``to_qrels``, ``to_run``, a run opened whole or in parts),
  which asks :mod:`.input_kinds`, the registry of what qrels and runs arrive as (:mod:`.trec` for TREC
  text, :mod:`.parquet`, :mod:`.tables`, :mod:`.python_objects` for DataFrames, dicts and records,
  :mod:`.arrays`); :mod:`.paths` is the one rule for what is a path and the one list of file suffixes.

It knows nothing of measures: :mod:`irmetrics.api` and the providers use it, never the reverse.
"""
