"""The preference measures (:mod:`irmetrics.measures.prefs`) of one query, from its judgment groups and
its ranking: trec_eval's form_prefs_counts.c and m_prefs_*.c, in numpy.

trec_eval numbers a query's judged documents by *docid rank*: the retrieved ones 0..NJR-1 in ranking
order, then the others in byte-wise order of their ids.  Each judgment group's preferences become a
matrix ``W`` over that numbering (``W[i, j]``: how many times the group prefers i to j), and the counts
every measure reads are sums over five areas of it: fulfilled among the retrieved (i < j < NJR), not
fulfilled among them (j < i < NJR), implied fulfilled (i < NJR <= j), implied not fulfilled (j < NJR <= i)
and neither retrieved.  The sum of the groups' matrices gives the pairs of ``PrefsPair``.  Sums of
fractions are taken in trec_eval's order (one after another), so that the values agree to the bit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...algebra.measure import Measure
from ...data.prefs import JudgmentGroup, Preferences, preferred


@dataclass
class QueryCounts:
    """A query's counts: one entry per judgment group for the five areas, the Rnonrel ratios' terms (all
    and retrieved) and the pairs' fraction sums and counts."""

    ful_ret: np.ndarray
    poss_ret: np.ndarray          # fulfilled or not, both retrieved
    ful_imp: np.ndarray
    poss_imp: np.ndarray          # fulfilled or not, exactly one retrieved
    notoccur: np.ndarray
    rnonrel: np.ndarray           # per group: fulfilled / possible as Rnonrel counts them (NaN for 0 / 0)
    rnonrel_ret: np.ndarray
    pair_sums: dict[str, float]
    pair_counts: dict[str, int]


def _areas(w: np.ndarray, njr: int) -> tuple[float, float, float, float, float]:
    """(fulfilled, not fulfilled among the retrieved, implied fulfilled, implied not, neither retrieved)."""
    top = w[:njr, :njr]
    fulfilled = float(np.triu(top, 1).sum())
    return (fulfilled, float(top.sum()) - fulfilled, float(w[:njr, njr:].sum()),     # the diagonal is 0
            float(w[njr:, :njr].sum()), float(w[njr:, njr:].sum()))


def _ratio(ful: float, poss: float) -> float:
    with np.errstate(invalid='ignore', divide='ignore'):
        return float(np.float64(ful) / np.float64(poss))


def _count_above(a: np.ndarray, b: np.ndarray) -> int:
    """The pairs (x of ``a``, y of ``b``) with x > y."""
    return int(np.searchsorted(np.sort(b), a, side='left').sum())


