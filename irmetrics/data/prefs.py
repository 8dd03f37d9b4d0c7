"""Preference judgments and judgment groups in columns: trec_eval's ``prefs``, ``qrels_prefs`` and
``qrels_jg`` inputs.

A preference file (``-R prefs``) holds lines ``query_id jg jsg doc_id rel_level``: within one judgment
sub-group (jsg) of a judgment group (jg, one assessor's view of one query at one time) a document of a
higher ``rel_level`` is preferred to every document of a lower one; the levels only order the documents,
except that 0.0 means non-relevant.  A judgment group of one sub-group is a set of *equivalence classes*
(documents of equal level, every pair of classes ordered); one of several sub-groups is a partial order,
closed under transitivity (A > B in one sub-group and B > C in another give A > C).  Ordinary qrels read
as preferences (``-R qrels_prefs``) take the iteration column as the judgment group, one sub-group each.
Judgment groups of qrels (``-R qrels_jg``) are several sets of ordinary judgments of one query (the
iteration column names the set), each evaluated as qrels and averaged.  trec_eval's get_prefs.c,
get_qrels_prefs.c, get_qrels_jg.c and form_prefs_counts.c are the definition.

:class:`Preferences` keeps the rows sorted by query, judgment group, sub-group, level (descending) and
document, with every id coded in byte-wise order (trec_eval's ``strcmp``); :meth:`Preferences.groups`
gives a query's judgment groups as relations over its judged documents (:class:`JudgmentGroup`).  The
relations are checked when the file is read, so that a contradiction is an error naming its lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DuplicateError, InputError
from . import ids
from .qrels import Qrels
from .segments import offsets_of

#: The formats of preference judgments trec_eval reads with -R (and irmetrics with ``format=``).
PREFERENCE_FORMATS = ('prefs', 'qrels_prefs')


def sorted_codes(values: list[str] | ids.Ids) -> tuple[list[str], np.ndarray]:
    """(the distinct values in byte-wise order, each value's code in that order): codes compare as
    trec_eval's ``strcmp`` compares the text (UTF-8 keeps code point order).  The column is encoded in its
    own layout (Arrow's dictionary for a large file's) and only its distinct values sorted."""
    distinct, codes = ids.column(values).encode()
    texts = distinct.to_list()
    order = sorted(range(len(texts)), key=texts.__getitem__)
    place = np.empty(len(texts), dtype=np.int64)
    place[order] = np.arange(len(texts))
    return [texts[i] for i in order], place[codes]


@dataclass(frozen=True)
class JudgmentGroup:
    """The preferences of one judgment group over a query's judged documents (numbered ``0..n-1`` in
    byte-wise order of their ids).

    ``classes``: one sub-group, held as its rows (``row_docs``, ``row_levels``, sorted by level
    descending), each pair of rows of different levels one preference (a document listed twice at one
    level counts twice, as in trec_eval).  Otherwise ``closure`` is the transitive closure of the
    sub-groups' preferences (``closure[a, b]``: a preferred to b) and ``relevance`` each document's
    class: 1 relevant (level > 0), 0 non-relevant (level 0), -1 not in the group.
    """

    classes: bool
    row_docs: np.ndarray
    row_levels: np.ndarray
    closure: np.ndarray | None = None
    relevance: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class Preferences:
    """Preference judgments in columns (see the module docstring), read by
    :func:`irmetrics.read_trec_prefs`.

    ``query_ids``, ``doc_ids``, ``jg_ids`` and ``jsg_ids`` are the distinct ids in byte-wise order; the
    row columns ``query``, ``jg``, ``jsg``, ``doc`` hold codes into them, ``level`` the levels and
    ``lines`` each row's file line; ``offsets[q]:offsets[q + 1]`` are query ``q``'s rows.
    """

    query_ids: list[str]
    doc_ids: list[str]
    jg_ids: list[str]
    jsg_ids: list[str]
    query: np.ndarray
    jg: np.ndarray
    jsg: np.ndarray
    doc: np.ndarray
    level: np.ndarray
    lines: np.ndarray
    offsets: np.ndarray
    format: str = 'prefs'
    source: str = 'prefs'

    @classmethod
    def from_columns(cls, query_ids: list[str] | ids.Ids, jgs: list[str] | ids.Ids, jsgs: list[str] | ids.Ids,
                     doc_ids: list[str] | ids.Ids, levels: np.ndarray, *, lines: np.ndarray | None = None,
                     format: str = 'prefs', source: str = 'prefs') -> Preferences:
        """Build from per-row columns; a level that is not a finite number of 0 or more, a document
        given two levels in a judgment group of one sub-group, a document non-relevant (0.0) and relevant
        in one judgment group, or sub-groups that contradict each other, is an :class:`InputError`
        naming the line."""
        levels = np.asarray(levels, dtype=np.float64)
        lines = np.arange(1, len(levels) + 1) if lines is None else np.asarray(lines, dtype=np.int64)
        bad = np.flatnonzero(~(np.isfinite(levels) & (levels >= 0)))
        if len(bad):
            i = int(bad[0])
            raise InputError(f'rel_level {levels[i].item()!r} is not a finite number of 0 or more (trec_eval\'s '
                             f'{format} format: a non-negative level, 0.0 meaning non-relevant)', source,
                             int(lines[i]))
        qv, q = sorted_codes(query_ids)
        dv, d = sorted_codes(doc_ids)
        gv, g = sorted_codes(jgs)
        sv, s = sorted_codes(jsgs)
        order = np.lexsort((d, -levels, s, g, q))
        prefs = cls(qv, dv, gv, sv, q[order], g[order], s[order], d[order], levels[order], lines[order],
                    offsets_of(q[order], len(qv)), format, source)
        prefs._check()
        return prefs

    def __len__(self) -> int:
        return len(self.level)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __repr__(self) -> str:
        return f'<Preferences {self.source} ({self.format}): {self.num_queries} queries, {len(self)} judgments>'

    def _group_starts(self) -> tuple[np.ndarray, np.ndarray]:
        """(first row of each (query, jg) group, whether each group has one sub-group), rows in order."""
        new_group = np.ones(len(self), dtype=bool)
        new_group[1:] = (self.query[1:] != self.query[:-1]) | (self.jg[1:] != self.jg[:-1])
        starts = np.flatnonzero(new_group)
        group = np.cumsum(new_group) - 1
        first_sub = self.jsg[starts][group]
        several = np.zeros(len(starts), dtype=bool)
        np.logical_or.at(several, group, self.jsg != first_sub)
        return starts, ~several

    def _check(self) -> None:
        """The contradictions trec_eval stops at (form_prefs_counts.c), found when the file is read."""
        if not len(self):
            return
        starts, single = self._group_starts()
        group = np.cumsum(np.isin(np.arange(len(self)), starts)) - 1
        # by (query, jg, doc): rows of one document in one group, its levels
        order = np.lexsort((self.level, self.doc, self.jg, self.query))
        same = (np.diff(self.query[order]) == 0) & (np.diff(self.jg[order]) == 0) & (np.diff(self.doc[order]) == 0)
        a, b = order[:-1][same], order[1:][same]
        two_levels = (self.level[a] != self.level[b]) & single[group[a]]
        if two_levels.any():
            i = int(np.argmax(two_levels))
            self._conflict(int(a[i]), int(b[i]), 'is given two levels in a judgment group of one sub-group '
                                                 '(trec_eval: "occurs with different rel_level in same jsg")')
        zero_and_not = (self.level[a] == 0) & (self.level[b] > 0)
        if zero_and_not.any():
            i = int(np.argmax(zero_and_not))
            self._conflict(int(a[i]), int(b[i]), 'is non-relevant (0.0) and relevant in one judgment group '
                                                 '(trec_eval: "has both 0 and non-0 rel_level assigned")')
        for q in np.unique(self.query[starts[~single]]).tolist():
            self.groups(q)

    def _conflict(self, a: int, b: int, problem: str) -> None:
        raise InputError(f'document {self.doc_ids[self.doc[b]]!r} of query {self.query_ids[self.query[b]]!r}, '
                         f'judgment group {self.jg_ids[self.jg[b]]!r} {problem}: lines {self.lines[a]} and '
                         f'{self.lines[b]}', self.source, int(self.lines[b]))

    def ideal_qrels(self) -> Qrels:
        """The ideal rankings of compatibility (Clarke, Vtyurina and Smucker 2021) as qrels, for
        :data:`irmetrics.Compat`: each document's level as its grade.

        Compatibility's ideal rankings are those of a *weak ordering* (Clarke et al., ICTIR 2020: documents
        of a higher preference value first, equal values tied, values of 0 or less left out), and a judgment
        group of one sub-group is exactly one: its levels, 0.0 (non-relevant) left out.  So
        ``irmetrics.calc([Compat], prefs.ideal_qrels(), run)`` is the paper's compatibility, and for
        ``format='qrels_prefs'`` the value of ``Compat`` on the qrels themselves.  A query judged by several
        judgment groups (assessors whose orderings may contradict each other), or by a group of several
        sub-groups (a partial order, not a weak one), has no ideal ranking in the paper's definition, which
        builds its weak ordering from its own judging process: such a query is an :class:`InputError`
        naming it, its line and its groups, rather than an ordering invented here.
        """
        starts, single = self._group_starts()
        first_of_query = self.offsets[self.query[starts]]
        several = np.flatnonzero((starts != first_of_query) | ~single)
        if len(several):
            self._not_one_ordering(int(starts[several[0]]))
        # one group of one sub-group per query: rows by level, then document, so a document listed twice
        # (at its one level) is on adjacent rows
        keep = np.ones(len(self), dtype=bool)
        keep[1:] = (self.query[1:] != self.query[:-1]) | (self.doc[1:] != self.doc[:-1])
        return Qrels.from_columns([self.query_ids[i] for i in self.query[keep].tolist()],
                                  [self.doc_ids[i] for i in self.doc[keep].tolist()], self.level[keep],
                                  source=self.source, lines=self.lines[keep])

    def _not_one_ordering(self, at: int) -> None:
        """The error of :meth:`ideal_qrels` for the query of row ``at``, judged by several groups or sub-groups."""
        q = int(self.query[at])
        jgs = sorted({self.jg_ids[g] for g in self.jg[self.offsets[q]:self.offsets[q + 1]].tolist()})
        problem = (f'is judged by {len(jgs)} judgment groups ({", ".join(map(repr, jgs))})' if len(jgs) > 1
                   else f'is judged by judgment group {jgs[0]!r} of several sub-groups (a partial order)')
        raise InputError(f'query {self.query_ids[q]!r} {problem}: compatibility\'s ideal ranking is defined from '
                         f'one weak ordering of the documents (one judgment group of one sub-group), and the '
                         f'preferences of several groups or sub-groups are not one', self.source, int(self.lines[at]))

    def judged(self, q: int) -> np.ndarray:
        """The codes of query ``q``'s judged documents (in any judgment group), in byte-wise order."""
        return np.unique(self.doc[self.offsets[q]:self.offsets[q + 1]])

    def groups(self, q: int) -> list[JudgmentGroup]:
        """Query ``q``'s judgment groups in byte-wise order of their ids, over the documents of
        :meth:`judged` (numbered by their position there)."""
        lo, hi = int(self.offsets[q]), int(self.offsets[q + 1])
        judged = self.judged(q)
        docs = np.searchsorted(judged, self.doc[lo:hi])
        jg, jsg, level = self.jg[lo:hi], self.jsg[lo:hi], self.level[lo:hi]
        bounds = np.flatnonzero(np.concatenate(([True], jg[1:] != jg[:-1], [True])))
        out = []
        for start, stop in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            subs = jsg[start:stop]
            rows, levels = docs[start:stop], level[start:stop]
            if (subs == subs[0]).all():
                out.append(JudgmentGroup(True, rows, levels))
            else:
                out.append(self._partial_order(rows, levels, subs, len(judged), lo + start))
        return out

    def _partial_order(self, rows: np.ndarray, levels: np.ndarray, subs: np.ndarray, n: int,
                       first: int) -> JudgmentGroup:
        """The judgment group of several sub-groups: its preferences closed under transitivity (trec_eval
        multiplies the preference matrix by itself until it stops changing: the same closure).

        The closure is taken over the K classes (sub-group, level) rather than the n documents: with M the
        documents' classes (n x K) and H the direct preferences of classes (a class above another of its
        sub-group), the documents' preferences are M H M^T, their closure M H S* M^T, where S* is the
        reflexive-transitive closure of S = M^T M H (a class reaches the classes below any class sharing
        one of its documents): squarings of a K x K matrix, one n x K x n product, all boolean (numpy's
        own loops: BLAS' threads on such small products cost more than they compute)."""
        classes, klass = np.unique(np.stack((subs, -levels)), axis=1, return_inverse=True)
        k = classes.shape[1]
        member = np.zeros((n, k), dtype=bool)
        member[rows, klass.reshape(-1)] = True
        above = (classes[0][:, None] == classes[0][None, :]) & (classes[1][:, None] < classes[1][None, :])
        closed = (member.T @ member) @ above | np.eye(k, dtype=bool)
        while True:
            grown = closed @ closed
            if (grown == closed).all():
                break
            closed = grown
        reach = member @ (above @ closed) @ member.T
        np.fill_diagonal(reach, False)
        both = np.argwhere(reach & reach.T)
        if len(both):
            a, b = both[0].tolist()
            judged = self.judged(int(self.query[first]))
            raise InputError(f'query {self.query_ids[self.query[first]]!r}, judgment group '
                             f'{self.jg_ids[self.jg[first]]!r}: documents {self.doc_ids[judged[a]]!r} and '
                             f'{self.doc_ids[judged[b]]!r} are each preferred to the other through its '
                             f'sub-groups (trec_eval: "Pref inconsistency found", and it aborts)',
                             self.source, int(self.lines[first]))
        relevance = np.full(n, -1, dtype=np.int8)
        relevance[rows] = (levels > 0).astype(np.int8)
        return JudgmentGroup(False, rows, levels, reach, relevance)


