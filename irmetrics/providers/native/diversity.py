"""Diversity measures as ndeval computes them, over (ranked row, relevant subtopic) pairs.

The qrels side (:class:`SubtopicJudgments`, memoised per qrels and ``rel``) lists
the subtopics each judged document is relevant to and builds ndeval's greedy ideal
rankings.  The run side expands each ranked row into one pair per relevant
subtopic; a pair's novelty discount (1 - alpha)^c needs only c, the pair's
position among the pairs of its subtopic in rank order, and every measure is then a
weighted sum of pairs per query.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import ranges
from ...errors import MeasureError
from ...measures import AP_IA, ERR_IA, NRBP, P_IA, StRecall, alpha_DCG, alpha_nDCG, nERR_IA, nNRBP
from .kernels import kernel, safe_divide
from .table import QrelsIndex, RankedTable


def novelty_gains(alpha: float, n: int) -> np.ndarray:
    """(1 - alpha)^c for c = 0..n-1, by repeated multiplication as ndeval updates its subtopic gains."""
    return np.cumprod(np.concatenate(([1.0], np.full(max(n - 1, 0), 1.0 - alpha))))[:max(n, 1)]


def discount(rank: np.ndarray) -> np.ndarray:
    """ndeval's DCG discount of a 0-based rank: log(2) / log(rank + 2)."""
    return cast(np.ndarray, np.log(2.0) / np.log(np.asarray(rank, dtype=np.float64) + 2.0))


def occurrences(groups: np.ndarray) -> np.ndarray:
    """For each item, how many earlier items (in array order) share its group."""
    order = np.argsort(groups, kind='stable')
    sizes = np.bincount(groups, minlength=int(groups.max()) + 1 if len(groups) else 0)
    out = np.empty(len(groups), dtype=np.int64)
    out[order] = ranges(sizes)
    return out


