"""Rendering: results become text for people and for programs, in one room used by the command line
and by Python alike.

* :mod:`.values`: how a value prints (counts as integers, others with a number of decimals);
* :mod:`.text`, :mod:`.markup` (Markdown, LaTeX, HTML) and :mod:`.figures` (matplotlib figures as
  inline SVG): the blocks every report is made of;
* :mod:`.evaluation`: the results of one or several runs (:class:`~irmetrics.CalcResults`) as an
  aligned table, TSV, CSV, JSON, JSON lines, Markdown, LaTeX and HTML.

It imports nothing of irmetrics: results are read through the small protocols of :mod:`.views`, so
the result types (:mod:`irmetrics.api.results`, :mod:`irmetrics.comparing`) render through this
room without an import running back to them.
"""
