"""The fusion methods that need no training: each a formula over the candidates' scores or ranks in the runs.

For a candidate ``d`` of a query, ``s_i(d)`` is its (normalised) score in run ``i``, ``r_i(d)`` its rank
there (from 1), ``w_i`` run ``i``'s weight, ``R(d)`` the runs that rank ``d`` and ``|R(d)|`` how many, ``C``
the candidates of the query and ``n_i`` the length of run ``i``'s ranking.  A run that does not rank ``d``
adds nothing to a sum (its score counts as 0, as Fox & Shaw's CombSUM has it); the methods over ``R(d)``
(CombMAX, CombMIN, CombMED, CombANZ, the MNZ family) read only the runs that rank it.  The names are
ranx's (``irmetrics fuse --list``); the fused run is ranked by trec_eval's rule (score descending, ties by
document id descending).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..constraints import Constraint, Float
from .candidates import Candidates, Ranked
from .condorcet import condorcet_points

Combine = Callable[[Candidates, tuple[Ranked, ...], np.ndarray, dict[str, Any]], np.ndarray]


@dataclass(frozen=True)
class Method:
    """A fusion method: its name, its formula and citation, its parameters (name -> (default, constraint)),
    whether it takes one weight a run, whether it reads only ranks (then no normalisation by default),
    and the function that computes it."""

    name: str
    formula: str
    citation: str
    combine: Combine
    params: dict[str, tuple[Any, Constraint]] = field(default_factory=dict)
    weighted: bool = False
    by_rank: bool = False
    trained: bool = False

    @property
    def default_norm(self) -> str | None:
        """``None`` for a method that reads ranks only, else ranx's default, min-max."""
        return None if self.by_rank else 'min-max'


def total(candidates: Candidates, values: tuple[np.ndarray, ...], runs: tuple[Ranked, ...],
          weights: np.ndarray | None = None) -> np.ndarray:
    """Per candidate, the sum over the runs ranking it of ``values[i]`` (weighted by ``weights[i]``), the runs
    added in their order (0 + v_1 + v_2 + ...: the order of Python's ``sum``)."""
    out = np.zeros(len(candidates))
    for i, (run, v) in enumerate(zip(runs, values, strict=True)):
        out[run.at] += v if weights is None else weights[i] * v
    return out


def _scores(runs: tuple[Ranked, ...]) -> tuple[np.ndarray, ...]:
    return tuple(run.scores for run in runs)


def _extreme(candidates: Candidates, runs: tuple[Ranked, ...], ufunc: np.ufunc, start: float) -> np.ndarray:
    out = np.full(len(candidates), start)
    for run in runs:
        out[run.at] = ufunc(out[run.at], run.scores)
    return out


def _median(candidates: Candidates, runs: tuple[Ranked, ...]) -> np.ndarray:
    return cast(np.ndarray, np.nanmedian(candidates.dense(runs, np.nan), axis=1))


def _borda(candidates: Candidates, runs: tuple[Ranked, ...], weights: np.ndarray | None = None) -> np.ndarray:
    """The (weighted) sum of each run's Borda points for every candidate of its queries: ``C - r + 1`` for a
    document it ranks, ``(C - n + 1) / 2`` for one it does not (the points left over, shared)."""
    c = candidates.per_query().astype(np.float64)
    out = np.zeros(len(candidates))
    for i, run in enumerate(runs):
        points = (c - candidates.lengths_of(run) + 1) / 2
        points[run.at] = c[run.at] - run.ranks + 1
        out += points if weights is None else weights[i] * points
    return out


def _isr(runs: tuple[Ranked, ...]) -> tuple[np.ndarray, ...]:
    return tuple(1 / run.ranks.astype(np.float64) ** 2 for run in runs)


def _rbc(runs: tuple[Ranked, ...], phi: float) -> tuple[np.ndarray, ...]:
    return tuple((1 - phi) * phi ** (run.ranks - 1).astype(np.float64) for run in runs)


_W = ' w_i'
_FOX_SHAW = 'Fox & Shaw, "Combination of multiple searches", TREC-2 (1994)'
_ISR = 'Mourao et al., "Inverse square rank fusion for multimodal search", CBMI 2014'

