"""Evaluating a run against preference judgments or judgment groups of qrels.

:func:`irmetrics.calc` comes here when its judgments are :class:`~irmetrics.data.prefs.Preferences`
(read by :func:`irmetrics.read_trec_prefs`) or :class:`~irmetrics.data.prefs.JudgmentGroups`
(:func:`irmetrics.read_trec_qrels_jg`): the type of the judgments says how they are read, as trec_eval's
``-R`` does.  The measures are those of :mod:`irmetrics.measures.prefs`, given as measures or by name as
:func:`irmetrics.parse_measures` reads names (trec_eval's too: ``'prefs_simp'``, ``'prefs_pair_ret'``,
``'P_avgjg.5,10'``, ``'all_prefs'``, ``'qrels_jg'``).  As in trec_eval, the queries are the judgments' (in
byte-wise order of their ids); one missing from the run is evaluated on an empty ranking (trec_eval ``-c``)
and a run-only query is ignored.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..algebra.measure import Measure, MeasureDef
from ..data import ids
from ..data.inputs import to_run
from ..data.prefs import JudgmentGroups, Preferences, sorted_codes
from ..data.run import Run
from ..data.segments import offsets_of, ranges
from ..dialects import parse_measures
from ..errors import MeasureError, OptionError
from ..measures import AP, NumQ, P, Rprec
from ..measures.prefs import JUDGMENT_GROUP_MEASURES, PREFERENCE_MEASURES
from ..providers.native.preferences import query_counts, value
from .results import CalcResults

Judgments = Preferences | JudgmentGroups


def is_judgments(obj: Any) -> bool:
    """Whether ``obj`` is preference judgments or judgment groups (not qrels)."""
    return isinstance(obj, (Preferences, JudgmentGroups))


def measures_for(measures: Any, judgments: Judgments) -> list[Measure]:
    """The measures, each checked to be one these judgments give (names read as trec_eval's)."""
    out = list(dict.fromkeys(parse_measures(measures)))
    family: tuple[MeasureDef, ...] = PREFERENCE_MEASURES if isinstance(judgments, Preferences) \
        else JUDGMENT_GROUP_MEASURES
    for m in out:
        if m['ties'] != 'trec_eval':
            raise MeasureError(f"{m!r}: ties='expected' has no closed form for this measure")
        if m.definition not in family and m != NumQ:
            kind = 'preference judgments' if isinstance(judgments, Preferences) else 'judgment groups of qrels'
            hint = ('; the qrels measures (Compat among them) take the ideal ordering of preferences of one '
                    'judgment group of one sub-group: irmetrics.calc(measures, prefs.ideal_qrels(), run)'
                    if isinstance(judgments, Preferences) else '')
            raise MeasureError(f'{m!r} is not computed from {kind}; they give '
                               f'{", ".join(d.name for d in family)}{hint}')
    return out


def calc_judgments(measures: Any, judgments: Judgments, run: Any, **options: Any) -> CalcResults:
    """:func:`irmetrics.calc` for preference judgments or judgment groups (see the module docstring); of the
    shared options only ``duplicates`` (of the run) applies."""
    other = sorted(set(options) - {'duplicates'})
    if other:
        raise OptionError(f'{other[0]}: not an option of an evaluation against {type(judgments).__name__} '
                          f'(only duplicates is)')
    chosen = measures_for(measures, judgments)
    run = to_run(run, duplicates=options.get('duplicates', 'error'))
    computed = [m for m in chosen if m != NumQ]
    if isinstance(judgments, Preferences):
        values = preference_values(computed, judgments, run)
    else:
        values = judgment_group_values(computed, judgments, run)
    columns = [np.ones(len(values)) if m == NumQ else values[:, computed.index(m)] for m in chosen]
    return CalcResults(list(judgments.query_ids), chosen, np.column_stack(columns) if columns else values)


def preference_rankings(prefs: Preferences, run: Run, depth: int | None = None,
                        stand_in: str | None = None) -> list[np.ndarray]:
    """Each query's ranking as document codes of ``prefs`` (-1: not judged), in trec_eval's order for
    preferences (score descending, ties by document id ascending: form_prefs_counts.c) and cut at
    ``depth``; a query missing from the run gets ``stand_in`` alone (trec_eval -c), or nothing."""
    doc_codes = run.doc_ids.lookup(ids.column(prefs.doc_ids))
    _, byte_order = sorted_codes(run.doc_ids)
    rows = np.lexsort((byte_order, -run.scores, run.qidx))
    offsets = offsets_of(run.qidx[rows], run.num_queries)
    if depth is not None:
        rows = rows[ranges(np.diff(offsets)) < depth]
        offsets = offsets_of(run.qidx[rows], run.num_queries)
    in_run = ids.column(prefs.query_ids).lookup(run.query_ids)
    missing = np.array([] if stand_in is None else [prefs.doc_ids.index(stand_in)] if stand_in in prefs.doc_ids
                       else [-1], dtype=np.int64)
    return [doc_codes[rows[offsets[r]:offsets[r + 1]]] if r >= 0 else missing for r in in_run.tolist()]


def preference_values(measures: Sequence[Measure], prefs: Preferences, run: Run, depth: int | None = None,
                      stand_in: str | None = None) -> np.ndarray:
    """The (query x measure) values of preference measures, queries in ``prefs``' order."""
    rankings = preference_rankings(prefs, run, depth, stand_in)
    out = np.zeros((prefs.num_queries, len(measures)))
    for q, ranked in enumerate(rankings):
        counts = query_counts(prefs, q, ranked)
        out[q] = [value(m, counts) for m in measures]
    return out


def _per_group(measure: Measure) -> Measure:
    """The qrels measure a judgment-group measure averages over the groups."""
    shared = {k: measure[k] for k in ('rel', 'judged_only') if k in measure.params}
    if measure.name == 'P_avgjg':
        return P(cutoff=measure['cutoff'], **shared)
    if measure.name == 'AP_avgjg':
        return AP(**shared)
    return Rprec(mult=measure['mult'], **shared)


def judgment_group_values(measures: Sequence[Measure], groups: JudgmentGroups, run: Run) -> np.ndarray:
    """The (query x measure) values of judgment-group measures: each group's value added in the groups'
    order, divided by the query's number of groups (m_*_avgjg.c); a query missing from the run scores 0."""
    from .evaluator import Evaluator
    per_group = [_per_group(m) for m in measures]
    sums = np.zeros((len(groups.query_ids), len(measures)))
    everyone = ids.column(groups.query_ids)
    for qrels in groups.groups:
        found = Evaluator(per_group, qrels).engines.query_values(run)
        at = qrels.query_ids.take(found.codes).lookup(everyone)
        sums[at] += found.values
    several = groups.counts > 1
    sums[several] /= groups.counts[several][:, None]
    return sums
