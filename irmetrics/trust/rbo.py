"""Rank-biased overlap (RBO) of two rankings, of any lengths and with ties.

RBO (Webber, Moffat & Zobel) compares two rankings by the overlap of their prefixes: at depth ``d``
the agreement ``A_d = X_d / d`` is the share of items the two top-``d`` prefixes hold in common
(``X_d``), and ``RBO = (1-p) sum_{d>=1} p^(d-1) A_d``, a user who looks one rank deeper with probability
``p``.  Only prefixes are known, so the full RBO lies in ``[RBO_MIN, RBO_MIN + RBO_RES]`` (the overlap
grows no more, or as much as it can, below them), and ``RBO_EXT`` extrapolates the agreement seen.

Lists of different lengths ``s < l``: the shorter list's overlap below depth ``s`` is extrapolated
with its agreement at ``s`` (Webber et al., Sect. 4.3, eq. 32).  Ties (items of equal value in a
mapping) follow Corsi & Urbano's generalisation, where each item *contributes* to each depth: ``'w'``
ties are equality, a tie group is seen whole as soon as its best rank is reached and
``A_d = 2 X_d / (|S_d| + |L_d|)``; ``'a'`` ties are uncertainty, an item of a group at ranks ``t..b``
contributes ``(d-t+1)/(b-t+1)`` at depth ``t <= d < b`` (its chance of being in the prefix under a
random order of the group), so the agreement at each depth is its expectation over the orders of the
groups, and so are RBO^a's RBO_MIN, and its RBO_EXT and RBO_RES when the lists have one length.  When
they differ in length and the longer one ties items below the shorter one's end, RBO_EXT (and RBO_RES)
is Corsi & Urbano's formula but not the expected RBO_EXT over the orders: the extrapolation weighs the
longer list's unmatched items by their mean contribution at each depth, a ratio of two sums over the
orders (``rbo(['a', 'b'], {'a': 3, 'c': 2, 'b': 1, 'd': 1}, p=0.9)``: RBO_EXT 0.742375, where the mean
over the two orders of b and d is 0.74575).  ``'b'`` corrects RBO^a for the information the ties lose,
``A_d = X_d / sqrt(sum c_S^2 sum c_L^2)`` (as tau-b does tau).  Without ties the three are Webber et
al.'s RBO.

Every sum over depths is a cumulative count (items whose contribution is 1 from a depth on) plus
the contributions inside tie windows, summed by depth with one ``bincount``: no loop over depths.

W. Webber, A. Moffat and J. Zobel, "A similarity measure for indefinite rankings", ACM TOIS 28(4), 2010;
M. Corsi and J. Urbano, "The treatment of ties in rank-biased overlap", SIGIR 2024.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from ..constraints import Choice, Float, Option
from ..data.segments import ranges
from ..rendering.result import Table, Tabled
from .rankings import Ranking, ranking

#: Corsi & Urbano's variants: 'a' (ties are uncertainty), 'b' (the same, corrected), 'w' (ties are equality)
TIE_VARIANT = Option('tie_variant', Choice('a', 'b', 'w'))
#: RBO's persistence (0.9: a user who looks about 10 ranks deep)
PERSISTENCE = Option('p', Float(0, 1, low_open=True, high_open=True))


@dataclass(frozen=True)
class RBO(Tabled):
    """Rank-biased overlap of two rankings: ``extrapolated`` (RBO_EXT, the point estimate),
    ``minimum`` (RBO_MIN) and ``residual`` (RBO_RES), so that the full RBO of any continuation of the
    rankings lies in ``[minimum, maximum]`` (``maximum = minimum + residual``); ``p`` (persistence),
    ``tie_variant`` and the rankings' lengths ``depth_a`` and ``depth_b``."""

    extrapolated: float
    minimum: float
    residual: float
    p: float
    tie_variant: str
    depth_a: int
    depth_b: int

    @property
    def maximum(self) -> float:
        return self.minimum + self.residual

    def __repr__(self) -> str:
        return (f'RBO(extrapolated={self.extrapolated:.4f}, minimum={self.minimum:.4f}, '
                f'residual={self.residual:.4f}, p={self.p:g}, tie_variant={self.tie_variant!r}, '
                f'depths=({self.depth_a}, {self.depth_b}))')

    def table(self) -> Table:
        names = ['extrapolated', 'minimum', 'residual', 'maximum', 'p', 'tie_variant', 'depth_a', 'depth_b']
        values = self.to_dict()
        return Table(names, [[values[n] for n in names]], numeric_from=0)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), 'maximum': self.maximum}


