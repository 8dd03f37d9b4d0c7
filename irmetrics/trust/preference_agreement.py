"""Agreement between two sets of preference judgments (trec_eval's ``prefs`` or ``qrels_prefs``): which pairs of
documents both order, and whether they order them alike.

A set *orders* a pair of documents of a query when one of its judgment groups does: a group of one sub-group
prefers the document of the higher level and *ties* two documents of one level (its equivalence classes, 0.0
included); a group of several sub-groups prefers as its transitive closure does and ties nothing (it is a partial
order: a pair it leaves unordered is not a pair it orders).  The groups of one set (several assessors) that
order a pair differently *contradict* each other on it: such a pair is counted and left out.  Each pair is read
with its documents in byte-wise order of their ids (``first``, ``second``), so its label is one of three
categories: the first preferred, tied, the second preferred.  Over the pairs both sets order, the pairwise
agreement is the share labelled alike and Cohen's kappa (Cohen 1960) is that of the three categories, through
the one table of counts of :mod:`.judgment_agreement` (per query and overall).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..data.prefs import Preferences
from ..data.trec.prefs import read_trec_prefs
from ..errors import InputError
from .judgment_agreement import GradeTable, JudgmentAgreement, levels_kappa_of
from .label_agreement import Confused

#: The three labels of a pair, by code (-1, 0, 1): its documents in byte-wise order of their ids.
LABELS = {-1: 'second preferred', 0: 'tied', 1: 'first preferred'}
_CONTRADICTED = 2                   # a label of a pair that a set's groups order in more than one way
_NONE = 3                           # a pair a set does not order


@dataclass(frozen=True, eq=False)
class PreferenceAgreement(Confused):
    """Two sets of preference judgments compared on the pairs of documents both order
    (:func:`preference_agreement`).

    ``agreement``: the share of those pairs both label alike; ``kappa``: Cohen's kappa of the labels (the
    first document preferred, tied, the second preferred; ties only where either set ties a pair); each a
    :class:`~irmetrics.JudgmentAgreement`, with its value per query, the pairs ordered by both (``both``), by
    one only (``only_a``, ``only_b``) and the confusion of labels.  ``contradicted_a``, ``contradicted_b``: the
    pairs whose judgment groups in that set order them in different ways (left out); ``names``: what the two
    sets are called.
    """

    agreement: JudgmentAgreement
    kappa: JudgmentAgreement
    labels: tuple[str, ...]
    contradicted_a: int
    contradicted_b: int
    names: tuple[str, str]

    @property
    def statistics(self) -> tuple[JudgmentAgreement, ...]:
        """The statistics, in the order the tables give them."""
        return (self.agreement, self.kappa)

    heading = 'Agreement of the preferences'
    confusion_heading = 'Confusion of labels'

    def compared(self) -> JudgmentAgreement:
        """The kappa: its table of counts is the confusion of labels."""
        return self.kappa

    def categories(self) -> tuple[str, ...]:
        """The labels of a pair."""
        return self.labels

    def pairs_note(self) -> str:
        """The pairs ordered by both sets, by one, and those left out as contradicted."""
        k = self.kappa
        queries = len(k.query_ids)
        return (f'{k.both} pairs ordered by both ({queries} quer{"ies" if queries != 1 else "y"}), {k.only_a} by '
                f'{self.names[0]} only and {k.only_b} by {self.names[1]} only; {self.contradicted_a} pairs ordered '
                f'both ways by {self.names[0]}\'s judgment groups and {self.contradicted_b} by {self.names[1]}\'s: '
                f'those are left out')

    def confusion_note(self) -> str:
        """What the confusion of labels counts."""
        return 'pairs both order, each read with its documents in byte-wise order of their ids'

    def to_dict(self) -> dict[str, Any]:
        """The statistics, the pairs compared and the confusion (``{label_a: {label_b: count}}``)."""
        k = self.kappa
        return {'statistics': {r.method: r.statistic for r in self.statistics}, 'both': k.both,
                'only_a': k.only_a, 'only_b': k.only_b, 'contradicted_a': self.contradicted_a,
                'contradicted_b': self.contradicted_b, 'labels': list(self.labels), 'confusion': self.confusion_dict()}

    def __repr__(self) -> str:
        return (f'<PreferenceAgreement agreement = {self.agreement.statistic:.4f}, kappa = '
                f'{self.kappa.statistic:.4f}; {self.kappa.both} pairs ordered by both>')


def preference_agreement(prefs_a: Any, prefs_b: Any, *, names: tuple[str, str] = ('a', 'b')) -> PreferenceAgreement:
    """How far two sets of preference judgments agree on the pairs of documents both order: the pairwise
    agreement and Cohen's kappa over pairs, per query and overall.

    Each pair of documents of a query is read with its documents in byte-wise order of their ids and labelled
    by each set: the first preferred, tied (two documents of one level in a judgment group of one sub-group) or
    the second preferred (see the module docstring for several judgment groups and sub-groups).  With ``O`` the
    table of counts of the pairs both order (rows: ``prefs_a``'s label, columns: ``prefs_b``'s) and ``n`` their
    number, the pairwise agreement is ``trace(O) / n`` and Cohen's kappa ``1 - sum(W * O) / sum(W * E)``, ``E``
    the table chance expects from the margins and ``W = 1`` off the diagonal (Cohen 1960), i.e.
    ``(p_o - p_e) / (1 - p_e)``.  A pair one set orders and the other does not is counted (``only_a``,
    ``only_b``), one a set's judgment groups order in different ways is counted as contradicted; both are
    left out.  A kappa that chance leaves undefined (one label throughout) is NaN with a warning.

    Parameters
    ----------
    prefs_a, prefs_b : Preferences, path or text
        The two sets: :class:`~irmetrics.Preferences` (:func:`~irmetrics.read_trec_prefs`, either format), or a
        preference file (trec_eval's ``prefs`` format) read by it.
    names : tuple of two str
        What to call the two sets in the notes and errors.

    Returns
    -------
    PreferenceAgreement
        The two statistics (per query too), the pairs compared and the confusion of labels.

    Raises
    ------
    InputError
        For sets with no query in common, or no pair both order (the ids are probably spelled differently).

    References
    ----------
    J. Cohen, A coefficient of agreement for nominal scales, Educational and Psychological Measurement, 1960;
    B. Carterette, P. N. Bennett, D. M. Chickering and S. T. Dumais, Here or there: preference judgments for
    relevance, ECIR 2008.

    Examples
    --------
    >>> a = irmetrics.read_trec_prefs('q1 u s d1 3\\nq1 u s d2 2\\nq1 u s d3 2\\n')
    >>> b = irmetrics.read_trec_prefs('q1 v s d1 1\\nq1 v s d2 2\\nq1 v s d3 1\\n')
    >>> result = irmetrics.preference_agreement(a, b)
    >>> result.agreement.statistic, result.kappa.both
    (0.0, 3)
    """
    a, b = (p if isinstance(p, Preferences) else read_trec_prefs(p) for p in (prefs_a, prefs_b))
    query_ids = sorted(set(a.query_ids) | set(b.query_ids))
    if not set(a.query_ids) & set(b.query_ids):
        raise InputError(f'{names[0]} ({_size(a)}) and {names[1]} ({_size(b)}) have no query in common: nothing to '
                         f'compare (are the query ids spelled alike?)')
    at_a, at_b = ({q: i for i, q in enumerate(p.query_ids)} for p in (a, b))
    labels_a, labels_b, queries = [], [], []
    for qi, q in enumerate(query_ids):
        qa, qb = at_a.get(q), at_b.get(q)
        docs = sorted(set(_docs(a, qa)) | set(_docs(b, qb)))
        upper = np.triu_indices(len(docs), 1)
        labels_a.append(_labels(a, qa, docs)[upper])
        labels_b.append(_labels(b, qb, docs)[upper])
        queries.append(np.full(len(upper[0]), qi, dtype=np.int64))
    return _agreement(np.concatenate(labels_a), np.concatenate(labels_b), np.concatenate(queries),
                      tuple(query_ids), names)


def _agreement(la: np.ndarray, lb: np.ndarray, query: np.ndarray, query_ids: tuple[str, ...],
               names: tuple[str, str]) -> PreferenceAgreement:
    """The result from each pair's labels in both sets (codes of :data:`LABELS`, contradicted, none)."""
    ordered_a, ordered_b = la <= 1, lb <= 1
    both = ordered_a & ordered_b
    n = len(query_ids)
    if not both.any():
        raise InputError(f'{names[0]} and {names[1]} order no pair of documents in common ({int(ordered_a.sum())} '
                         f'and {int(ordered_b.sum())} pairs ordered): nothing to compare (are the document ids '
                         f'spelled alike?)')
    codes = np.array(sorted(set(la[both].tolist()) | set(lb[both].tolist())))     # the labels used, -1 first
    g = len(codes)
    ca, cb = np.searchsorted(codes, la[both]), np.searchsorted(codes, lb[both])
    counts = np.bincount((query[both] * g + ca) * g + cb, minlength=n * g * g).reshape(n, g, g)
    table = GradeTable(tuple(float(c) for c in codes), counts.astype(np.float64), query_ids,
                       np.bincount(query[both], minlength=n),
                       np.bincount(query[ordered_a & (lb == _NONE)], minlength=n),
                       np.bincount(query[ordered_b & (la == _NONE)], minlength=n))
    kappa = replace(levels_kappa_of(table), method=f"Cohen's kappa ({g} labels)")
    agreement = table.result('pairwise agreement', _share_alike, table.counts)
    return PreferenceAgreement(agreement, kappa, tuple(LABELS[int(c)] for c in codes),
                               int((la == _CONTRADICTED).sum()), int((lb == _CONTRADICTED).sum()), names)


def _share_alike(counts: np.ndarray) -> np.ndarray:
    """The share of each table's pairs on its diagonal (NaN for a table with no pair)."""
    total = counts.sum(axis=(1, 2))
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(total > 0, np.trace(counts, axis1=1, axis2=2) / total, np.nan)


def _docs(prefs: Preferences, q: int | None) -> list[str]:
    """The ids of the documents ``prefs`` judges for its query ``q`` (none for None: a query it does not judge)."""
    return [] if q is None else [prefs.doc_ids[d] for d in prefs.judged(q).tolist()]


def _labels(prefs: Preferences, q: int | None, docs: list[str]) -> np.ndarray:
    """``label[i, j]`` of the documents ``docs`` (byte-wise order) of ``prefs``' query ``q`` (None: a query it
    does not judge): 1 when ``prefs`` prefers i to j, -1 when j to i, 0 when it ties them, :data:`_CONTRADICTED`
    when its judgment groups do more than one of these, and :data:`_NONE` when it does none."""
    seen = np.zeros((3, len(docs), len(docs)), dtype=bool)             # preferred, preferred to, tied
    if q is not None:
        at = np.searchsorted(np.array(docs, dtype=object), np.array(_docs(prefs, q), dtype=object))
        cell = np.ix_(at, at)
        for group in prefs.groups(q):
            if group.classes:
                level = np.full(len(at), np.nan)
                level[group.row_docs] = group.row_levels
                higher = level[:, None] > level[None, :]
                tied = (level[:, None] == level[None, :]) & ~np.eye(len(at), dtype=bool)
            else:
                assert group.closure is not None
                higher, tied = group.closure, np.zeros_like(group.closure)
            seen[0][cell] |= higher
            seen[1][cell] |= higher.T
            seen[2][cell] |= tied
    kinds = seen.sum(axis=0)
    label = np.select([kinds > 1, seen[0], seen[1], seen[2]], [_CONTRADICTED, 1, -1, 0], _NONE)
    return label.astype(np.int64)


def _size(prefs: Preferences) -> str:
    return f'{len(prefs)} judgments of {prefs.num_queries} queries'
