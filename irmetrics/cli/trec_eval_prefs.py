"""``irmetrics trec_eval -R prefs|qrels_prefs|qrels_jg``: trec_eval's preference and judgment-group
evaluations, their lines as trec_eval prints them.

The judgments are read by :func:`irmetrics.read_trec_prefs` or :func:`irmetrics.read_trec_qrels_jg` and
the values computed by :mod:`irmetrics.api.preferences`; what is trec_eval's command line is done here:
which measures a format allows (trec_eval computes a measure only from the judgments it reads, and stops
otherwise), the run cut to ``-M`` documents (for preferences in their own order, ties by document id
ascending), the queries missing from the run (an error, or with ``-c`` the stand-in document), ``num_q``
and ``runid``.  ``-l`` and ``-J`` are parameters of the judgment-group measures; the preference measures
read neither, as in trec_eval.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..algebra.measure import Measure
from ..api.preferences import Judgments, judgment_group_values, preference_values
from ..data.prefs import Preferences
from ..data.run import Run
from ..data.trec.prefs import read_trec_prefs, read_trec_qrels_jg
from ..dialects.trec_eval import TrecName
from ..errors import MeasureError
from ..measures import NumQ
from .trec_layout import Column, sequential_summary

#: The judgments each -R format gives the measures (the ``judgments`` of trec_eval's measure table).
READS = {'qrels': 'qrels', 'prefs': 'prefs', 'qrels_prefs': 'prefs', 'qrels_jg': 'qrels_jg'}


class PrintedLine(Protocol):
    """A line of the output (the command's ``Line``): its printed name, table entry and measure."""

    @property
    def name(self) -> str: ...

    @property
    def entry(self) -> TrecName: ...

    @property
    def measure(self) -> Measure | None: ...


def judgments_of(lines: Sequence[PrintedLine], rel_format: str) -> None:
    """Refuse a line whose measure reads other judgments than ``-R rel_format`` gives, as trec_eval
    stops on it ("Can't calculate measure")."""
    for ln in lines:
        wanted = ln.entry.judgments
        if wanted not in ('any', READS[rel_format]):
            given = {'qrels': '-R qrels (the default)', 'prefs': '-R prefs or -R qrels_prefs',
                     'qrels_jg': '-R qrels_jg'}[wanted]
            raise MeasureError(f'trec_eval measure {ln.entry.trec!r} is computed from {given}, not from '
                               f'-R {rel_format}: trec_eval stops there too ("Can\'t calculate measure")')


def read_judgments(path: str, rel_format: str) -> Judgments:
    """The judgments of ``-R rel_format`` (prefs, qrels_prefs or qrels_jg)."""
    return read_trec_qrels_jg(path) if rel_format == 'qrels_jg' else read_trec_prefs(path, format=rel_format)


def evaluate_judgments(lines: Sequence[PrintedLine], judgments: Judgments, run: Run, tag: str, depth: int | None,
                       stand_in: str | None) -> tuple[list[str], list[Column]]:
    """The queries (the judgments', byte-wise) and one column per line, for ``run`` (its tag ``tag``) cut at
    ``depth``; ``stand_in``: the document ranked for a query missing from the run (-c), or None."""
    qids = list(judgments.query_ids)
    measures = [ln.measure for ln in lines if ln.measure is not None and ln.measure != NumQ]
    if isinstance(judgments, Preferences):
        values = preference_values(measures, judgments, run, depth, stand_in)
    else:
        values = judgment_group_values(measures, judgments, run if depth is None else run.top(depth))
    columns = []
    for ln in lines:
        if ln.measure is None:                                  # runid
            columns.append(Column(ln.name, None, tag))
            continue
        per_query = np.ones(len(qids)) if ln.measure == NumQ else values[:, measures.index(ln.measure)]
        how = ln.measure.aggregation
        columns.append(Column(ln.name, None if ln.entry.lines == 'summary' else per_query,
                              sequential_summary(how, per_query), integer=how == 'sum'))
    return qids, columns
