"""Do two sets of judgments rank the same systems alike, and how sure is that?  The rank and linear correlations
of two leaderboards with bootstrap intervals over the topics, and the agreement among the top systems.

Each system (run) is ranked by its mean over the topics under each set of judgments (``a``: the reference,
people's qrels; ``b``: a judge's).  The two leaderboards are compared by Kendall's tau-b and tau_AP (``a`` the
reference) of :mod:`.rank_correlation`, RBO (:mod:`.rbo`), Spearman's rho (Pearson's r of the average ranks)
and Pearson's r of the means, and, among the ``top`` systems of ``a``, by Kendall's tau-b and the share of
``a``'s top ``top`` that are ``b``'s top ``top`` too: Clarke and Dietz (2024) find LLM judges agree less with
people on the order of the best systems than on the whole leaderboard.

The intervals are percentile bootstrap intervals over the topics (Efron and Tibshirani 1993, ch. 13): B
resamples of the n topics with replacement (the same resample for both sets of judgments, so that they stay
paired; the draws of :func:`irmetrics.compare`'s bootstrap), each giving both leaderboards and their
coefficients, whose ``(1-ci)/2`` and ``(1+ci)/2`` quantiles (numpy's ``inverted_cdf``) bound the
interval.  They say how much the agreement depends on which topics were judged, the systems fixed (the
question of a test collection: would other topics rank these systems alike?); a Fisher z interval would
instead treat the systems as a random sample from a normal population, which a leaderboard is not.  With
fewer topics than the bootstrap's fewest (:func:`~irmetrics.comparing.toolkit.bootstrap_fewest`: 7 for B =
1,000) a warning says the interval has a resolution it does not show; below 3 systems no coefficient is
defined (an error), and with few systems every coefficient is coarse (4 systems have 6 pairs).

C. L. A. Clarke and L. Dietz, "LLM-based relevance assessment still can't replace human relevance
assessment", arXiv:2412.17156, 2024; C. Spearman, "The proof and measurement of association between two
things", American Journal of Psychology 15, 1904; K. Pearson, "Notes on regression and inheritance in the case
of two parents", Proceedings of the Royal Society of London 58, 1895.
"""
from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..algebra.measure import Measure
from ..comparing.toolkit import bootstrap_fewest, bootstrap_means
from ..constraints import Float, Int, Option
from ..errors import InputError, OptionError, warn
from ..rendering.result import Table, Tabled
from .rank_correlation import kendall_tau, tau_ap, tau_statistic
from .rankings import FEWEST_ITEMS
from .system_agreement import SystemAgreement, agreement_of_means, settled

CI = Option('ci', Float(0, 1, low_open=True, high_open=True))
N_RESAMPLES = Option('n_resamples', Int(minimum=1, maximum=10 ** 7))
TOP = Option('top', Int(minimum=FEWEST_ITEMS))
#: With fewer systems than this, no top-k agreement is given by default (the top half holds under 3 systems).
TOP_FROM = 2 * FEWEST_ITEMS


class Correlation(NamedTuple):
    """One coefficient of the two leaderboards: its ``value`` and bootstrap interval (``ci_low``, ``ci_high``;
    NaN where none is given)."""

    statistic: str
    value: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True, eq=False)
