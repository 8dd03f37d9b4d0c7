"""Rank correlation of two rankings: Kendall's tau-b and the AP correlation tau_AP (with ties).

Both take two rankings, each a mapping ``{item: value}`` (higher = better; equal values tie) or a
sequence of items best first (:mod:`.rankings`), and correlate the items they share (a warning says
how many were left out; no common item is an error).  Fewer than three common items give NaN and
an :class:`~irmetrics.IrmetricsWarning`: two items make one pair, +1 or -1 whatever the rankings.
Pairs are counted with n x n sign matrices (vectorised; n is a number of systems or a ranking's depth)
up to :data:`PAIRWISE_UP_TO` items; Kendall's tau of longer rankings is scipy's (O(n log n)), and tau_AP
refuses rankings longer than :data:`TAU_AP_UP_TO` (its n x n tables would not fit).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..constraints import Choice, Option
from ..errors import InputError, warn
from ..rendering.result import Table, Tabled
from .rankings import enough, paired

#: Urbano & Marrero's variants of tau_AP: 'a' (accuracy: the reference has no ties), 'b' (agreement)
TIE_VARIANT = Option('tie_variant', Choice('a', 'b'))

#: Kendall's exact null distribution is used without ties up to this many items (scipy's rule).
EXACT_UP_TO = 33
#: Kendall's tau counts pairs in n x n tables up to this many items, and through scipy.stats.kendalltau
#: (Knight's O(n log n) algorithm, the same statistic and p-value) beyond.
PAIRWISE_UP_TO = 500
#: The longest rankings tau_AP compares (two n x n tables of booleans: 800 MB at 20,000 items).
TAU_AP_UP_TO = 20000


@dataclass(frozen=True)
class KendallTau(Tabled):
    """Kendall's tau-b of two rankings: ``statistic``, its two-sided ``pvalue`` (as scipy.stats.kendalltau
    gives it: exact without ties for n <= 33, else the normal approximation with the ties-corrected
    variance) and ``n``, the number of items both rankings hold."""

    statistic: float
    pvalue: float
    n: int

    def __repr__(self) -> str:
        return f'KendallTau(statistic={self.statistic:.4f}, pvalue={self.pvalue:.4g}, n={self.n})'

    def table(self) -> Table:
        return Table(['statistic', 'pvalue', 'n'], [[self.statistic, self.pvalue, self.n]], numeric_from=0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TauAP(Tabled):
    """The AP correlation of an estimated ranking with a reference: ``statistic``, ``n`` (items both
    hold) and ``tie_variant`` (``'a'`` or ``'b'``, Urbano & Marrero's variant; both equal Yilmaz et al.'s
    tau_AP, or its symmetric mean for ``'b'``, when nothing ties)."""

    statistic: float
    n: int
    tie_variant: str

    def __repr__(self) -> str:
        return f'TauAP(statistic={self.statistic:.4f}, n={self.n}, tie_variant={self.tie_variant!r})'

    def table(self) -> Table:
        return Table(['statistic', 'n', 'tie_variant'], [[self.statistic, self.n, self.tie_variant]], numeric_from=0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def kendall_tau(a: Any, b: Any) -> KendallTau:
    """Kendall's tau-b between rankings ``a`` and ``b`` (symmetric).

    ``tau_b = (n_c - n_d) / sqrt((n_0 - n_1) (n_0 - n_2))`` over the ``n_0 = n(n-1)/2`` pairs of the
    ``n`` common items: ``n_c`` concordant pairs, ``n_d`` discordant ones, ``n_1`` (``n_2``) pairs tied in
    ``a`` (``b``).  Without ties it is Kendall's tau, ``(n_c - n_d) / n_0``: +1 for identical rankings,
    -1 for reversed ones.  The p-value tests tau = 0: exactly (the distribution of inversions of a
    random permutation) without ties for ``n <= 33`` or when at most one pair is discordant (or
    concordant), else through the normal approximation with Kendall's variance corrected for ties
    (as scipy.stats.kendalltau, ``method='auto'``).

    Fewest items: without ties the smallest two-sided p-value of ``n`` items is ``2/n!``, so 4 systems
    are never significant at 0.05 (2/24 = 0.083) and 5 are at best at 2/120 = 0.017.

    NaN with a warning for fewer than 3 common items, or when one ranking ties every item.

    Parameters
    ----------
    a, b : mapping or sequence
        Mappings ``{item: value}`` (higher = better) or sequences of items, best first; the items both
        hold are correlated.

    Returns
    -------
    KendallTau
        ``statistic`` (tau-b), ``pvalue`` and ``n``, the common items.

    References
    ----------
    M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938; "The treatment of ties in
    ranking problems", Biometrika 33(3), 1945 (tau-b); M. G. Kendall, Rank Correlation Methods, 1970
    (the variance with ties).

    Examples
    --------
    >>> irmetrics.kendall_tau(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'e', 'd'])
    KendallTau(statistic=0.8000, pvalue=0.08333, n=5)
    """
    items, x, y = paired(a, b)
    n = len(items)
    if not enough(n, "Kendall's tau"):
        return KendallTau(math.nan, math.nan, n)
    if n > PAIRWISE_UP_TO:
        return _long_kendall_tau(x, y)
    score, pairs, tx, ty, tied_x, tied_y = _pair_counts(x, y)
    if tied_x == pairs or tied_y == pairs:
        warn("Kendall's tau is NaN: one ranking ties every item")
        return KendallTau(math.nan, math.nan, n)
    tau = min(1.0, max(-1.0, score / math.sqrt((pairs - tied_x) * (pairs - tied_y))))   # exact 1 for equal ones
    discordant = (pairs - score) // 2 if not (tied_x or tied_y) else -1
    if discordant >= 0 and (n <= EXACT_UP_TO or min(discordant, pairs - discordant) <= 1):
        p = _exact_p(n, min(discordant, pairs - discordant))
    else:
        p = _normal_p(score, n, tx, ty)
    return KendallTau(tau, p, n)


def tau_ap(reference: Any, estimate: Any, *, tie_variant: str = 'a') -> TauAP:
    """The AP correlation of ``estimate`` with ``reference`` (the true ranking): asymmetric.

    Without ties (Yilmaz et al.): walking down the estimated ranking, each item at rank ``i > 1`` counts
    ``C(i)``, the items above it in the estimate that the reference ranks above it too, and
    ``tau_AP = 2/(n-1) * sum_{i=2..n} C(i)/(i-1) - 1``: +1 for identical rankings, -1 for reversed
    ones; swaps near the top of the estimate cost more than swaps near the bottom.

    Ties (Urbano & Marrero):

    * ``tie_variant='a'`` (accuracy; default): the reference has no ties (an error otherwise), and tau_AP_a is
      the expected tau_AP over every order of the estimate's tied items: an item of a tie group at
      ranks ``p..p+t-1`` counts the concordant items above its group with the mean of ``1/(r-1)`` over
      those ranks, and each pair inside a group counts 1/2.
    * ``tie_variant='b'`` (agreement; symmetric): ties mean equality in either ranking;
      ``tau_AP_b = (tau_AP_b(x|y) + tau_AP_b(y|x)) / 2``, each direction summing, over the items below
      the top group of one ranking, the items strictly above it in both divided by ``p - 1`` (``p``: the
      best rank of its tie group), and normalised by the number of such items.  Without ties it is
      the mean of tau_AP in both directions, not tau_AP itself.

    NaN with a warning for fewer than 3 common items (or, for ``'b'``, when a ranking ties every item).

    Parameters
    ----------
    reference : mapping or sequence
        The true ranking: a mapping ``{item: value}`` (higher = better) or a sequence of items, best
        first.
    estimate : mapping or sequence
        The ranking compared with it, in the same forms; the items both hold are correlated.
    tie_variant : str
        ``'a'`` or ``'b'``, as above.

    Returns
    -------
    TauAP
        ``statistic``, ``n`` (the common items) and the ``tie_variant``.

    Raises
    ------
    InputError
        Under ``'a'``, for a reference ranking with ties.

    References
    ----------
    E. Yilmaz, J. A. Aslam and S. Robertson, "A new rank correlation coefficient for information
    retrieval", SIGIR 2008; J. Urbano and M. Marrero, "The treatment of ties in AP correlation", ICTIR 2017.

    Examples
    --------
    A swap at the top of the estimate costs more than the same swap at the bottom:

    >>> truth = ['a', 'b', 'c', 'd', 'e']
    >>> [irmetrics.tau_ap(truth, list(estimate)).statistic for estimate in ('bacde', 'abced')]
    [0.5, 0.875]
    """
    ties = TIE_VARIANT.check(tie_variant)
    items, x, y = paired(reference, estimate, ('reference', 'estimate'))
    n = len(items)
    if not enough(n, 'tau_AP'):
        return TauAP(math.nan, n, ties)
    if n > TAU_AP_UP_TO:
        raise InputError(f'tau_ap: {n:,} items in common; tau_AP counts their pairs in n x n tables, at most '
                         f'{TAU_AP_UP_TO:,} items: compare the top {TAU_AP_UP_TO:,} of each ranking (tau_AP weighs '
                         f'the top most) or use kendall_tau')
    if ties == 'a':
        if _tie_sizes(x).max() > 1:
            raise InputError("tau_ap: the reference ranking has ties; tau_AP_a (tie_variant='a') reads the reference "
                             "as the truth, without ties: use tie_variant='b' (irmetrics agree --tie-variant b: ties "
                             'in either ranking mean equality)')
        return TauAP(_tau_ap_a(x, y), n, ties)
    forward, backward = _tau_ap_b_one_way(x, y), _tau_ap_b_one_way(y, x)
    if math.isnan(forward) or math.isnan(backward):
        warn('tau_AP_b is NaN: one ranking ties every item')
    return TauAP((forward + backward) / 2, n, ties)


def _long_kendall_tau(x: np.ndarray, y: np.ndarray) -> KendallTau:
    """Kendall's tau-b of long rankings by scipy (the statistic and p-value of :func:`kendall_tau`)."""
    statistic, pvalue = _scipy_tau(x, y)
    if math.isnan(statistic):
        warn("Kendall's tau is NaN: one ranking ties every item")
        return KendallTau(math.nan, math.nan, len(x))
    return KendallTau(statistic, pvalue, len(x))