def preferred(rows: np.ndarray, levels: np.ndarray, n: int) -> np.ndarray:
    """``count[a, b]``: the pairs of rows (one of document a, one of document b) whose level is higher for
    a, over ``n`` documents (one sub-group's preferences; float64 counts, exact)."""
    distinct, level_code = np.unique(-levels, return_inverse=True)
    member = np.zeros((n, len(distinct)))
    np.add.at(member, (rows, level_code.reshape(-1)), 1.0)
    higher = np.triu(np.ones((len(distinct), len(distinct))), 1)        # class i above class j > i
    return np.asarray(member @ (higher @ member.T))


@dataclass(frozen=True, eq=False)
class JudgmentGroups:
    """Several sets of ordinary judgments per query (trec_eval's ``qrels_jg``), read by
    :func:`irmetrics.read_trec_qrels_jg`: ``groups[k]`` holds the k-th judgment group (byte-wise order of
    the group ids) of every query that has one, as :class:`Qrels`; ``counts`` the number of groups of each
    query of ``query_ids`` (byte-wise order)."""

    query_ids: list[str]
    groups: list[Qrels]
    counts: np.ndarray
    source: str = 'qrels_jg'

    @classmethod
    def from_columns(cls, query_ids: list[str], jgs: list[str], doc_ids: list[str], relevance: np.ndarray, *,
                     lines: np.ndarray | None = None, source: str = 'qrels_jg') -> JudgmentGroups:
        """Build from per-row columns; a document judged twice in one group is a :class:`DuplicateError`
        naming both lines."""
        relevance = np.asarray(relevance)
        lines = np.arange(1, len(relevance) + 1) if lines is None else np.asarray(lines, dtype=np.int64)
        qv, q = sorted_codes(query_ids)
        gv, g = sorted_codes(jgs)
        dv, d = sorted_codes(doc_ids)
        order = np.lexsort((d, g, q))
        q, g = q[order], g[order]
        twice = np.flatnonzero((np.diff(q) == 0) & (np.diff(g) == 0) & (np.diff(d[order]) == 0))
        if len(twice):
            a, b = sorted(lines[order[twice[0]:twice[0] + 2]].tolist())
            raise DuplicateError(f'document {dv[d[order[twice[0]]]]!r} is judged twice in judgment group '
                                 f'{gv[g[twice[0]]]!r} of query {qv[q[twice[0]]]!r}, at lines {a} and {b} '
                                 f'(trec_eval: "duplicate docs")', source, b)
        new_group = np.ones(len(q), dtype=bool)
        new_group[1:] = (q[1:] != q[:-1]) | (g[1:] != g[:-1])
        group = np.cumsum(new_group) - 1
        first_of_query = offsets_of(q, len(qv))[:-1]
        rank = group - group[first_of_query[q]] if len(q) else group      # k: the group's place in its query
        counts = np.zeros(len(qv), dtype=np.int64)
        np.maximum.at(counts, q, rank + 1)
        docs = np.array(doc_ids, dtype=object)[order]
        groups = [Qrels.from_columns([qv[i] for i in q[at].tolist()], docs[at].tolist(), relevance[order][at],
                                     source=source, lines=lines[order][at])
                  for at in (rank == k for k in range(int(counts.max(initial=0))))]
        return cls(qv, groups, counts, source)

    def __repr__(self) -> str:
        return (f'<JudgmentGroups {self.source}: {len(self.query_ids)} queries, '
                f'{int(self.counts.sum())} judgment groups>')


def row_columns(cols: dict[str, Any], names: tuple[str, ...]) -> list[ids.Ids]:
    """The id columns ``names`` of a reader's columns (id columns, or Arrow arrays from the Arrow splitter)."""
    return [ids.column(cols[n]) for n in names]