class LeaderboardAgreement(Tabled):
    """The agreement of two leaderboards of the same systems (see the module docstring): ``systems`` (the
    :class:`~irmetrics.SystemAgreement`: each system's means and ranks, tau, tau_AP, RBO), ``correlations``
    (each coefficient with its interval), the ``topics`` they are over, ``top`` (None: no top-k agreement) and
    ``top_overlap``, and the bootstrap's settings (``ci``, ``n_resamples``, ``seed``)."""

    systems: SystemAgreement
    correlations: tuple[Correlation, ...]
    topics: int
    top: int | None
    top_overlap: float
    ci: float
    n_resamples: int
    seed: int

    def table(self, *, systems: bool = False) -> Table:
        """One row per coefficient, with its interval; ``systems``: each system's means and ranks instead."""
        if systems:
            found = self.systems.table(systems=True)
            return found._replace(heading='The systems under both')
        rows: list[list[Any]] = [[c.statistic, c.value, _shown(c.ci_low), _shown(c.ci_high)]
                                 for c in self.correlations]
        rows.append([f'RBO_EXT (p={self.systems.rbo.p:g})', self.systems.rbo.extrapolated, None, None])
        if self.top is not None:
            rows.append([f'top {self.top} overlap', self.top_overlap, None, None])
        return Table(['statistic', 'value', 'ci_low', 'ci_high'], rows, notes=self.notes(),
                     heading='Agreement of the leaderboards')

    def notes(self) -> str:
        """What the rows are: the systems, the topics, the reference and how the intervals were drawn."""
        top = ('' if self.top is None else f'; top {self.top}: the {self.top} best systems under a (tau-b among '
                                           f'them; overlap: the share of them in the top {self.top} under b)')
        return (f'{len(self.systems.systems)} systems ranked by their mean over {self.topics} topics; a (the '
                f'reference of tau_AP): {self.systems.label_a}; b: {self.systems.label_b}{top}; intervals: '
                f'{self.ci:.0%} percentile bootstrap over the topics, {self.n_resamples:,} resamples, seed '
                f'{self.seed}')

    def to_dict(self) -> dict[str, Any]:
        """The coefficients with their intervals, the top-k overlap, the settings and each system's means."""
        return {'correlations': {c.statistic: {'value': c.value, 'ci_low': c.ci_low, 'ci_high': c.ci_high}
                                 for c in self.correlations},
                'rbo': self.systems.rbo.to_dict(), 'top': self.top, 'top_overlap': self.top_overlap,
                'topics': self.topics, 'ci': self.ci, 'n_resamples': self.n_resamples, 'seed': self.seed,
                'label_a': self.systems.label_a, 'label_b': self.systems.label_b,
                'systems': self.systems.to_dict()['systems']}


def _shown(value: float) -> float | None:
    return None if math.isnan(value) else value


def leaderboard_agreement(names: list[str], values: tuple[np.ndarray, np.ndarray], measure: Measure,
                          labels: tuple[str, str], *, top: int | None, ci: float, n_resamples: int, seed: int,
                          tie_variant: str, p: float) -> LeaderboardAgreement:
    """The agreement of the leaderboards of the systems ``names`` whose per-topic values of ``measure`` under
    the two sets of judgments are ``values`` (each systems x topics, the same topics, every value a number);
    the options checked here but ``seed`` and ``tie_variant``."""
    ci, n_resamples = CI.check(ci), N_RESAMPLES.check(n_resamples)
    r, n = values[0].shape
    top = checked_top(top, r)
    if n < 2:
        raise InputError(f'the leaderboards are over {n} topic: intervals over the topics need two or more')
    if n < bootstrap_fewest(n_resamples):
        warn(f'the intervals are from {n} topics, fewer than the {bootstrap_fewest(n_resamples)} the bootstrap of '
             f'{n_resamples:,} resamples supports: they say less than they seem')
    means = (values[0].mean(axis=1), values[1].mean(axis=1))
    systems = agreement_of_means(names, means, (measure, measure), labels, p, tie_variant)
    sign = 1.0 if measure.definition.higher_is_better else -1.0
    stacked = np.concatenate(values).T                                    # topics x (systems under a, under b)
    drawn = bootstrap_means(stacked, np.ones(stacked.shape, dtype=bool), n_resamples, np.random.default_rng(seed),
                            sys.maxsize).held                             # held whole: resamples x 2 systems
    assert drawn is not None
    rep_a, rep_b = sign * settled(drawn[:, :r]), sign * settled(drawn[:, r:])
    observed_a, observed_b = sign * settled(means[0]), sign * settled(means[1])
    rows = [_correlation("Kendall's tau-b", systems.tau.statistic, _each(_tau, rep_a, rep_b), ci),
            _correlation(f'tau_AP ({tie_variant})', systems.tau_ap.statistic,
                         _each(_tau_ap(names, tie_variant), rep_a, rep_b), ci),
            _correlation("Spearman's rho", float(spearman(observed_a[None], observed_b[None])[0]),
                         spearman(rep_a, rep_b), ci),
            _correlation("Pearson's r", float(pearson(observed_a[None], observed_b[None])[0]),
                         pearson(rep_a, rep_b), ci)]
    overlap = math.nan
    if top is not None:
        best_a, best_b = _best(observed_a, top, labels[0]), _best(observed_b, top, labels[1])
        rows.append(_correlation(f"Kendall's tau-b (top {top})", _top_tau(names, observed_a, observed_b, best_a),
                                 _each(_tau, rep_a[:, best_a], rep_b[:, best_a]), ci))
        overlap = len(set(best_a.tolist()) & set(best_b.tolist())) / top
    return LeaderboardAgreement(systems, tuple(rows), n, top, overlap, ci, n_resamples, seed)