#: every method that needs no training, by name
METHODS: dict[str, Method] = {m.name: m for m in [
    Method('comb_sum', 'sum over i in R(d) of s_i(d)', _FOX_SHAW,
           lambda c, runs, w, p: total(c, _scores(runs), runs)),
    Method('comb_mnz', '|R(d)| * sum over i in R(d) of s_i(d)', _FOX_SHAW,
           lambda c, runs, w, p: total(c, _scores(runs), runs) * c.counts(runs)),
    Method('comb_max', 'max over i in R(d) of s_i(d)', _FOX_SHAW,
           lambda c, runs, w, p: _extreme(c, runs, np.maximum, -np.inf)),
    Method('comb_min', 'min over i in R(d) of s_i(d)', _FOX_SHAW,
           lambda c, runs, w, p: _extreme(c, runs, np.minimum, np.inf)),
    Method('comb_med', 'median over i in R(d) of s_i(d)', _FOX_SHAW, lambda c, runs, w, p: _median(c, runs)),
    Method('comb_anz', 'sum over i in R(d) of s_i(d) / |R(d)|', _FOX_SHAW,
           lambda c, runs, w, p: total(c, _scores(runs), runs) / c.counts(runs)),
    Method('comb_gmnz', '|R(d)|^gamma * sum over i in R(d) of s_i(d)',
           'Joon Ho Lee, "Analyses of multiple evidence combination", SIGIR 1997',
           lambda c, runs, w, p: total(c, _scores(runs), runs) * c.counts(runs).astype(np.float64) ** p['gamma'],
           {'gamma': (1.0, Float(0.0))}),
    Method('wsum', 'sum over runs i of' + _W + ' s_i(d)',
           'Bartell et al., "Automatic combination of multiple ranked retrieval systems", SIGIR 1994',
           lambda c, runs, w, p: total(c, _scores(runs), runs, w), weighted=True),
    Method('mixed', 'sqrt(|R(d)|) * sum over i in R(d) of' + _W + ' s_i(d)',
           'Wu, "Data fusion in information retrieval", Springer 2012 (the mixed combination)',
           lambda c, runs, w, p: total(c, _scores(runs), runs, w) * np.sqrt(c.counts(runs)), weighted=True),
    Method('wmnz', '(sum over i in R(d) of w_i) * sum over i in R(d) of s_i(d)',
           'Wu, "Data fusion in information retrieval", Springer 2012 (weighted MNZ)',
           lambda c, runs, w, p: total(c, _scores(runs), runs)
           * total(c, tuple(np.ones(len(r.at)) for r in runs), runs, w), weighted=True),
    Method('rrf', 'sum over i in R(d) of 1 / (k + r_i(d))',
           'Cormack, Clarke & Buettcher, "Reciprocal rank fusion outperforms Condorcet and individual rank '
           'learning methods", SIGIR 2009',
           lambda c, runs, w, p: total(c, tuple(1 / (p['k'] + run.ranks) for run in runs), runs),
           {'k': (60.0, Float(0.0))}, by_rank=True),
    Method('isr', '|R(d)| * sum over i in R(d) of 1 / r_i(d)^2', _ISR,
           lambda c, runs, w, p: total(c, _isr(runs), runs) * c.counts(runs), by_rank=True),
    Method('log_isr', 'log(|R(d)|) * sum over i in R(d) of 1 / r_i(d)^2', _ISR,
           lambda c, runs, w, p: total(c, _isr(runs), runs) * np.log(c.counts(runs)), by_rank=True),
    Method('logn_isr', 'log(|R(d)| + sigma) * sum over i in R(d) of 1 / r_i(d)^2', _ISR,
           lambda c, runs, w, p: total(c, _isr(runs), runs) * np.log(c.counts(runs) + p['sigma']),
           {'sigma': (0.01, Float(0.0, 1.0))}, by_rank=True),
    Method('rbc', 'sum over i in R(d) of (1 - phi) phi^(r_i(d) - 1)',
           'Bailey et al., "Retrieval consistency in the presence of query variations", SIGIR 2017',
           lambda c, runs, w, p: total(c, _rbc(runs, p['phi']), runs),
           {'phi': (0.8, Float(0.0, 1.0, low_open=True, high_open=True))}, by_rank=True),
    Method('bordafuse', 'sum over runs i of (C - r_i(d) + 1), or (C - n_i + 1) / 2 where run i does not rank d',
           'Aslam & Montague, "Models for metasearch", SIGIR 2001',
           lambda c, runs, w, p: _borda(c, runs),
           by_rank=True),
    Method('w_bordafuse', 'sum over runs i of w_i times the Borda points of bordafuse',
           'Aslam & Montague, "Models for metasearch", SIGIR 2001',
           lambda c, runs, w, p: _borda(c, runs, w),
           weighted=True, by_rank=True),
    Method('condorcet', 'C - position in the order of pairwise majorities: d before e when more runs rank d above '
           'e than e above d (a run ranking one of them ranks it above the other)',
           'Montague & Aslam, "Condorcet fusion for improved retrieval", CIKM 2002',
           lambda c, runs, w, p: condorcet_points(c, runs, np.ones(len(runs))), by_rank=True),
    Method('w_condorcet', 'condorcet with each run voting w_i',
           'Montague & Aslam, "Condorcet fusion for improved retrieval", CIKM 2002',
           lambda c, runs, w, p: condorcet_points(c, runs, w), weighted=True, by_rank=True),
]}

#: other spellings of the methods' names (ranx's fuse names and its functions' names)
ALIASES = {'sum': 'comb_sum', 'mnz': 'comb_mnz', 'max': 'comb_max', 'min': 'comb_min', 'med': 'comb_med',
           'anz': 'comb_anz', 'gmnz': 'comb_gmnz', 'weighted_sum': 'wsum', 'weighted_bordafuse': 'w_bordafuse',
           'weighted_condorcet': 'w_condorcet', 'combsum': 'comb_sum', 'combmnz': 'comb_mnz',
           'reciprocal_rank_fusion': 'rrf'}
