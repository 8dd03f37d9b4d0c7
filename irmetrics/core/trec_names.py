"""trec_eval's measure names, translated both ways by one table.

``parse_trec_measure('P_5,10')`` gives ``[P@5, P@10]``; ``to_trec_name(AP@10)``
gives ``('map_cut', 10)``.  trec_eval's relevance level (``-l``), judged-only
flag (``-J``) and gains are settings of a whole invocation, not part of a
name: they correspond to the ``rel``, ``judged_only`` and ``gains`` parameters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import MeasureError
from .measure import REGISTRY, Measure
from .params import NOT_PROVIDED, integer_literal

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = tuple(i / 10 for i in range(11))
#: Parameters that are trec_eval invocation settings; in a preset only their presence counts.
INVOCATION_PARAMS = ('rel', 'judged_only', 'gains')


@dataclass(frozen=True)
class TrecName:
    """A trec_eval measure: base name, irmetrics measure, the parameter its list sets, defaults."""

    trec: str
    measure: str
    param: str | None = None
    defaults: tuple[Any, ...] = ()
    preset: dict[str, Any] = field(default_factory=dict)


TREC_NAMES = (
    TrecName('num_q', 'NumQ'),
    TrecName('num_ret', 'NumRet'),
    TrecName('num_rel', 'NumRel'),
    TrecName('num_rel_ret', 'NumRet', preset={'rel': 1}),
    TrecName('map', 'AP'),
    TrecName('map_cut', 'AP', 'cutoff', _CUTOFFS),
    TrecName('Rprec', 'Rprec'),
    TrecName('bpref', 'Bpref'),
    TrecName('recip_rank', 'RR'),
    TrecName('iprec_at_recall', 'IPrec', 'recall', _RECALL_LEVELS),
    TrecName('P', 'P', 'cutoff', _CUTOFFS),
    TrecName('recall', 'R', 'cutoff', _CUTOFFS),
    TrecName('infAP', 'infAP'),
    TrecName('ndcg', 'nDCG'),
    TrecName('ndcg_cut', 'nDCG', 'cutoff', _CUTOFFS),
    TrecName('success', 'Success', 'cutoff', (1, 5, 10)),
    TrecName('set_P', 'SetP'),
    TrecName('set_relative_P', 'SetP', preset={'relative': True}),
    TrecName('set_recall', 'SetR'),
    TrecName('set_map', 'SetAP'),
    TrecName('set_F', 'SetF', 'beta', (1.0,)),
)
_BY_TREC = {t.trec: t for t in TREC_NAMES}

#: trec_eval's measure sets, as far as irmetrics has the measures (runid, gm_map, utility, ... are not measures here).
NICKNAMES = {
    'official': ('num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'bpref', 'recip_rank',
                 'iprec_at_recall', 'P'),
    'set': ('num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'set_P', 'set_recall', 'set_relative_P', 'set_map',
            'set_F'),
    'all_trec': tuple(t.trec for t in TREC_NAMES),
}


def _split(text: str) -> tuple[TrecName, str | None]:
    """The longest base name that ``text`` starts with, and its parameter list (or None)."""
    for base in sorted(_BY_TREC, key=len, reverse=True):
        if text == base:
            return _BY_TREC[base], None
        if text.startswith(base) and text[len(base):len(base) + 1] in ('_', '.'):
            return _BY_TREC[base], text[len(base) + 1:]
    import difflib
    close = difflib.get_close_matches(text, list(_BY_TREC) + list(NICKNAMES), n=3, cutoff=0.5)
    hint = f'; did you mean {", ".join(close)}?' if close else ''
    raise MeasureError(f'unknown trec_eval measure {text!r}{hint}')


def _param_values(entry: TrecName, text: str) -> list[Any]:
    values = []
    for item in text.split(','):
        item = item.strip()
        if not re.fullmatch(r'(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?', item):
            raise MeasureError(f'invalid parameter {item!r} in trec_eval measure {entry.trec!r}')
        # a cutoff such as 5.5 stays a float, so that validation refuses it with a MeasureError
        values.append(integer_literal(item) if entry.param == 'cutoff' and item.isdigit() else float(item))
    return values


def parse_trec_measure(text: str) -> list[Measure]:
    """Measures for a trec_eval measure name: ``map``, ``P_5,10``, ``P.5,10``, ``ndcg_cut_10``, ``official``."""
    text = text.strip()
    if text in NICKNAMES:
        out: list[Measure] = []
        for name in NICKNAMES[text]:
            out += [m for m in parse_trec_measure(name) if m not in out]
        return out
    entry, params = _split(text)
    if params is not None and entry.param is None:
        raise MeasureError(f'trec_eval measure {entry.trec!r} takes no parameters')
    bare = REGISTRY.lookup(entry.measure)(**entry.preset)
    if entry.param is None:
        return [bare]
    values = _param_values(entry, params) if params else list(entry.defaults)
    return [bare(**{entry.param: v}) for v in values]


def to_trec_name(measure: Measure) -> tuple[str, Any] | None:
    """(trec_eval base name, parameter value or None) computing ``measure`` up to invocation settings."""
    best, best_score = None, -1
    for entry in TREC_NAMES:
        if entry.measure != measure.name:
            continue
        value = measure[entry.param] if entry.param else None
        if entry.param is not None and value is NOT_PROVIDED:
            continue
        named = {entry.param, *entry.preset, *INVOCATION_PARAMS}
        if any(k not in named for k in measure.params):
            continue                          # AP@10 is map_cut, not map; nDCG(dcg='exp-log2') is no ndcg
        if not all((k in measure.params) if k in INVOCATION_PARAMS else measure[k] == v
                   for k, v in entry.preset.items()):
            continue
        if len(entry.preset) > best_score:
            best, best_score = (entry.trec, value), len(entry.preset)
    return best


def trec_output_name(measure: Measure) -> str | None:
    """The name trec_eval prints for ``measure`` (``P_5``, ``map``, ``iprec_at_recall_0.10``), or None.

    Invocation settings (``rel``, ``judged_only``, ``gains``) do not appear in
    trec_eval's names, so ``P(rel=2)@5`` prints as ``P_5``, as under ``trec_eval -l2``.
    """
    found = to_trec_name(measure)
    if found is None:
        return None
    base, value = found
    if value is None:
        return base
    if base == 'iprec_at_recall':
        return f'{base}_{value:.2f}'          # trec_eval's "%s_%3.2f"
    if base == 'set_F':
        short = f'{value:g}'
        return base if value == 1.0 else f'{base}_{short if float(short) == value else repr(value)}'
    return f'{base}_{value}'
