"""ranx's metric names (``ndcg@10``, ``map``, ``rbp.95``, ``precision@5-l2``), translated by one table.

ranx writes a metric as ``name[@k][-lN]``: ``k`` a rank cutoff (0 or absent: the whole ranking) and
``N`` the minimum relevant grade; for ``rbp`` the number after ``.`` or ``@`` is the persistence
(``rbp.95`` is p = 0.95).  :func:`parse_ranx_measure` gives the irmetrics measure computing the same
values (on rankings without score ties: ranx orders tied documents its own way, irmetrics by docno
descending).  The names are lower case, so they never collide with irmetrics' own (``P``, ``nDCG``,
``RBP@95`` is a cutoff of 95, ``rbp@95`` ranx's p = 0.95).  Some are trec_eval names too, with the
same meaning (``map``, ``ndcg``, ``bpref``) except bare ``recall``: R at trec_eval's default cutoffs
for trec_eval (the CLI reads trec_eval names first), the recall of the whole ranking (SetR) for ranx
and :func:`~irmetrics.parse_measure`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ..algebra.measure import Measure
from ..algebra.params import integer_literal
from ..errors import MeasureError
from ..measures import AP, DCG, F1, RBP, RR, Bpref, Hits, P, R, Rprec, SetP, SetR, Success, nDCG


class RanxName(NamedTuple):
    """A ranx metric: the irmetrics measure (and preset) it is with @k, and without.

    ``whole`` is the measure of the whole ranking (no @k) when it is another family (``precision``:
    SetP); None when it is the same family, or when ranx's whole-ranking form has no irmetrics
    equivalent (``has_whole=False``).
    """

    measure: Measure
    preset: Mapping[str, Any] = MappingProxyType({})
    whole: Measure | None = None
    has_whole: bool = True
    takes_k: bool = True            # False: ranx ignores @k, irmetrics refuses it
    rel_as_gains: bool = False      # -lN zeroes the gains of grades below N (DCG family)


_EXP = {'dcg': 'exp-log2'}
RANX_NAMES = {
    'hits': RanxName(Hits),
    'hit_rate': RanxName(Success, has_whole=False),
    'precision': RanxName(P, whole=SetP),
    'recall': RanxName(R, whole=SetR),
    'f1': RanxName(F1),
    'r_precision': RanxName(Rprec, takes_k=False),
    'r-precision': RanxName(Rprec, takes_k=False),
    'bpref': RanxName(Bpref, takes_k=False),
    'rbp': RanxName(RBP, takes_k=False),
    'mrr': RanxName(RR),
    'map': RanxName(AP),
    'dcg': RanxName(DCG, rel_as_gains=True),
    'dcg_burges': RanxName(DCG, _EXP, rel_as_gains=True),
    'ndcg': RanxName(nDCG, rel_as_gains=True),
    'ndcg_burges': RanxName(nDCG, _EXP, rel_as_gains=True),
}
for _entry in RANX_NAMES.values():          # a misspelt preset fails at import, not when a user asks
    _entry.measure(**_entry.preset)

_SYNTAX = re.compile(r'(?P<name>[a-z][a-z0-9_\-]*?)(?:(?P<sep>[@.])(?P<k>\d+))?(?:-l(?P<rel>\d+))?')


def is_ranx_name(text: str) -> bool:
    m = _SYNTAX.fullmatch(text.strip())
    return m is not None and m['name'] in RANX_NAMES


def parse_ranx_measure(text: str) -> Measure:
    """The irmetrics measure of a ranx metric name (``ndcg@10``, ``precision@5-l2``, ``rbp.95``)."""
    m = _SYNTAX.fullmatch(text.strip())
    if not m or m['name'] not in RANX_NAMES:
        raise MeasureError(f'{text!r} is not a ranx metric name (known: {", ".join(RANX_NAMES)})')
    entry = RANX_NAMES[m['name']]
    measure = _rbp(entry, m['k']) if m['name'] == 'rbp' else _cut(entry, m, text)
    if m['rel'] is not None:
        measure = _with_rel(measure, entry, integer_literal(m['rel']), text)
    return measure.check_complete()


def _rbp(entry: RanxName, k: str | None) -> Measure:
    """ranx's RBP: ``rbp.95`` and ``rbp@95`` are p = 0.95."""
    return entry.measure if k is None else entry.measure(p=float(f'0.{k}'))


def _cut(entry: RanxName, m: re.Match[str], text: str) -> Measure:
    """A ranx metric with an optional cutoff ``@k`` (``m``: the name's parts)."""
    k = m['k']
    if m['sep'] == '.':
        raise MeasureError(f'ranx metric {text!r}: write the cutoff as @k ({m["name"]}@{k})')
    if k is not None and not entry.takes_k:
        raise MeasureError(f'ranx ignores @k for {m["name"]}; irmetrics\' {entry.measure.name} takes no cutoff '
                           f'(write {m["name"]})')
    cutoff = integer_literal(k) if k is not None and integer_literal(k) > 0 else None
    if cutoff is None and not entry.has_whole:
        raise MeasureError(f'ranx metric {text!r} (the whole ranking) has no irmetrics equivalent: give a '
                           f'cutoff, e.g. {m["name"]}@10')
    if cutoff is None and entry.whole is not None:
        return entry.whole
    measure = entry.measure(**entry.preset)
    return measure if cutoff is None else measure(cutoff=cutoff)


#: the highest -lN of the DCG family: its gain map lists every grade below N
LARGEST_GAIN_LEVEL = 100


def _with_rel(measure: Measure, entry: RanxName, rel: int, text: str) -> Measure:
    if entry.rel_as_gains:
        if rel > LARGEST_GAIN_LEVEL:
            raise MeasureError(f'ranx metric {text!r}: irmetrics writes -lN as a gain of 0 for each grade below N, '
                               f'for N up to {LARGEST_GAIN_LEVEL}')
        return measure(gains={g: 0 for g in range(1, rel)}) if rel > 1 else measure
    if measure.definition is RBP.definition or not any(p.name == 'rel' for p in measure.definition.params):
        if rel == 1:
            return measure
        raise MeasureError(f'ranx metric {text!r}: irmetrics has no {measure.name} with graded gains above '
                           f'a minimum grade')
    return measure(rel=rel)
