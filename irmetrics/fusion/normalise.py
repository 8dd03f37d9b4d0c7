"""Score normalisations: each run's scores for a query put on one scale before the runs are combined.

Each is computed per run and per query over the documents the run ranks for it, with the definitions
of the fusion literature (Lee, SIGIR 1997 for min-max, sum and z-scores; Montague & Aslam, CIKM 2001
for min-max and z-scores in fusion; Renda & Straccia, SAC 2003 for rank and Borda normalisation) and
ranx's convention for a degenerate query: a denominator smaller than 1e-9 (every score equal, a sum or a
maximum of 0) is taken as 1e-9, so that such a query's documents all get one finite value.

``x`` is a score, ``min``, ``max``, ``sum``, ``mean`` and ``std`` (population) are over the run's scores
for the query, ``n`` its number of documents, ``r`` a document's rank in it (from 1), ``C`` the number
of candidates of the query (documents ranked by any of the runs):

=================== ==================================================================================
``min-max``         ``(x - min) / (max - min)``
``min-max-inverted`` ``(max - x) / (max - min)``: for distances, where less is better (re-ranked)
``max``             ``x / max``
``sum``             ``(x - min) / (sum - n min)``
``zmuv``            ``(x - mean) / std`` (zero mean, unit variance)
``rank``            ``1 - (r - 1) / n``
``borda``           ``1 - (r - 1) / C``; a candidate the run does not rank gets ``1/2 - (n - 1) / (2C)``,
                    the mean of the points left over, so every run then scores every candidate
=================== ==================================================================================
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import InputError
from .candidates import Candidates, Ranked, ranked_by

#: the smallest denominator of a normalisation (ranx's)
_FLOOR = 1e-9


def _ends(run: Ranked) -> np.ndarray:
    return np.append(run.starts[1:], len(run.at)) - 1


def _min_max(candidates: Candidates, run: Ranked) -> Ranked:
    top, bottom = run.per_ranking(run.scores[run.starts]), run.per_ranking(run.scores[_ends(run)])
    return run.with_scores((run.scores - bottom) / np.maximum(top - bottom, _FLOOR))


def _min_max_inverted(candidates: Candidates, run: Ranked) -> Ranked:
    top, bottom = run.per_ranking(run.scores[run.starts]), run.per_ranking(run.scores[_ends(run)])
    return ranked_by(candidates, run.at, (top - run.scores) / np.maximum(top - bottom, _FLOOR))


def _max(candidates: Candidates, run: Ranked) -> Ranked:
    return run.with_scores(run.scores / np.maximum(run.per_ranking(run.scores[run.starts]), _FLOOR))


def _sum(candidates: Candidates, run: Ranked) -> Ranked:
    bottom = run.per_ranking(run.scores[_ends(run)])
    total = run.per_ranking(np.add.reduceat(run.scores, run.starts)) if len(run.at) else run.scores
    return run.with_scores((run.scores - bottom) / np.maximum(total - bottom * run.lengths, _FLOOR))


def _zmuv(candidates: Candidates, run: Ranked) -> Ranked:
    if not len(run.at):
        return run
    mean = run.per_ranking(np.add.reduceat(run.scores, run.starts)) / run.lengths
    std = np.sqrt(run.per_ranking(np.add.reduceat((run.scores - mean) ** 2, run.starts)) / run.lengths)
    return run.with_scores((run.scores - mean) / np.maximum(std, _FLOOR))


def _rank(candidates: Candidates, run: Ranked) -> Ranked:
    return run.with_scores(1 - (run.ranks - 1) / run.lengths)


def _borda(candidates: Candidates, run: Ranked) -> Ranked:
    """Borda points scaled to [0, 1], every candidate of the run's queries included (module docstring)."""
    c = candidates.per_query().astype(np.float64)
    scores = 0.5 - (candidates.lengths_of(run) - 1) / (2 * c)
    scores[run.at] = 1 - (run.ranks - 1) / c[run.at]
    return ranked_by(candidates, np.arange(len(candidates)), scores)


#: the normalisations by name (``None`` and ``'none'``: the scores as they are)
NORMALISATIONS: dict[str, Callable[[Candidates, Ranked], Ranked]] = {
    'min-max': _min_max, 'min-max-inverted': _min_max_inverted, 'max': _max, 'sum': _sum, 'zmuv': _zmuv,
    'rank': _rank, 'borda': _borda}
#: other spellings (ranx's underscores)
_ALIASES = {'min_max': 'min-max', 'min_max_inverted': 'min-max-inverted', 'minmax': 'min-max'}


def normalisation(name: str | None) -> Callable[[Candidates, Ranked], Ranked] | None:
    """The normalisation called ``name`` (None for none), or an error listing them."""
    if name is None or name == 'none':
        return None
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    if key not in NORMALISATIONS:
        raise InputError(f'norm={name!r} is no normalisation irmetrics knows: one of '
                         f'{", ".join(repr(k) for k in NORMALISATIONS)} or None')
    return NORMALISATIONS[key]


def normalised(candidates: Candidates, name: str | None) -> tuple[Ranked, ...]:
    """Every run of ``candidates`` normalised by ``name``."""
    norm = normalisation(name)
    return candidates.runs if norm is None else tuple(norm(candidates, run) for run in candidates.runs)
