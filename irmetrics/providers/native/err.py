"""ERR (Chapelle et al. 2009, as gdeval computes it) and nERR.

The probability of reaching rank i is the product of (1 - R_j) over the documents above it.  Grades
are small integers, so that product is computed exactly as prod_g (1 - R_g)^(n_g), with n_g the
number of documents of grade g above rank i: integer counts, no running product over the ranking.
"""
import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, ranges, run_starts, running_count
from ...measures import ERR, nERR
from .kernels import cutoff_of, kernel, safe_divide
from .table import QrelsIndex, RankedTable
from .ties import expects, log_choose


def stop_probability(grade: np.ndarray, max_rel: int) -> np.ndarray:
    """R(g) = (2^g - 1) / 2^max_rel, grades clipped to [0, max_rel]."""
    return (np.exp2(np.clip(grade, 0, max_rel)) - 1.0) / 2.0 ** max_rel


def expected_reciprocal_rank(query: np.ndarray, position: np.ndarray, grade: np.ndarray, nq: int,
                             max_rel: int) -> np.ndarray:
    """Per query, ERR of rows sorted by (query, position) (0-based positions, rows of grade <= 0 allowed)."""
    keep = grade > 0
    query, position, grade = query[keep], position[keep], np.minimum(grade[keep], max_rel)
    stop = stop_probability(grade, max_rel)
    return np.bincount(query, weights=stop * reach(query, grade, nq, max_rel) / (position + 1.0), minlength=nq)


def reach(query: np.ndarray, grade: np.ndarray, nq: int, max_rel: int) -> np.ndarray:
    """For each row (rows of grade 1..max_rel sorted by query and rank), the chance of passing every row of
    its query above it: prod_g (1 - R_g)^(rows of grade g above), multiplied grade by grade."""
    offsets = offsets_of(query, nq)
    out = np.ones(len(query))
    for g in np.unique(grade):
        above = running_count(grade == g, query, offsets) - (grade == g)
        out *= (1.0 - stop_probability(g, max_rel)) ** above
    return out


def expected_err(t: RankedTable, max_rel: int, depth: float) -> np.ndarray:
    """Per query, the expected ERR (Chapelle et al.) over the orders of tied documents.

    ERR sums, over ranks r, ``R_r / r`` times the chance ``prod_{i<r} (1 - R_i)`` of reaching r.  A tie group
    of n documents starting at rank s + 1, of which v have R > 0 (the set V) and u = n - v have R = 0, is
    reached with the chance ``B`` of passing every group above it; the document at its j-th rank is x with
    chance 1/n, and the j - 1 above it are a uniform (j-1)-subset of the others, so the group adds

        B / n * sum_{i=0}^{v-1} T_i * W_i,   W_i = sum_{j=1}^{n} C(u, j-1-i) / C(n-1, j-1) / (s + j)

    (ranks beyond the cutoff left out), with ``T_i = sum_{x in V} R_x e_i({1 - R_y : y in V, y != x})``, e_i
    the elementary symmetric polynomials: the coefficients of ``sum_x R_x prod_{y != x} (1 + (1 - R_y) t)``,
    built one document at a time (no subtraction, so no cancellation).  A group of one document adds
    ``R B / (s + 1)`` as in trec_eval's order.
    """
    group, start, size = t.tie_groups(False)
    grade = np.minimum(t.grade, max_rel)
    keep = (grade > 0) & (start < depth)
    group, query, grade, start, size = group[keep], t.query[keep], grade[keep], start[keep], size[keep]
    stop = stop_probability(grade, max_rel)
    first = np.flatnonzero(run_starts(group))
    v = np.diff(np.append(first, len(group)))
    passed = reach(query, grade, t.nq, max_rel)[first]    # B: every positive document of the groups above
    s, n, q = start[first], size[first], query[first]
    out = np.zeros(t.nq)
    single = n == 1
    np.add.at(out, q[single], stop[first[single]] * passed[single] / (s[single] + 1.0))
    several = np.flatnonzero(~single)
    if len(several):
        terms = _group_sums(stop, first[several], v[several], s[several], n[several], depth)
        np.add.at(out, q[several], passed[several] / n[several] * terms)
    return out


def _group_sums(stop: np.ndarray, first: np.ndarray, v: np.ndarray, s: np.ndarray, n: np.ndarray,
                depth: float) -> np.ndarray:
    """``sum_i T_i W_i`` of each tie group of :func:`expected_err` (its positive documents are the rows
    ``first .. first + v - 1`` of ``stop``)."""
    out = np.zeros(len(first))
    for bucket in np.unique(np.ceil(np.log2(v)).astype(np.int64)):     # groups of like v, padded to 2^bucket
        at = np.flatnonzero(np.ceil(np.log2(v)).astype(np.int64) == bucket)
        width = int(v[at].max())
        p = np.zeros((len(at), width + 1))
        p[:, 0] = 1.0
        coefficients = np.zeros((len(at), width + 1))
        for c in range(width):                               # one positive document of each group at a time
            live = np.flatnonzero(v[at] > c)
            r = stop[first[at[live]] + c][:, None]
            shifted_p = np.zeros_like(p[live])
            shifted_p[:, 1:] = p[live, :-1]
            shifted_q = np.zeros_like(coefficients[live])
            shifted_q[:, 1:] = coefficients[live, :-1]
            coefficients[live] = coefficients[live] + (1.0 - r) * shifted_q + r * p[live]
            p[live] = p[live] + (1.0 - r) * shifted_p
        vv, ss, nn = v[at], s[at], n[at]
        uu = nn - vv
        i = ranges(vv)                                       # i = 0 .. v-1 of each group
        owner = np.repeat(np.arange(len(at)), vv)
        t_i = coefficients[owner, i]
        # j from i + 1 to min(n, u + i + 1, depth - s)
        last = np.minimum(np.minimum(nn[owner], uu[owner] + i + 1), np.clip(depth - ss[owner], 0, None))
        count = np.clip(last - i, 0, None).astype(np.int64)
        j = np.repeat(i, count) + 1 + ranges(count)
        term_of = np.repeat(np.arange(len(i)), count)
        ui, ni, si, ii = uu[owner][term_of], nn[owner][term_of], ss[owner][term_of], i[term_of]
        w = np.exp(log_choose(ui, j - 1 - ii) - log_choose(ni - 1, j - 1)) / (si + j)
        weights = np.bincount(term_of, weights=w, minlength=len(i))
        out[at] = np.bincount(owner, weights=t_i * weights, minlength=len(at))
    return out


def ideal_err(index: QrelsIndex, max_rel: int, cutoff: float) -> np.ndarray:
    """Per query, the ERR of the judged documents sorted by grade descending, cut at ``cutoff``."""
    def compute():
        q, position, g = index.ideal(index.grades, cutoff)
        return expected_reciprocal_rank(q, position, g, index.nq, max_rel)
    return index.cached(('ideal_err', max_rel, cutoff), compute)


def _err(measure: Measure, t: RankedTable) -> np.ndarray:
    if expects(measure):
        return expected_err(t, measure['max_rel'], cutoff_of(measure))
    within = t.rank < cutoff_of(measure)
    return expected_reciprocal_rank(t.query[within], t.rank[within], t.grade[within], t.nq, measure['max_rel'])


@kernel(ERR)
def err(measure: Measure, t: RankedTable):
    return _err(measure, t)


@kernel(nERR)
def normalised_err(measure: Measure, t: RankedTable):
    return safe_divide(_err(measure, t), ideal_err(t.index, measure['max_rel'], cutoff_of(measure)))