def _scipy_tau(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """scipy's tau-b and p-value, exactly +1 (-1) where the rankings order every pair alike (oppositely), as
    the pair counts give it (scipy's division can leave 1 - 1e-16)."""
    from scipy.stats import kendalltau
    result = kendalltau(x, y)
    statistic = min(1.0, max(-1.0, float(result.statistic)))
    order_x = np.unique(x, return_inverse=True)[1]
    if np.array_equal(order_x, np.unique(y, return_inverse=True)[1]):
        statistic = 1.0
    elif np.array_equal(order_x, np.unique(-y, return_inverse=True)[1]):
        statistic = -1.0
    return statistic, float(result.pvalue)


def tau_statistic(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b of two arrays of values of the same items (3 or more; not every one tied)."""
    if len(x) > PAIRWISE_UP_TO:
        return _scipy_tau(x, y)[0]
    score, pairs, _, _, tied_x, tied_y = _pair_counts(x, y)
    return min(1.0, max(-1.0, score / math.sqrt((pairs - tied_x) * (pairs - tied_y))))


def _pair_counts(x: np.ndarray, y: np.ndarray) -> tuple[int, int, np.ndarray, np.ndarray, int, int]:
    """``n_c - n_d``, the pairs ``n_0``, the tie group sizes of ``x`` and ``y`` and the pairs tied in each."""
    pairs = len(x) * (len(x) - 1) // 2
    score = int((_signs(x) * _signs(y)).sum(dtype=np.int64)) // 2         # n_c - n_d (each pair counted twice)
    tx, ty = _tie_sizes(x), _tie_sizes(y)
    return score, pairs, tx, ty, int((tx * (tx - 1) // 2).sum()), int((ty * (ty - 1) // 2).sum())


def _signs(v: np.ndarray) -> np.ndarray:
    """``sign(v_i - v_j)`` for every pair, as int8 (n x n)."""
    return (v[:, None] > v[None, :]).view(np.int8) - (v[:, None] < v[None, :]).view(np.int8)


def _tie_sizes(v: np.ndarray) -> np.ndarray:
    return np.unique(v, return_counts=True)[1].astype(np.int64)


def _exact_p(n: int, c: int) -> float:
    """Two-sided exact p-value: twice the probability that a random permutation of ``n`` items has at
    most ``c`` inversions (the number of inversions is a sum of independent uniforms on {0..j-1}, j =
    1..n, convolved here as probabilities, truncated at ``c``)."""
    dist = np.zeros(c + 1)
    dist[0] = 1.0
    for j in range(2, n + 1):
        window = np.cumsum(dist)
        shifted = np.concatenate((np.zeros(j), window))[:c + 1]        # sum of dist[k-j+1..k]
        dist = (window - shifted) / j
    return float(min(1.0, 2.0 * dist.sum()))


def _normal_p(score: int, n: int, tx: np.ndarray, ty: np.ndarray) -> float:
    """Two-sided p-value of ``n_c - n_d`` by the normal approximation, with the variance of Kendall
    (1970, eq. 4.4) for ties in both rankings."""
    from scipy.special import ndtr
    m = n * (n - 1.0)
    x0, y0 = float((tx * (tx - 1) * (tx - 2)).sum()), float((ty * (ty - 1) * (ty - 2)).sum())
    x1, y1 = float((tx * (tx - 1) * (2 * tx + 5)).sum()), float((ty * (ty - 1) * (2 * ty + 5)).sum())
    xt, yt = float((tx * (tx - 1)).sum()) / 2, float((ty * (ty - 1)).sum()) / 2
    var = (m * (2 * n + 5) - x1 - y1) / 18 + 2 * xt * yt / m + x0 * y0 / (9 * m * (n - 2))
    return float(2 * ndtr(-abs(score) / math.sqrt(var)))


def _above(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item: how many items ``y`` ranks strictly above it that ``x`` ranks strictly above it too, and
    its tie group's best rank in ``y`` (1 + the items strictly above it)."""
    above_y = y[None, :] > y[:, None]
    both = (above_y & (x[None, :] > x[:, None])).sum(axis=1)
    return both, 1 + above_y.sum(axis=1)


def _harmonic(n: int) -> np.ndarray:
    """``H[m] = 1 + 1/2 + ... + 1/m`` for m = 0..n."""
    return np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, n + 1))))


def _tau_ap_a(x: np.ndarray, y: np.ndarray) -> float:
    n = len(x)
    concordant, p = _above(x, y)
    _, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    t = counts[inverse]
    h = _harmonic(n)
    below_top = p >= 2
    pb, tb = p[below_top], t[below_top]
    # mean of 1/(r-1) over the ranks r = p..p+t-1 of the group (exactly 1/(p-1) for an untied item)
    mean_weight = np.where(tb == 1, 1.0 / (pb - 1), (h[pb + tb - 2] - h[pb - 2]) / tb)
    above = float((concordant[below_top] * mean_weight).sum())
    # each item's share of the pairs inside its group: (1/(2t)) sum_{k=1}^{t-1} k/(p+k-1)
    within = ((t - 1) - (p - 1) * (h[p + t - 2] - h[p - 1])) / (2 * t)
    return 2.0 * (above + float(within.sum())) / (n - 1) - 1.0


def _tau_ap_b_one_way(x: np.ndarray, y: np.ndarray) -> float:
    concordant, p = _above(x, y)
    below_top = p >= 2
    if not below_top.any():
        return math.nan
    return 2.0 * float((concordant[below_top] / (p[below_top] - 1)).sum()) / int(below_top.sum()) - 1.0
