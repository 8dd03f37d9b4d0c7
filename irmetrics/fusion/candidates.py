"""The documents that several runs rank for each query, in one table: what every fusion method reads.

The candidates of a query are the union of the documents its runs rank (a query ranked by no run has
none; a query missing from one run takes nothing from that run).  Each run keeps its rows in its own
ranked order (trec_eval's: score descending, ties by document id descending), with the candidate each
row is, its score and its rank from 1, so that a method reads a document's score in a run, its rank, or
that the run does not rank it, without a join of its own.

The (query, document) pairs are found by the documents' 64-bit fingerprints mixed with the query, one
hash pass over every row (``pandas.factorize``); every pair found is then confirmed by comparing the ids
themselves, and should two different documents of a query ever share a fingerprint, the pairs are found
again from the ids (exact in every case).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ..data.ids import Ids, concatenated, mix
from ..data.ranking import canonical_order
from ..data.run import Run
from ..data.segments import ranges


@dataclass(frozen=True)
class Ranked:
    """One run's rows in ranked order, query by query (its own queries' order).

    ``at``: the candidate each row is; ``scores``: its score; ``ranks``: its rank from 1 in its query;
    ``starts``: where each of the run's non-empty rankings starts among the rows (for
    ``np.ufunc.reduceat``); ``lengths``: the length of each row's ranking.
    """

    at: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray

    def per_ranking(self, totals: np.ndarray) -> np.ndarray:
        """A value per ranking (from a ``reduceat`` over ``starts``) spread to each of its rows."""
        return np.repeat(totals, np.diff(np.append(self.starts, len(self.at))))

    def with_scores(self, scores: np.ndarray) -> Ranked:
        return Ranked(self.at, scores, self.ranks, self.starts, self.lengths)


@dataclass(frozen=True)
class Candidates:
    """The candidates of every query of several runs (module docstring).

    ``query_ids``: the union of the runs' queries; ``query``: each candidate's query code;
    ``doc_ids``: each candidate's document; ``runs``: each run's :class:`Ranked` rows.
    """

    query_ids: Ids
    query: np.ndarray
    doc_ids: Ids
    runs: tuple[Ranked, ...]

    def __len__(self) -> int:
        return len(self.query)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def counts(self, runs: Sequence[Ranked]) -> np.ndarray:
        """How many of ``runs`` rank each candidate."""
        out = np.zeros(len(self), dtype=np.int64)
        for run in runs:
            out[run.at] += 1
        return out

    def lengths_of(self, run: Ranked) -> np.ndarray:
        """For each candidate, the length of ``run``'s ranking of its query (0 where the run ranks none)."""
        n = np.zeros(self.num_queries)
        n[self.query[run.at[run.starts]]] = run.lengths[run.starts]
        return cast(np.ndarray, n[self.query])

    def per_query(self) -> np.ndarray:
        """The number of candidates of each candidate's query."""
        return cast(np.ndarray, np.bincount(self.query, minlength=self.num_queries)[self.query])

    def dense(self, runs: Sequence[Ranked], fill: float) -> np.ndarray:
        """The candidates x runs matrix of the runs' scores, ``fill`` where a run does not rank the candidate."""
        out = np.full((len(self), len(runs)), fill, dtype=np.float64)
        for j, run in enumerate(runs):
            out[run.at, j] = run.scores
        return out


def candidates_of(runs: Sequence[Run]) -> Candidates:
    """The :class:`Candidates` of ``runs`` (each a :class:`~irmetrics.data.run.Run`)."""
    queries, codes = concatenated([run.query_ids for run in runs]).encode()
    first = np.cumsum([0] + [run.num_queries for run in runs])
    rows, docs, fingerprints, query = [], [], [], []
    for j, run in enumerate(runs):
        order = run.order
        query.append(codes[first[j]:first[j + 1]][run.qidx[order]])         # int32: the union's query codes
        docs.append(run.doc_ids.take(order))
        fp = run.doc_fingerprints if run.doc_fingerprints is not None else run.doc_ids.fingerprint()
        fingerprints.append(fp[order])
        sizes = np.diff(run.offsets).astype(np.int32)
        rows.append((run.scores[order], ranges(sizes).astype(np.int32) + 1, run.offsets[:-1][sizes > 0],
                     np.repeat(sizes, sizes)))
    bounds = np.cumsum([0] + [len(q) for q in query])
    all_query = np.concatenate(query) if query else np.zeros(0, dtype=np.int32)
    all_docs = concatenated(docs)
    del query, docs                                   # the columns of every run, once each
    group, head = _pairs(all_query, all_docs, np.concatenate(fingerprints) if fingerprints else np.zeros(0, np.uint64))
    del fingerprints
    ranked = tuple(Ranked(group[bounds[j]:bounds[j + 1]], scores, ranks, starts, lengths)
                   for j, (scores, ranks, starts, lengths) in enumerate(rows))
    return Candidates(queries, all_query[head], all_docs.take(head), ranked)


def _pairs(query: np.ndarray, docs: Ids, fingerprints: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The code (from 0, in order of first appearance) of each row's (query, document) pair, and the first row
    of each pair."""
    import pandas as pd
    if len(query) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    group = pd.factorize(mix(fingerprints, query))[0].astype(np.int64, copy=False)
    head = _first_rows(group)
    if np.array_equal(query, query[head][group]) and bool(docs.equal(docs.take(head[group])).all()):
        return group, head
    vocabulary, doc_codes = docs.encode()                            # two documents share a fingerprint
    group = pd.factorize(query.astype(np.int64) * len(vocabulary) + doc_codes)[0].astype(np.int64, copy=False)
    return group, _first_rows(group)


def _first_rows(group: np.ndarray) -> np.ndarray:
    """The first row of each code of ``group`` (codes from 0 in order of first appearance: where the running
    maximum rises)."""
    return np.flatnonzero(np.diff(np.maximum.accumulate(group), prepend=-1) > 0)


def ranked_by(candidates: Candidates, at: np.ndarray, scores: np.ndarray) -> Ranked:
    """A run's rows (candidates ``at`` with ``scores``, in any order) ranked by trec_eval's rule: query, score
    descending, document id descending."""
    query = candidates.query[at]
    order = canonical_order(query, scores, candidates.doc_ids.take(at))
    at, query, scores = at[order], query[order], scores[order]
    sizes = np.bincount(query, minlength=candidates.num_queries)
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    return Ranked(at, scores, ranges(sizes) + 1, offsets[:-1][sizes > 0], np.repeat(sizes, sizes))