class SubtopicJudgments:
    """Per judged (query, document), the subtopics it is relevant to (grade >= rel), and the ideal rankings.

    Subtopics get global ids ``0 .. n_subtopics-1`` ordered by query, then by
    first appearance in the query's judgments (never by the other queries': a query's
    values must not depend on them, so that a run evaluated in parts gives them exactly).
    ``start``/``count`` index, per judgment (row of ``index.keys``), its relevant
    subtopics in ``subtopic``; ``relevant_docs`` counts the relevant documents of each
    subtopic, ``S`` the subtopics of each query that have one.
    """

    def __init__(self, index: QrelsIndex, rel: float):
        qrels = index.qrels
        self.index, self.nq = index, index.nq
        relevant = np.flatnonzero(qrels.relevance >= rel)
        _, iteration = qrels.iteration.take(relevant).encode()
        width = int(iteration.max()) + 1 if len(iteration) else 1
        keys, first, subtopic = np.unique(qrels.qidx[relevant].astype(np.int64) * width + iteration,
                                          return_index=True, return_inverse=True)
        # number a query's subtopics by their first judgment in the query's rows, so that sums over
        # subtopics run in an order that depends on the query alone (not on the other queries)
        by_first = np.argsort(first)
        number = np.empty(len(keys), dtype=np.int64)
        number[by_first] = np.arange(len(keys))
        subtopic = number[subtopic.reshape(-1)]
        self.subtopic_query = keys[by_first] // width
        self.n_subtopics = len(keys)
        judgment = index.row_judgment()[relevant]
        order = np.lexsort((subtopic, judgment))
        self.subtopic = subtopic[order]
        self.count = np.bincount(judgment, minlength=len(index.keys)).astype(np.int64)
        self.start = np.cumsum(self.count) - self.count
        self.relevant_docs = np.bincount(subtopic, minlength=self.n_subtopics).astype(np.float64)
        self.S = np.bincount(self.subtopic_query, minlength=self.nq).astype(np.float64)
        self._ideal: dict[float, GreedyIdeal] = {}

    def expand(self, judgment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(item, subtopic) pairs: for each judgment ``judgment[item]``, one pair per relevant subtopic."""
        count = self.count[judgment]
        item = np.repeat(np.arange(len(judgment)), count)
        return item, self.subtopic[np.repeat(self.start[judgment], count) + ranges(count)]

    def ideal(self, alpha: float, depth: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The gains of ndeval's greedy ideal ranking: (query, 0-based rank, gain) of its first ``depth`` ranks.

        Only ranks with a positive gain are listed (the rest of the ideal ranking gains 0).
        The greedy construction is resumed, never restarted, when a deeper ranking is asked for.
        """
        if alpha not in self._ideal:
            self._ideal[alpha] = GreedyIdeal(self, alpha)
        return self._ideal[alpha].ranks(depth)


class GreedyIdeal:
    """ndeval's greedy ideal rankings of all queries, built one rank at a time on demand.

    At each rank every query takes its unplaced document of highest gain given the
    documents already placed, ties going to the greater docno (byte-wise); a query
    stops when no document has a positive gain left.
    """

    def __init__(self, sj: SubtopicJudgments, alpha: float):
        index = sj.index
        docs = np.flatnonzero(sj.count > 0)                        # judgments relevant to a subtopic
        query = index.query[docs]
        by_docno = index.doc_vocab.take(index.keys[docs] % index.n_docs).order_within_groups(query)
        docs, self.query = docs[by_docno], query[by_docno]          # per query, docno descending
        self.pair_doc, self.pair_sub = sj.expand(docs)
        self.gains = novelty_gains(alpha, int(np.bincount(self.pair_sub).max()) + 1 if len(self.pair_sub) else 1)
        self.seen = np.zeros(sj.n_subtopics, dtype=np.int64)
        self.depth = 0
        self.found: list[tuple[np.ndarray, np.ndarray]] = []        # (query, gain) placed at each rank
        self._result: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def ranks(self, depth: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        while self.depth < depth and len(self.query) and self._place_one():
            self.depth += 1
        if self._result is None or len(self._result[0]) != sum(len(q) for q, _ in self.found):
            q = np.concatenate([q for q, _ in self.found] or [np.zeros(0, dtype=np.int64)])
            g = np.concatenate([g for _, g in self.found] or [np.zeros(0)])
            r = np.repeat(np.arange(len(self.found)), [len(x) for x, _ in self.found])
            order = np.lexsort((r, q))
            self._result = q[order], r[order], g[order]
        return self._result

    def _place_one(self) -> bool:
        """Place the next rank of every query; False when no query has a document of positive gain left."""
        query, pair_doc = self.query, self.pair_doc
        score = np.bincount(pair_doc, weights=self.gains[self.seen[self.pair_sub]], minlength=len(query))
        starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
        best = np.maximum.reduceat(score, starts)
        segment = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(query))))
        candidate = np.where(score == best[segment], np.arange(len(score)), len(score))
        chosen = np.minimum.reduceat(candidate, starts)[best > 0]
        if len(chosen) == 0:
            self.query = query[:0]
            return False
        self.found.append((query[chosen], score[chosen]))
        placed = np.zeros(len(query), dtype=bool)
        placed[chosen] = True
        self.seen[self.pair_sub[placed[pair_doc]]] += 1            # one document per query: no repeats
        keep = ~placed & (best > 0)[segment]
        keep_pair = keep[pair_doc]
        self.pair_doc = (np.cumsum(keep) - 1)[pair_doc[keep_pair]]
        self.pair_sub = self.pair_sub[keep_pair]
        self.query = query[keep]
        return True


def subtopic_judgments(index: QrelsIndex, rel: float) -> SubtopicJudgments:
    return index.cached(('subtopic_judgments', rel), lambda: SubtopicJudgments(index, rel))