def rbo(a: Any, b: Any, *, p: float = 0.9, tie_variant: str = 'a') -> RBO:
    """Rank-biased overlap of rankings ``a`` and ``b`` with persistence ``p``: RBO_EXT, RBO_MIN and RBO_RES.

    Symmetric in ``a`` and ``b``.  Identical rankings give RBO_EXT = 1 (with ties, under ``'b'`` and
    ``'w'``; under ``'a'`` two tied items are ordered independently in the two rankings, so RBO^a of a
    ranking with ties and itself is below 1), rankings with no item in common 0.  The module docstring
    gives the formulas.

    Parameters
    ----------
    a, b : sequence or mapping
        Sequences of items, best first, or mappings ``{item: value}`` (higher = better; equal values tie);
        they may hold different items and have different lengths (Webber et al.'s eq. 32).
    p : float
        The persistence, 0 < p < 1.
    tie_variant : str
        Corsi & Urbano's variants: ``'a'`` (default; ties are uncertainty: a tied item counts its chance of
        being in each prefix, which makes RBO_MIN, and RBO_EXT and RBO_RES of lists of one length, the
        expected values over the orders of each tie group; not RBO_EXT of lists of different lengths whose
        longer one ties items below the shorter one's end: see the module docstring), ``'b'`` (the same,
        corrected for the information ties lose) or ``'w'`` (ties are equality); the same number when
        nothing ties.

    Returns
    -------
    RBO
        ``extrapolated`` (RBO_EXT), ``minimum`` (RBO_MIN), ``residual`` (RBO_RES) and ``maximum``.

    Raises
    ------
    InputError
        For an empty ranking.
    OptionError
        For ``p`` outside (0, 1) or an unknown variant.

    Notes
    -----
    Without ties (``A_d = X_d/d``, ``X_d`` counting the shorter list's ``s`` items only):

        RBO_EXT = (1-p)/p [ sum_{d=1..l} A_d p^d + sum_{d=s+1..l} A_s (d-s)/d p^d ] + (X_l/l + (l-s) A_s / l) p^l
        RBO_MIN = (1-p)/p [ sum_{d=1..l} A_d p^d + X_l (ln(1/(1-p)) - sum_{d=1..l} p^d/d) ]

    RBO_MAX lets the shorter list continue with the longer one's unseen items and both then match as fast
    as they can.

    References
    ----------
    W. Webber, A. Moffat and J. Zobel, "A similarity measure for indefinite rankings", ACM TOIS 28(4),
    2010; M. Corsi and J. Urbano, "The treatment of ties in rank-biased overlap", SIGIR 2024.

    Examples
    --------
    >>> irmetrics.rbo(['a', 'b', 'c'], ['a', 'c', 'x', 'y'], p=0.8)
    RBO(extrapolated=0.7067, minimum=0.5247, residual=0.3270, p=0.8, tie_variant='a', depths=(3, 4))
    """
    p, tie_variant = float(PERSISTENCE.check(p)), TIE_VARIANT.check(tie_variant)
    ra, rb = ranking(a, 'a'), ranking(b, 'b')
    ext, low, high = _shorter_first(_flat(ra), _flat(rb), p, tie_variant)
    return RBO(ext, low, high - low, p, tie_variant, len(ra.ids), len(rb.ids))


