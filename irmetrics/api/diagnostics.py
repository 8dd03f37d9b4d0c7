"""Warnings about input that evaluates but is probably not what the user meant.

The mistakes users make most ("why is everything 0?"): run query ids that match no qrels query
(``001`` against ``1``, other case, stray white space, qrels and run swapped), qrels queries the run
does not answer, an empty run, and a relevance level no judgment reaches.  Each is an
:class:`~irmetrics.errors.IrmetricsWarning` (an error under ``strict=True``); docs/conventions.md
lists them and how to silence them.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..algebra.measure import Measure
from ..data.ids import Ids
from ..data.qrels import Qrels
from ..data.run import Run
from ..errors import warn

_SHOWN = 5


def check_levels(qrels: Qrels, measures: Sequence[Measure]) -> None:
    """Warn when measures' relevance level ``rel`` is above every grade of the qrels (one warning per level)."""
    top = qrels.relevance.max().item() if len(qrels) else 0           # an int, or a real-valued grade
    above: dict[int, list[Measure]] = {}
    for m in measures:
        level = m['rel'] if m.definition.has_param('rel') else None
        if isinstance(level, int) and level > top:
            above.setdefault(level, []).append(m)
    for level, ms in sorted(above.items()):
        named = ', '.join(map(repr, ms[:_SHOWN])) + (', ...' if len(ms) > _SHOWN else '')
        warn(f'no judgment has grade >= {level} (the highest is {top}), so {named} count'
             f'{"s" if len(ms) == 1 else ""} no document as relevant', qrels.source)


def check_raw_gains(qrels: Qrels, measures: Sequence[Measure]) -> None:
    """Warn when RBP reads grades above 1 as its gains (neither ``rel`` nor ``max_rel`` nor ``gains`` given): its
    values may then exceed 1, which reads as a bug though it is the convention of ranx and trectools."""
    top = qrels.relevance.max().item() if len(qrels) else 0           # an int, or a real-valued grade
    raw = [m for m in measures if m.definition.name == 'RBP'
           and not any(name in m.params for name in ('rel', 'max_rel', 'gains'))]
    if raw and top > 1:
        warn(f'{raw[0]!r} reads the grades as its gains (the highest is {top}), so its values may exceed 1: '
             f'{raw[0].name}(rel=1) counts grades >= 1 as relevant, {raw[0].name}(max_rel={math.ceil(top)}) scales '
             f'the gains to [0, 1], {raw[0].name}(max_rel=\'query\') is trec_eval\'s rbp', qrels.source)


def check_queries(qrels: Qrels, run: Run, present: np.ndarray) -> None:
    """Warn about an empty run, a run whose queries are none of the qrels', and missing queries."""
    if len(run) == 0:
        warn('the run retrieves no document: every query scores 0', run.source)
    elif not present.any():
        warn(f'none of the run\'s {run.num_queries} query ids is a query of the qrels ({_examples(run.query_ids)} '
             f'against {_examples(qrels.query_ids)}): every query scores 0{_likely_cause(qrels, run)}',
             run.source)
    else:
        _check_missing(qrels, present, run.source)


def check_present(qrels: Qrels, present: np.ndarray, source: str) -> None:
    """The warnings of :func:`check_queries` for a run evaluated in parts (never whole in memory):
    ``present`` says which qrels queries some part holds."""
    if not present.any():
        warn(f'no query of the qrels ({_examples(qrels.query_ids)}) is in the run: every query scores 0', source)
    else:
        _check_missing(qrels, present, source)


def _check_missing(qrels: Qrels, present: np.ndarray, source: str) -> None:
    if not present.all():
        missing = qrels.query_ids.take(np.flatnonzero(~present))
        warn(f'{len(missing)} of the {qrels.num_queries} qrels queries are not in the run ({_examples(missing)}); '
             f'they score 0 (trec_eval -c)', source)


def _examples(values: Ids) -> str:
    shown = values.take(np.arange(min(len(values), _SHOWN))).to_list()
    return ', '.join(map(repr, shown)) + (', ...' if len(values) > _SHOWN else '')


_NORMALISERS: list[tuple[str, Callable[[str], str]]] = [
    ('leading zeros', lambda q: q.lstrip('0') or '0'),
    ('upper and lower case', str.lower),
    ('white space around them', str.strip),
]


def _likely_cause(qrels: Qrels, run: Run) -> str:
    """Why the ids may differ, when a normalisation makes them meet."""
    ours, theirs = qrels.query_ids.to_list(), run.query_ids.to_list()
    for what, normal in _NORMALISERS:
        if set(map(normal, ours)) & set(map(normal, theirs)):
            return f'; the ids differ only by {what}'
    if set(theirs) & set(qrels.doc_ids.to_list()):
        return '; the run\'s query ids are document ids of the qrels: were qrels and run swapped?'
    return ''