def _higher_ahead(values: np.ndarray) -> int:
    """The pairs i < j with ``values[i] > values[j]``, counted while sorted blocks of doubling width are
    merged: each value of a right-hand block counts the greater values of its left-hand neighbour
    (O(n log^2 n), no n x n)."""
    n = len(values)
    codes = np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)
    span = int(codes.max(initial=0)) + 1
    position = np.arange(n)
    total, width = 0, 1
    while width < n:
        block = position // (2 * width)
        keyed = block * span + codes                    # each block's codes sorted, the blocks in order
        right = (position // width) % 2 == 1
        left = keyed[~right]
        ends = np.searchsorted(left, (block[right] + 1) * span)
        total += int((ends - np.searchsorted(left, keyed[right], side='right')).sum())
        codes = np.sort(keyed) - block * span
        width *= 2
    return total


def _class_areas(rank: np.ndarray, level: np.ndarray, njr: int) -> tuple[int, int, int, int, int]:
    """:func:`_areas` of a group of one sub-group from its rows' docid ranks and levels, counted from the
    sorted levels (every pair of rows of different levels one preference, the higher level preferred)."""
    ret = rank < njr
    lr, ln = level[ret], level[~ret]
    ful_ret = _higher_ahead(lr[np.argsort(rank[ret], kind='stable')])
    return (ful_ret, _count_above(lr, lr) - ful_ret, _count_above(lr, ln), _count_above(ln, lr),
            _count_above(ln, ln))


def _class_pairs(rank: np.ndarray, level: np.ndarray, njr: int) -> tuple[dict[str, float], dict[str, int]]:
    """:func:`_pairs` of a query of one judgment group of one sub-group: each pair of documents is preferred
    one way only, so its fraction is 1 (the one ahead preferred) or 0 and the sums are counts."""
    docs, first = np.unique(rank, return_index=True)
    ful_ret, unful_ret, ful_imp, unful_imp, notoccur = _class_areas(docs, level[first], njr)
    both, one = ful_ret + unful_ret, ful_imp + unful_imp
    return ({'ret': float(ful_ret), 'imp': float(ful_ret + ful_imp), 'all': float(ful_ret + ful_imp)},
            {'ret': both, 'imp': both + one, 'all': both + one + notoccur})


def _class_recount(rank: np.ndarray, level: np.ndarray, keep: int, njr: int, retrieved_only: bool) -> float:
    """Rnonrel's recount of a group of one sub-group (rows' docid ranks and levels): the pairs of rows of
    two relevant levels, and every row with each of the first ``keep`` non-relevant rows in rank order,
    as m_prefs_avgjg_Rnonrel.c pairs them; fulfilled when the first is retrieved and ranked above."""
    if retrieved_only:
        at = rank < njr
        rank, level = rank[at], level[at]
    kept = np.sort(rank[level == 0])[:keep]
    relevant = level > 0
    ful_ret, unful_ret, ful_imp, unful_imp, notoccur = _class_areas(rank[relevant], level[relevant], njr)
    ahead = rank[rank < njr]
    ful = ful_ret + ful_imp + len(ahead) * len(kept) - int(np.searchsorted(kept, ahead, side='right').sum())
    total = ful_ret + unful_ret + ful_imp + unful_imp + notoccur + len(rank) * len(kept)
    return _ratio(ful, total)


def _order_recount(w: np.ndarray, relevance: np.ndarray, num_rel: int, njr: int, retrieved_only: bool) -> float:
    """Rnonrel's recount of a group of several sub-groups: the non-relevant documents after the
    (num_rel)-th in rank order (among the retrieved with ``retrieved_only``) left out of ``w``."""
    n = njr if retrieved_only else len(w)
    nonrel = relevance == 0
    seen = np.cumsum(nonrel[:n])
    past = np.flatnonzero(seen == num_rel + 1)
    first_out = int(past[0]) if len(past) else n
    keep = ~(nonrel & (np.arange(len(w)) >= first_out))
    kept = w * keep[:, None] * keep[None, :]
    if retrieved_only:
        kept = kept[:njr, :njr]
    ful = float(np.triu(kept, 1)[:njr].sum())
    return _ratio(ful, float(kept.sum()))


def _rnonrel(group: JudgmentGroup, w: np.ndarray | None, rank: np.ndarray, areas: tuple[float, ...], njr: int,
             retrieved_only: bool) -> float:
    """One group's term of PrefsAvgJGRnonrel (``retrieved_only``: of its _ret variant)."""
    ful_ret, unful_ret, ful_imp, unful_imp, notoccur = areas
    if group.classes:
        relevant, ret = group.row_levels > 0, rank[group.row_docs] < njr
    else:
        assert group.relevance is not None
        relevance = group.relevance[np.argsort(rank)]              # by docid rank
        relevant, ret = relevance[relevance >= 0] > 0, np.flatnonzero(relevance >= 0) < njr
    num_rel, num_nonrel = int(relevant.sum()), int((~relevant).sum())
    rel_ret, nonrel_ret = int((relevant & ret).sum()), int((~relevant & ret).sum())
    big_r, big_n = (rel_ret, nonrel_ret) if retrieved_only else (num_rel, num_nonrel)
    if big_r >= big_n:
        ful = ful_ret + (0.0 if retrieved_only else ful_imp) + rel_ret * (big_r - big_n)
        poss = ful_ret + unful_ret + (0.0 if retrieved_only else ful_imp + unful_imp + notoccur)
        return _ratio(ful, poss + num_rel * (big_r - big_n))
    if group.classes:
        return _class_recount(rank[group.row_docs], group.row_levels, big_r, njr, retrieved_only)
    assert w is not None
    return _order_recount(w, relevance, num_rel, njr, retrieved_only)


def _pairs(counts: np.ndarray, njr: int) -> tuple[dict[str, float], dict[str, int]]:
    """PrefsPair's sums and pair counts from the groups' summed matrix (rows and columns by docid rank):
    the pairs both retrieved, then one retrieved, each in row order, added one after another."""
    c = counts
    either = c + c.T                                # the preferences of a pair, both directions
    both = np.triu(either[:njr, :njr] > 0, 1)
    one = either[:njr, njr:] > 0
    neither = int(np.count_nonzero(either[njr:, njr:])) // 2      # the diagonal is 0
    f_both = c[:njr, :njr][both] / either[:njr, :njr][both]
    f_one = c[:njr, njr:][one] / either[:njr, njr:][one]
    ret = float(np.cumsum(f_both)[-1]) if len(f_both) else 0.0
    imp_terms = np.concatenate((f_both, f_one))
    imp = float(np.cumsum(imp_terms)[-1]) if len(imp_terms) else 0.0
    n_both, n_one = len(f_both), len(f_one)
    return ({'ret': ret, 'imp': imp, 'all': imp},
            {'ret': n_both, 'imp': n_both + n_one, 'all': n_both + n_one + neither})


def query_counts(prefs: Preferences, q: int, ranked: np.ndarray) -> QueryCounts:
    """The counts of query ``q`` for a ranking given as document codes of ``prefs`` (-1: a document no
    group judges), in ranking order."""
    judged = prefs.judged(q)
    n = len(judged)
    local = np.searchsorted(judged, ranked)
    hit = (local < n) & (judged[np.minimum(local, n - 1)] == ranked)
    retrieved = local[hit]
    njr = len(retrieved)
    rank = np.empty(n, dtype=np.int64)
    rest = np.setdiff1d(np.arange(n), retrieved)
    rank[retrieved] = np.arange(njr)
    rank[rest] = njr + np.arange(len(rest))
    order = np.argsort(rank)                        # the document at each docid rank
    total: np.ndarray | None = None
    groups = prefs.groups(q)
    areas, rnonrel, rnonrel_ret = [], [], []
    for group in groups:
        w: np.ndarray | None = None
        if group.classes:                           # counted from the levels; a matrix only for the pairs' sum
            found: tuple[float, ...] = _class_areas(rank[group.row_docs], group.row_levels, njr)
            if len(groups) > 1:
                w = preferred(rank[group.row_docs], group.row_levels, n)
        else:
            assert group.closure is not None
            w = group.closure[np.ix_(order, order)].astype(np.float64)
            found = _areas(w, njr)
        if w is not None:
            total = w if total is None else total + w
        areas.append(found)
        rnonrel.append(_rnonrel(group, w, rank, found, njr, False))
        rnonrel_ret.append(_rnonrel(group, w, rank, found, njr, True))
    if total is None:                               # one judgment group of one sub-group
        sums, counts = _class_pairs(rank[groups[0].row_docs], groups[0].row_levels, njr)
    else:
        sums, counts = _pairs(total, njr)
    a = np.array(areas, dtype=np.float64).reshape(-1, 5)
    return QueryCounts(a[:, 0], a[:, 0] + a[:, 1], a[:, 2], a[:, 2] + a[:, 3], a[:, 4],
                       np.array(rnonrel), np.array(rnonrel_ret), sums, counts)


def _sequential(values: np.ndarray) -> float:
    """The sum of ``values`` added one after another, as trec_eval's loops add them."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def _fulfilled_possible(c: QueryCounts, pairs: str) -> tuple[np.ndarray, np.ndarray]:
    """Per group: (fulfilled, possible) of the preferences ``pairs`` counts."""
    if pairs == 'ret':
        return c.ful_ret, c.poss_ret
    if pairs == 'imp':
        return c.ful_ret + c.ful_imp, c.poss_ret + c.poss_imp
    return c.ful_ret + c.ful_imp, c.poss_ret + c.poss_imp + c.notoccur


def _average_over_groups(terms: np.ndarray) -> float:
    """trec_eval's mean over judgment groups: the terms added in order, 0 unless the sum is positive."""
    total = _sequential(terms)
    return total / len(terms) if total > 0.0 else 0.0


def value(measure: Measure, c: QueryCounts) -> float:
    """One preference measure's value from a query's counts."""
    name = measure.name
    if name == 'NumPrefs':
        what = measure['what']
        ful, poss = _fulfilled_possible(c, 'ret' if what == 'fulfilled_ret' else 'all')
        return float((poss if what == 'possible' else ful).sum())
    if name == 'PrefsPair':
        pairs = measure['pairs']
        return c.pair_sums[pairs] / c.pair_counts[pairs] if c.pair_counts[pairs] else 0.0
    if name == 'PrefsAvgJGRnonrel':
        return _average_over_groups(c.rnonrel_ret if measure['pairs'] == 'ret' else c.rnonrel)
    ful, poss = _fulfilled_possible(c, measure['pairs'])
    if name == 'PrefsSimp':
        return float(ful.sum()) / float(poss.sum()) if poss.sum() else 0.0
    with np.errstate(invalid='ignore', divide='ignore'):
        terms = np.where(poss > 0, ful / poss, 0.0)
    return _average_over_groups(terms)