def rbo_of_orders(a: np.ndarray, b: np.ndarray, p: float) -> tuple[float, float, float]:
    """(RBO_EXT, RBO_MIN, RBO_MAX) of two rankings without ties given as arrays of item codes, best
    first (each item once): the per-query kernel of :func:`irmetrics.run_agreement`."""
    return _shorter_first(_untied(a), _untied(b), p, 'w')


def _shorter_first(a: _Flat, b: _Flat, p: float, ties: str) -> tuple[float, float, float]:
    return _rbo(a, b, p, ties) if len(a.ids) <= len(b.ids) else _rbo(b, a, p, ties)


def _untied(ids: np.ndarray) -> _Flat:
    ranks = np.arange(len(ids), dtype=np.int64)
    return _Flat(np.asarray(ids), ranks, ranks)


@dataclass(frozen=True)
class _Flat:
    """A ranking flattened: item ids, each item's best rank ``top`` and worst rank ``bottom`` in its tie
    group (0-based), in rank order."""

    ids: np.ndarray
    top: np.ndarray
    bottom: np.ndarray

    def full(self, ties: str) -> np.ndarray:
        """The first depth index at which each item contributes 1."""
        return self.top if ties == 'w' else self.bottom

    def contribution(self, rows: np.ndarray, d: np.ndarray) -> np.ndarray:
        """The contribution of items ``rows`` at depth indices ``d`` inside their tie window (a/b)."""
        t = self.top[rows]
        return cast(np.ndarray, (d - t + 1) / (self.bottom[rows] - t + 1))


def _flat(r: Ranking) -> _Flat:
    order = np.argsort(-r.values, kind='stable')
    v = r.values[order]
    top = np.searchsorted(-v, -v, side='left')                       # items strictly better
    bottom = np.searchsorted(-v, -v, side='right') - 1
    return _Flat(np.array(r.ids, dtype=object)[order], top.astype(np.int64), bottom.astype(np.int64))


def _depth_sums(start: np.ndarray, full: np.ndarray, window: Callable[[np.ndarray, np.ndarray], np.ndarray],
                length: int) -> np.ndarray:
    """``sum_i f_i(d)`` for depth indices d = 0..length-1, where ``f_i`` is 0 before ``start_i``, 1 from
    ``full_i`` on, and ``window(i, d)`` in between."""
    ones = np.cumsum(np.bincount(np.minimum(full, length), minlength=length + 1)[:length]).astype(np.float64)
    stop = np.minimum(full, length)
    sizes = np.clip(stop - start, 0, None)
    rows = np.repeat(np.arange(len(start)), sizes)
    d = start[rows] + ranges(sizes)
    return ones + np.bincount(d, weights=window(rows, d), minlength=length)[:length]