class RankedPairs:
    """The (ranked row, relevant subtopic) pairs of a run within the first ``depth`` ranks.

    ``query``, ``rank`` (0-based; among judged documents with judged_only) and
    ``subtopic`` per pair, in rank order within each query; ``seen`` is the number
    of earlier pairs with the same subtopic; ``row`` numbers the ranked rows.
    """

    def __init__(self, t: RankedTable, sj: SubtopicJudgments, judged_only: bool, depth: float):
        rank = t.rank_in(judged_only)
        rows = np.flatnonzero((rank >= 0) & (rank < depth) & (sj.count[t.judgment] > 0))
        self.nq = t.nq
        self.row, self.subtopic = sj.expand(t.judgment[rows])
        self.query = t.query[rows][self.row]
        self.rank = rank[rows][self.row]
        self.seen = occurrences(self.subtopic)

    def gain_per_rank(self, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, rank, G) for each ranked row with a relevant subtopic: G sums (1 - alpha)^seen."""
        if len(self.row) == 0:
            return self.query, self.rank, np.zeros(0)
        gains = novelty_gains(alpha, int(self.seen.max()) + 1)
        g = np.bincount(self.row, weights=gains[self.seen])        # every row has at least one pair
        first = np.concatenate(([True], self.row[1:] != self.row[:-1]))
        return self.query[first], self.rank[first], g

    def per_query(self, values: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        q = self.query if mask is None else self.query[mask]
        return np.bincount(q, weights=values, minlength=self.nq)


def _cutoff_measure_pairs(measure: Measure, t: RankedTable,
                          judged_only: bool | None = None) -> tuple[SubtopicJudgments, RankedPairs]:
    sj = subtopic_judgments(t.index, measure['rel'])
    judged = measure['judged_only'] if judged_only is None else judged_only
    return sj, RankedPairs(t, sj, judged, measure['cutoff'])


def _discounted(measure: Measure, t: RankedTable, weight: Weight) -> tuple[np.ndarray, SubtopicJudgments]:
    """Per query, sum over ranks i < k of G(i) * weight(i)."""
    sj, pairs = _cutoff_measure_pairs(measure, t)
    q, r, g = pairs.gain_per_rank(measure['alpha'])
    return np.bincount(q, weights=g * weight(r), minlength=t.nq), sj


#: ranks whose terms the ideal sum of alpha_DCG and ERR-IA adds in one array (as many as the cutoff up to this)
_TERM_BLOCK = 1 << 20
#: the most terms that sum adds, a block at a time (about a second): a larger cutoff whose terms still count
#: (alpha near 0) is an error rather than an endless sum
MOST_TERMS = 10 ** 8
#: a weight per 0-based rank (a discount, or a reciprocal rank)
Weight = Callable[[np.ndarray], np.ndarray]


def _ideal_ideal(measure: Measure, sj: SubtopicJudgments, weight: Weight) -> np.ndarray:
    """S * sum_{i<k} (1 - alpha)^i weight(i); 1 at k = 1, where ndeval does not normalise."""
    k = measure['cutoff']
    if k == 1:
        return np.ones(sj.nq)
    if k <= _TERM_BLOCK:
        return sj.S * float(np.sum(novelty_gains(measure['alpha'], k) * weight(np.arange(k))))
    return sj.S * _long_ideal_sum(measure, weight)


def _long_ideal_sum(measure: Measure, weight: Weight) -> float:
    """sum_{i<k} (1 - alpha)^i weight(i) for a cutoff beyond one block: a block of ranks at a time, up to the
    rank from which (1 - alpha)^i < 2^-60 no longer changes it (the sum is at least 1, every weight at most 1)."""
    alpha, k = measure['alpha'], measure['cutoff']
    terms = k if alpha == 0 else min(k, int(60 * np.log(2.0) / -np.log1p(-alpha)) + 1 if alpha < 1 else 1)
    if terms > MOST_TERMS:
        raise MeasureError(f'{measure!r}: the ideal ranking\'s gain sums a term for each of the first {terms:,} '
                           f'ranks (alpha = {alpha:g} makes none negligible): give a cutoff of at most '
                           f'{MOST_TERMS:,}, or a larger alpha')
    total, carry = 0.0, 1.0
    for start in range(0, terms, _TERM_BLOCK):
        gains = carry * novelty_gains(alpha, min(_TERM_BLOCK, terms - start))
        total += float(np.sum(gains * weight(np.arange(start, start + len(gains)))))
        carry = float(gains[-1]) * (1.0 - alpha)
    return total


def _ideal_discounted(measure: Measure, sj: SubtopicJudgments, weight: Weight) -> np.ndarray:
    k = measure['cutoff']
    q, r, g = sj.ideal(measure['alpha'], k)
    within = r < k
    return np.bincount(q[within], weights=g[within] * weight(r[within]), minlength=sj.nq)


def _reciprocal(rank: np.ndarray) -> np.ndarray:
    return 1.0 / (np.asarray(rank, dtype=np.float64) + 1.0)


@kernel(alpha_DCG)
def alpha_dcg(measure: Measure, t: RankedTable) -> np.ndarray:
    dcg, sj = _discounted(measure, t, discount)
    return safe_divide(dcg, _ideal_ideal(measure, sj, discount))


@kernel(alpha_nDCG)
def alpha_ndcg(measure: Measure, t: RankedTable) -> np.ndarray:
    dcg, sj = _discounted(measure, t, discount)
    return safe_divide(dcg, _ideal_discounted(measure, sj, discount))


@kernel(ERR_IA)
def err_ia(measure: Measure, t: RankedTable) -> np.ndarray:
    err, sj = _discounted(measure, t, _reciprocal)
    return safe_divide(err, _ideal_ideal(measure, sj, _reciprocal))


@kernel(nERR_IA)
def nerr_ia(measure: Measure, t: RankedTable) -> np.ndarray:
    err, sj = _discounted(measure, t, _reciprocal)
    return safe_divide(err, _ideal_discounted(measure, sj, _reciprocal))


def _rank_biased(measure: Measure, nq: int, q: np.ndarray, r: np.ndarray, g: np.ndarray) -> np.ndarray:
    """(1 - (1 - alpha) beta) * sum G(i) beta^(i-1) per query (0 when alpha = 0 and beta = 1, as in ndeval)."""
    alpha, beta = measure['alpha'], measure['beta']
    total = np.bincount(q, weights=g * beta ** r.astype(np.float64), minlength=nq)
    return cast(np.ndarray, total * (1.0 - (1.0 - alpha) * beta))


@kernel(NRBP)
def nrbp(measure: Measure, t: RankedTable) -> np.ndarray:
    sj = subtopic_judgments(t.index, measure['rel'])
    ranked = RankedPairs(t, sj, False, np.inf).gain_per_rank(measure['alpha'])
    return safe_divide(_rank_biased(measure, t.nq, *ranked), sj.S)


@kernel(nNRBP)
def nnrbp(measure: Measure, t: RankedTable) -> np.ndarray:
    sj = subtopic_judgments(t.index, measure['rel'])
    ranked = RankedPairs(t, sj, False, np.inf).gain_per_rank(measure['alpha'])
    ideal = sj.ideal(measure['alpha'], _negligible_rank(measure['beta'], sj.S.max(initial=1.0)))
    return safe_divide(_rank_biased(measure, t.nq, *ranked), _rank_biased(measure, t.nq, *ideal))


def _negligible_rank(beta: float, max_gain: float) -> float:
    """A rank from which the ideal NRBP's terms no longer change its sum in double precision.

    The ideal sum is >= 1 (its first gain is) and its terms G(i) beta^i <= max_gain beta^i
    decrease, so once they are below 2^-60 every further addition rounds to nothing.
    """
    if beta >= 1.0:
        return np.inf
    return float(np.ceil((60 * np.log(2.0) + np.log(max_gain)) / -np.log(beta))) + 1


@kernel(P_IA)
def precision_ia(measure: Measure, t: RankedTable) -> np.ndarray:
    sj, pairs = _cutoff_measure_pairs(measure, t)
    return safe_divide(pairs.per_query(np.ones(len(pairs.query))), sj.S * measure['cutoff'])


@kernel(StRecall)
def subtopic_recall(measure: Measure, t: RankedTable) -> np.ndarray:
    sj, pairs = _cutoff_measure_pairs(measure, t, judged_only=False)
    first = pairs.seen == 0
    return safe_divide(pairs.per_query(np.ones(int(first.sum())), first), sj.S)


@kernel(AP_IA)
def ap_ia(measure: Measure, t: RankedTable) -> np.ndarray:
    sj = subtopic_judgments(t.index, measure['rel'])
    pairs = RankedPairs(t, sj, measure['judged_only'], np.inf)
    precision = (pairs.seen + 1.0) / (pairs.rank + 1.0)
    per_subtopic = np.bincount(pairs.subtopic, weights=precision, minlength=sj.n_subtopics)
    ap = safe_divide(per_subtopic, sj.relevant_docs)
    return safe_divide(np.bincount(sj.subtopic_query, weights=ap, minlength=sj.nq), sj.S)