def checked_top(top: int | None, r: int) -> int | None:
    """How many of the best of ``r`` systems the top agreement is over (None: none); an error below 3 systems."""
    if r < FEWEST_ITEMS:
        raise InputError(f'{r} run{"s" if r != 1 else ""}: comparing leaderboards needs {FEWEST_ITEMS} runs or more '
                         f'(two are in the same order or not, whatever the judgments)')
    if top is None:
        return r // 2 if r >= TOP_FROM else None
    top = TOP.check(top)
    if top >= r:
        raise OptionError(f'top={top}: the top runs must be fewer than the {r} runs (the top {r} is every run, whose '
                          f'agreement the other rows give)')
    return top


def _best(ranked: np.ndarray, top: int, label: str) -> np.ndarray:
    """The ``top`` best systems of ``ranked`` (higher = better); a warning when the last of them ties the next."""
    order = np.argsort(-ranked, kind='stable')
    if ranked[order[top - 1]] == ranked[order[top]]:
        warn(f'under {label} the systems ranked {top} and {top + 1} tie: the top {top} is one of several '
             f'(the first given counts)')
    return np.sort(order[:top])


def _top_tau(names: list[str], a: np.ndarray, b: np.ndarray, best: np.ndarray) -> float:
    chosen = [names[i] for i in best]
    return kendall_tau(dict(zip(chosen, a[best].tolist(), strict=True)),
                       dict(zip(chosen, b[best].tolist(), strict=True))).statistic


def _correlation(name: str, value: float, replicates: np.ndarray, ci: float) -> Correlation:
    """``value`` with the percentile interval of its ``replicates`` (those that are defined; a warning says how
    many are not)."""
    defined = replicates[~np.isnan(replicates)]
    if len(defined) < len(replicates):
        warn(f'{name} is undefined in {len(replicates) - len(defined):,} of {len(replicates):,} resamples of the '
             f'topics (tied means), and its interval is from the other {len(defined):,}')
    if not len(defined):
        return Correlation(name, value, math.nan, math.nan)
    low, high = np.quantile(defined, [(1 - ci) / 2, (1 + ci) / 2], method='inverted_cdf')
    return Correlation(name, value, float(low), float(high))


def _each(statistic: Callable[[np.ndarray, np.ndarray], float], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``statistic`` of each resample (rows of ``a`` and ``b``)."""
    return np.array([statistic(x, y) for x, y in zip(a, b, strict=True)], dtype=np.float64)


def _tau(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b of one resample; NaN where one leaderboard ties every system."""
    return tau_statistic(x, y) if np.ptp(x) > 0 and np.ptp(y) > 0 else math.nan


def _tau_ap(names: list[str], tie_variant: str) -> Callable[[np.ndarray, np.ndarray], float]:
    """tau_AP of one resample; NaN where it is undefined (under ``'a'`` a reference with ties; under ``'b'`` a
    leaderboard tying every system)."""
    def one(x: np.ndarray, y: np.ndarray) -> float:
        undefined = len(np.unique(x)) < len(x) if tie_variant == 'a' else not (np.ptp(x) > 0 and np.ptp(y) > 0)
        if undefined:
            return math.nan
        return tau_ap(dict(zip(names, x.tolist(), strict=True)), dict(zip(names, y.tolist(), strict=True)),
                      tie_variant=tie_variant).statistic
    return one


def pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``x`` with the same row of ``y``: ``sum(dx dy) / sqrt(sum(dx^2) sum(dy^2))``
    with ``dx``, ``dy`` the deviations from the row's mean; NaN for a row without variance."""
    dx, dy = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    scale = np.sqrt((dx * dx).sum(axis=1) * (dy * dy).sum(axis=1))
    with np.errstate(invalid='ignore', divide='ignore'):
        return np.where(scale > 0, np.clip((dx * dy).sum(axis=1) / scale, -1.0, 1.0), np.nan)


def spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row: Pearson's r of the rows' ranks, tied values sharing their average rank."""
    from scipy.stats import rankdata
    return pearson(rankdata(x, axis=1), rankdata(y, axis=1))
