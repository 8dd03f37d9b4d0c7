"""The fusion methods trained on judged queries: each run's documents scored by how often the same system
ranked a relevant document at the same place on other queries.

A trained method is given the runs to fuse and, with ``train=(qrels, runs)``, the same systems' runs on
training queries with their judgments.  The training queries are the queries of the training runs that the
training qrels judge (a query the qrels judge but no training run ranks is no training query, so the qrels
of every query may be given; a training run missing a training query ranks nothing for it).  A document is
relevant when its grade is 1 or more, as for trec_eval and ranx.  The training runs are normalised like the
runs to fuse (``norm``), so that both are read in the same order (``min-max-inverted`` reverses both).

Estimates from a query's own judgments overstate how well a fusion does on it, so a query to fuse may not
be a training query unless ``in_sample=True`` says it is meant.

For run ``i`` and a training query ``q`` of the ``|Q|``, ``h_iq(r)`` is 1 when the document at rank ``r``
of run ``i``'s ranking of ``q`` is relevant and ``n_iq`` the length of that ranking; on the runs to fuse,
``r_i(d)`` is the rank of ``d`` in run ``i``, ``n_i`` the length of that ranking and ``s_i(d)`` its
(normalised) score; ``R(d)`` are the runs that rank ``d``.  The definitions and ranx's (0.3.21) agree, with
these precisions where ranx's are read from its arrays: a position no training query reaches scores 0
(PosFuse, SlideFuse), SegFuse's segments end at ranks ``10 * 2^(k-1) - 5`` (ranx's reading of Shokouhi's
sizes) and score 0 beyond the tenth (rank 5115), BayesFuse reads a rank beyond its last band (1000) as a
document the run does not rank (ranx reads past its array there), and BayesFuse's precision of a band is
the exact ratio of its hits to its places (ranx adds shares of ``1/|Q|``, whose rounding can leave a band
where every document is relevant just under 1).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..api.calc import evaluator
from ..constraints import Int
from ..data.inputs import to_qrels, to_run
from ..data.judged_pairs import judgment_rows
from ..data.qrels import Qrels
from ..data.run import Run
from ..errors import InputError, OptionError
from .candidates import Candidates, Ranked, candidates_of
from .methods import Combine, Method, total
from .normalise import normalised

#: where SegFuse's segments start and end (0-based positions): ranks 1-5, 6-15, 16-35, ... (10 * 2^(k-1) - 5)
_SEGMENTS = np.array([0] + [10 * 2 ** (k - 1) - 5 for k in range(1, 11)])
#: where BayesFuse's bands of ranks start and end (0-based positions): 1-5, 6-10, ..., 501-1000
_BANDS = np.array([0, 5, 10, 15, 20, 30, 100, 200, 500, 1000])
#: BayesFuse's floor of a precision (and of its complement); a document a run does not rank has its log odds
_FLOOR = 0.001
_UNRANKED = float(np.log(_FLOOR / (1 - _FLOOR)))
#: the key of the training in the parameters a trained method's ``combine`` reads
TRAINING = 'training'


@dataclass(frozen=True)
class Training:
    """Each training run's rows of the training queries, in ranked order query by query: ``query`` the
    training query (0 to ``num_queries - 1``), ``ranks`` from 1, ``lengths`` its ranking's length, ``hits`` 1.0
    where the document is relevant; ``qrels`` the judgments of the training queries (their order) and
    ``rankings`` each training run as the fusion reads it (for MAPFuse's average precision)."""

    query: tuple[np.ndarray, ...]
    ranks: tuple[np.ndarray, ...]
    lengths: tuple[np.ndarray, ...]
    hits: tuple[np.ndarray, ...]
    num_queries: int
    qrels: Qrels
    rankings: tuple[Run, ...]


def trained_scores(method: Method, candidates: Candidates, runs: tuple[Ranked, ...], norm: str | None,
                   params: dict[str, Any], train: Any, names: list[str], in_sample: bool = False) -> np.ndarray:
    """Every candidate's score by the trained ``method``, trained on ``train`` = (qrels, runs) with the runs
    normalised by ``norm`` (module docstring)."""
    if train is None:
        raise OptionError(f'{method.name} is trained on judged queries: give train=(qrels, runs), the judgments '
                          f'of training queries and the same systems\' runs on them (as many runs, in the same order '
                          f'or with the same names as the runs to fuse)')
    missing = [k for k, v in params.items() if v is None]
    if missing:
        raise OptionError(f'{method.name} needs {missing[0]}=: {method.params[missing[0]][1].description}')
    training = training_of(train, names, norm, candidates, in_sample)
    return method.combine(candidates, runs, np.zeros(0), {**params, TRAINING: training})


def training_of(train: Any, names: list[str], norm: str | None, fused: Candidates, in_sample: bool) -> Training:
    """The :class:`Training` of ``train`` = (qrels, runs) for the runs ``names`` whose candidates are ``fused``."""
    if not isinstance(train, (tuple, list)) or len(train) != 2:
        raise OptionError(f'train: (qrels, runs), the judgments of the training queries and the runs on them; got '
                          f'{type(train).__name__}{f" of {len(train)}" if isinstance(train, (tuple, list)) else ""}')
    qrels = to_qrels(train[0])
    candidates = candidates_of(_training_runs(train[1], names))
    judged = candidates.query_ids.lookup(qrels.query_ids)
    queries = np.flatnonzero(judged >= 0)
    if len(queries) == 0:
        raise InputError(f'train: the training qrels judge none of the training runs\' queries '
                         f'({_examples(candidates.query_ids.take(np.arange(candidates.num_queries)))}): '
                         f'nothing to train on')
    ids = candidates.query_ids.take(queries)
    overlap = np.flatnonzero(fused.query_ids.lookup(ids) >= 0)
    if len(overlap) and not in_sample:
        raise InputError(f'train: {len(overlap)} of the {fused.num_queries} queries to fuse '
                         f'({_examples(fused.query_ids.take(overlap))}) are training queries, whose own judgments '
                         f'would make the fusion look better than it is; train on other queries, or give '
                         f'in_sample=True to fuse training queries on purpose')
    order = np.argsort(judged[queries], kind='stable')          # the training queries in the qrels' order
    index = np.full(candidates.num_queries, -1, dtype=np.int64)
    index[queries[order]] = np.arange(len(queries))
    qrels = qrels.subset(judged[queries[order]])
    query, ranks, lengths, hits, rankings = zip(*(_rows(candidates, run, index, qrels, name) for name, run
                                                   in zip(names, normalised(candidates, norm), strict=True)),
                                                strict=True)
    return Training(query, ranks, lengths, hits, len(queries), qrels, rankings)


def _training_runs(given: Any, names: list[str]) -> list[Run]:
    """The training runs in the order of the runs to fuse ``names``: a sequence as many, a mapping by name."""
    if isinstance(given, Mapping):
        keys = [str(k) for k in given]
        if sorted(keys) != sorted(names):
            raise InputError(f'train: the training runs are named {", ".join(map(repr, keys))} and the runs to fuse '
                             f'{", ".join(map(repr, names))}: name them alike (or give both as lists in one order)')
        items = dict(zip(keys, given.values(), strict=True))
        ordered = [items[name] for name in names]
    elif isinstance(given, (list, tuple)):
        if len(given) != len(names):
            raise InputError(f'train: {len(given)} training runs for {len(names)} runs to fuse: give one training '
                             f'run of each system, in the order of the runs to fuse')
        ordered = list(given)
    else:
        raise InputError(f'train: the training runs as a list (or a dict named as the runs to fuse); got '
                         f'{type(given).__name__}')
    runs = [run if isinstance(run, Run) else to_run(run) for run in ordered]
    for name, run in zip(names, runs, strict=True):
        if len(run) == 0:
            raise InputError(f'train: the training run of {name!r} ranks no document: there is nothing to train on')
    return runs


def _rows(candidates: Candidates, run: Ranked, index: np.ndarray, qrels: Qrels,
          name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Run]:
    """One training run's rows of the training queries: query, rank, length, hit; and the run as a :class:`Run`
    ranked as the fusion reads it (its scores minus the ranks, which keep that order whatever the ties)."""
    query = index[candidates.query[run.at]]
    kept = query >= 0
    at, query = run.at[kept], query[kept]
    rows = judgment_rows(qrels, qrels.query_ids, query, candidates.doc_ids.take(at))
    hits = ((rows >= 0) & (qrels.relevance[np.maximum(rows, 0)] >= 1)).astype(np.float64)
    ranking = Run.from_columns(qrels.query_ids.take(query), candidates.doc_ids.take(at),
                               -run.ranks[kept].astype(np.float64), source=f'the training run of {name}')
    return query, run.ranks[kept], run.lengths[kept], hits, ranking


def _examples(ids: Any) -> str:
    shown = ids.take(np.arange(min(len(ids), 3))).to_list()
    return ', '.join(map(repr, shown)) + (', ...' if len(ids) > 3 else '')


# --- the estimates: what each method learns of a run from its training rows -----------------------------
def _by_rank(t: Training, i: int) -> np.ndarray:
    """P_i(r) at each rank r from 1 (index r - 1): the share of training queries whose run i ranks a relevant
    document at r, among those whose run i reaches r."""
    positions = t.ranks[i] - 1
    depth = int(positions.max(initial=-1)) + 1
    return np.bincount(positions, weights=t.hits[i], minlength=depth) / np.bincount(positions, minlength=depth)


def _by_segment(t: Training, i: int, n: int) -> np.ndarray:
    """ProbFuse's P_i(k), k from 0 to the last segment of any training query: over the training queries (their
    number), the mean of the share of relevant documents in segment k of run i's ranking (n parts of
    ceil(length / n) ranks; the last shorter, and a segment past the ranking's end adds 0)."""
    segment = _segment(t.ranks[i], t.lengths[i], n)
    # the rows of one (query, segment) are consecutive: each such group's hits and places
    starts = np.flatnonzero((np.diff(t.query[i], prepend=-1) != 0) | (np.diff(segment, prepend=-1) != 0))
    hits = np.add.reduceat(t.hits[i], starts) if len(starts) else np.zeros(0)
    places = np.diff(np.append(starts, len(segment)))
    return np.bincount(segment[starts], weights=hits / places) / t.num_queries


def _segment(ranks: np.ndarray, lengths: np.ndarray, n: int) -> np.ndarray:
    """ProbFuse's segment (from 0) of each rank of a ranking of ``lengths`` cut into ``n`` segments of
    ceil(length / n) ranks."""
    return cast(np.ndarray, (ranks - 1) // -(-lengths // n))


def _by_band(t: Training, i: int, bounds: np.ndarray) -> np.ndarray:
    """The mean over the training queries of the share of relevant documents in each band of ranks of run i
    (bands of fixed places ``bounds[k]`` to ``bounds[k+1] - 1``; the places past a ranking's end count as not
    relevant)."""
    positions = t.ranks[i] - 1
    inside = positions < bounds[-1]
    band = np.searchsorted(bounds, positions[inside], side='right') - 1
    hits = np.bincount(band, weights=t.hits[i][inside], minlength=len(bounds) - 1)
    return cast(np.ndarray, hits / (np.diff(bounds) * t.num_queries))


def _log_odds(t: Training, i: int) -> np.ndarray:
    """BayesFuse's log odds of relevance of each band of ranks of run i (a precision of 0 or 1 floored at
    0.001 from its end)."""
    p = _by_band(t, i, _BANDS)
    p = np.where(p == 0, _FLOOR, p)
    q = 1 - p
    return np.log(p / np.where(q == 0, _FLOOR, q))


def _mean_ap(t: Training, i: int) -> float:
    """Run i's mean average precision over the training queries (trec_eval's AP; a training query the run
    does not rank scores 0)."""
    values = evaluator(['AP'], t.qrels).calc_aggregate(t.rankings[i])
    return float(next(iter(values.values())))


# --- the scores: each run's documents scored from its estimates, then added over the runs ---------------
def _at(values: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """``values[p]`` for each position p, 0 past its end."""
    padded = np.append(values, 0.0)
    return cast(np.ndarray, padded[np.minimum(positions, len(values))])


def _posfuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> tuple[np.ndarray, ...]:
    return tuple(_at(_by_rank(p[TRAINING], i), run.ranks - 1) for i, run in enumerate(runs))


def _probfuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> tuple[np.ndarray, ...]:
    out = []
    for i, run in enumerate(runs):
        segment = _segment(run.ranks, run.lengths, p['n_segments'])
        out.append(_at(_by_segment(p[TRAINING], i, p['n_segments']), segment) / (segment + 1))
    return tuple(out)


def _segfuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> tuple[np.ndarray, ...]:
    out = []
    for i, run in enumerate(runs):
        segment = np.searchsorted(_SEGMENTS, run.ranks - 1, side='right') - 1
        out.append(_at(_by_band(p[TRAINING], i, _SEGMENTS), segment) * (run.scores + 1))
    return tuple(out)


def _slidefuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> tuple[np.ndarray, ...]:
    out = []
    for i, run in enumerate(runs):
        position = run.ranks - 1
        probs = _by_rank(p[TRAINING], i)
        depth = max(len(probs), int(run.lengths.max(initial=0)))
        w = min(p['w'], depth)                          # a wider window reads the same ranks
        cumulative = np.concatenate(([0.0], np.cumsum(np.append(probs, np.zeros(depth - len(probs))))))
        first, last = np.maximum(position - w, 0), np.minimum(position + w, run.lengths - 1)
        out.append((cumulative[last + 1] - cumulative[first]) / (last - first + 1))
    return tuple(out)


def _mapfuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> tuple[np.ndarray, ...]:
    return tuple(_mean_ap(p[TRAINING], i) / run.ranks for i, run in enumerate(runs))


def _bayesfuse(c: Candidates, runs: tuple[Ranked, ...], p: dict[str, Any]) -> np.ndarray:
    """The sum over every run of the log odds of d's band, or of an unranked document's where the run does
    not rank d (or ranks it past the last band), the runs added in their order."""
    out = np.zeros(len(c))
    for i, run in enumerate(runs):
        odds = np.append(_log_odds(p[TRAINING], i), _UNRANKED)
        band = np.searchsorted(_BANDS, run.ranks - 1, side='right') - 1
        column = np.full(len(c), _UNRANKED)
        column[run.at] = odds[band]
        out += column
    return out


def _summed(scores: Callable[[Candidates, tuple[Ranked, ...], dict[str, Any]], tuple[np.ndarray, ...]]) -> Combine:
    """The method adding ``scores`` (one array a run, over its rows) over the runs that rank a document."""
    return lambda c, runs, w, p: total(c, scores(c, runs, p), runs)


_LILLIS_2010 = ('Lillis, Zhang, Toolan, Collier, Leonard & Dunnion, "Estimating probabilities for effective '
                'data fusion", SIGIR 2010')
_P_AT = ('P_i(r) = sum over q of h_iq(r) / |{q : n_iq >= r}|, the share of training queries with a relevant '
         'document at rank r of run i')

#: every trained method, by name (ranx's)
TRAINED: dict[str, Method] = {m.name: m for m in [
    Method('posfuse', 'sum over i in R(d) of P_i(r_i(d)); ' + _P_AT + ' (0 past the deepest training ranking)',
           _LILLIS_2010, _summed(_posfuse), by_rank=True, trained=True),
    Method('probfuse', 'sum over i in R(d) of P_i(k) / k, k the segment of r_i(d) when run i\'s ranking is cut '
           'into n_segments segments of ceil(n_i / n_segments) ranks; P_i(k) = (1/|Q|) sum over q of the share '
           'of relevant documents in segment k of run i\'s ranking of q (0 where it has no segment k)',
           'Lillis, Toolan, Collier & Dunnion, "ProbFuse: a probabilistic approach to data fusion", SIGIR 2006',
           _summed(_probfuse), {'n_segments': (None, Int(minimum=1))}, by_rank=True, trained=True),
    Method('segfuse', 'sum over i in R(d) of P_i(k) (1 + s_i(d)), k the segment of r_i(d) among the ten '
           'ending at ranks 10 * 2^(k-1) - 5 (5, 15, 35, ..., 5115; 0 beyond); P_i(k) = (1/|Q|) sum over q of '
           'the hits of run i in segment k of q divided by the segment\'s size',
           'Shokouhi, "Segmentation of search engine results for effective data-fusion", ECIR 2007',
           _summed(_segfuse), trained=True),
    Method('slidefuse', 'sum over i in R(d) of the mean of P_i over the ranks max(1, r_i(d) - w) to '
           'min(n_i, r_i(d) + w); ' + _P_AT + ' (0 past the deepest training ranking)',
           'Lillis, Toolan, Collier & Dunnion, "Extending probabilistic data fusion using sliding windows", '
           'ECIR 2008', _summed(_slidefuse), {'w': (None, Int(minimum=0))}, by_rank=True, trained=True),
    Method('bayesfuse', 'sum over every run i of log(p / (1 - p)), p the mean over the training queries of run '
           'i\'s precision in the band of ranks of d (1-5, 6-10, 11-15, 16-20, 21-30, 31-100, 101-200, 201-500, '
           '501-1000), 0 and 1 floored at 0.001 from their end; log(0.001 / 0.999) where run i does not rank d '
           'or ranks it below 1000',
           'Aslam & Montague, "Models for metasearch", SIGIR 2001',
           lambda c, runs, w, p: _bayesfuse(c, runs, p), by_rank=True, trained=True),
    Method('mapfuse', 'sum over i in R(d) of MAP_i / r_i(d), MAP_i the mean average precision of run i over the '
           'training queries', _LILLIS_2010, _summed(_mapfuse), by_rank=True, trained=True),
]}