def _rbo(S: _Flat, L: _Flat, p: float, ties: str) -> tuple[float, float, float]:
    s, ell = len(S.ids), len(L.ids)
    depth = np.arange(1, ell + 1, dtype=np.float64)                   # d = 1..l
    weights = p ** depth
    _, in_s, in_l = np.intersect1d(S.ids, L.ids, assume_unique=True, return_indices=True)
    fs, fl = S.full(ties), L.full(ties)

    def both(rows: np.ndarray, d: np.ndarray) -> np.ndarray:
        return cast(np.ndarray, _value(S, in_s[rows], d, ties) * _value(L, in_l[rows], d, ties))

    overlap = _depth_sums(np.maximum(S.top[in_s], L.top[in_l]), np.maximum(fs[in_s], fl[in_l]), both, ell)

    def squared(f: _Flat) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        def value(rows: np.ndarray, d: np.ndarray) -> np.ndarray:
            return _value(f, rows, d, ties) ** (1 if ties == 'w' else 2)
        return value

    seen = np.arange(ell) < s
    if ties == 'a':
        denominator = depth
    else:
        size_s = _depth_sums(S.top, fs, squared(S), ell)            # |S_d| ('w') or sum c_S^2 ('b')
        size_l = _depth_sums(L.top, fl, squared(L), ell)
        denominator = ((np.where(seen, size_s, depth) + size_l) / 2 if ties == 'w' else
                       np.sqrt(np.where(seen, size_s, depth)) * np.sqrt(size_l))
    agreement = overlap / denominator
    a_s = agreement[s - 1]
    x_l = overlap[ell - 1]

    # only in the longer list: each one's mean contribution where it contributes (extrapolation), and
    # the i-th of them placed at rank s+i+1 of the shorter list (the maximum)
    only = np.flatnonzero(~np.isin(np.arange(ell), in_l))
    top_only, full_only = L.top[only], fl[only]

    def in_window(rows: np.ndarray, d: np.ndarray) -> np.ndarray:
        return _value(L, only[rows], d, ties)

    unseen_sum = _depth_sums(top_only, full_only, in_window, ell)
    unseen_count = _depth_sums(top_only, top_only, in_window, ell)
    unseen_mean = np.divide(unseen_sum, unseen_count, out=np.zeros(ell), where=unseen_count > 0)
    placed = s + np.arange(len(only))
    best_fill = _depth_sums(np.maximum(top_only, placed), np.maximum(full_only, placed), in_window, ell)

    extra = np.where(seen, 0.0, (depth - s) * a_s * unseen_mean)
    agreement_ext = (overlap + extra) / denominator
    agreement_max = np.where(seen, agreement, (overlap + best_fill) / denominator)

    scale = (1 - p) / p
    tail_min = x_l * _log_series_tail(p, ell, float((weights / depth).sum()))
    tail_ext = (x_l + (ell - s) * a_s) / ell * p ** (ell + 1) / (1 - p)
    f = ell + s - x_l                                                   # where both could have matched everything
    beyond = np.arange(ell + 1, f + 1, dtype=np.float64)
    tail_max = float(((2 * beyond - ell - s + x_l) / beyond * p ** beyond).sum()) + p ** (f + 1) / (1 - p)
    low = scale * (float((agreement * weights).sum()) + tail_min)
    ext = scale * (float((agreement_ext * weights).sum()) + tail_ext)
    high = scale * (float((agreement_max * weights).sum()) + tail_max)
    return _unit(ext), _unit(low), _unit(high)


def _unit(value: float) -> float:
    """``value`` in [0, 1], where RBO lies: a sum that rounds to 1 + 2e-16 is 1."""
    return min(1.0, max(0.0, float(value)))


#: The most terms :func:`_log_series_tail` sums (p up to about 0.999995); beyond, the difference of logs.
MOST_TERMS = 1 << 23


def _log_series_tail(p: float, ell: int, head: float) -> float:
    """``sum_{d > l} p^d / d``, given ``head = sum_{d <= l} p^d / d``: summed term by term, smallest first,
    until the terms fall below 1e-17 of the first (``ln(1/(1-p)) - head`` would lose up to 1e-12 to
    cancellation for long lists)."""
    terms = math.ceil(math.log(1e-17) / math.log(p)) + 1
    if terms > MOST_TERMS:
        return max(0.0, math.log(1 / (1 - p)) - head)
    d = np.arange(ell + 1, ell + 1 + terms, dtype=np.float64)
    return float((p ** (ell + 1) * p ** (d - ell - 1) / d)[::-1].sum())


def _value(f: _Flat, rows: np.ndarray, d: np.ndarray, ties: str) -> np.ndarray:
    """The contribution of items ``rows`` of ``f`` at depth indices ``d`` (all at or after their top)."""
    if ties == 'w':
        return np.ones(len(rows))
    return np.where(d >= f.bottom[rows], 1.0, f.contribution(rows, d))
