"""``ties='expected'`` at every size of tie group, 1 to 100,000 documents: each family's expectation over the
orders of one tie group against exact arithmetic done here, from the definition of the expectation.

A query's ranking is untied documents above the group (ranks 1..s), the group (ranks s+1..s+n, every order
alike) and untied documents below it.  What the test computes, family by family:

* a measure linear in the ranking (Hits, P, R, Rprec, F1, Judged, Unjudged, DCG, nDCG, RBP): a document of the
  group lies at each of the group's ranks with chance 1/n, so it weighs the mean weight of those ranks;
* AP: the group's j-th rank holds a relevant document with chance r/n; the other j - 1 documents above it
  in the group are j - 1 of its n - 1 others, r - 1 of them relevant, (j - 1)(r - 1)/(n - 1) in expectation;
* RR: the first relevant document of the group lies at its j-th rank with chance C(n - j, r - 1) / C(n, r);
* Success@k: no relevant document among the group's ranks above k has chance C(n - m, r) / C(n, r);
* ERR: the document at the group's j-th rank is x with chance 1/n; each other document of positive grade lies
  above x or below it, a given set S of them above and the rest below with chance
  (j - 1)_|S| (n - j)_(v-1-|S|) / (n - 1)_(v-1) (falling factorials), and the user passes S with chance
  prod_{y in S} (1 - R_y).

Each term is an exact rational (``Fraction``, ``math.comb``, ``math.perm``) rounded once to a float (the
discounts of DCG, irrational, are ``math.log2``'s), and the terms are added by ``math.fsum``: the reference is
within a few units in the last place of the exact value, so the tolerance, 1e-12 relative, measures the
library alone.  The formulas are checked against the mean over every order for groups of up to 6 documents.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

import irmetrics as irm
from irmetrics import AP, DCG, ERR, F1, RBP, RR, Hits, Judged, P, R, Rprec, Success, Unjudged, nDCG, nERR
from irmetrics.algebra.measure import REGISTRY

HALF = Fraction(1, 2)                   # RBP's persistence here: a float with an exact power series
MAX_REL = 4                             # ERR's default scale


@dataclass(frozen=True)
class Tied:
    """One query: untied documents ``above`` the tie group (grades from the top; None: not in the qrels), the
    group (``group``: (grade, count) pairs), untied documents ``below`` it, and judged documents the run
    lacks (``missing``)."""
    above: tuple = ()
    group: tuple = ((1, 1),)
    below: tuple = ()
    missing: tuple = ()

    @property
    def s(self) -> int:
        return len(self.above)

    @property
    def n(self) -> int:
        return sum(count for _, count in self.group)

    def inputs(self) -> tuple[dict, dict]:
        qrels, run = {}, {}
        documents = [(f'a{i}', grade, 1e6 - i) for i, grade in enumerate(self.above)]
        documents += [(f'g{grade}.{i}', grade, 0.5) for grade, count in self.group for i in range(count)]
        documents += [(f'b{i}', grade, -1.0 - i) for i, grade in enumerate(self.below)]
        for doc, grade, score in documents:
            run[doc] = score
            if grade is not None:
                qrels[doc] = grade
        qrels.update({f'm{i}': grade for i, grade in enumerate(self.missing)})
        return {'q': qrels}, {'q': run}

    def untied(self) -> list[tuple[int, int | None]]:
        """(rank, grade) of the untied documents."""
        below = self.s + self.n + 1
        return [(i + 1, g) for i, g in enumerate(self.above)] + [(below + i, g) for i, g in enumerate(self.below)]

    def grades(self) -> list:
        """Every judged grade of the query (the ideal ranking's and R's)."""
        retrieved = list(self.above) + [g for g, c in self.group for _ in range(c)] + list(self.below)
        return [g for g in retrieved + list(self.missing) if g is not None]

    def relevant(self, rel: int) -> int:
        return sum(g >= rel for g in self.grades())

    def in_group(self, rel: int) -> int:
        return sum(count for grade, count in self.group if grade is not None and grade >= rel)

    def ranks_in_group(self, k: int | None) -> int:
        """How many of the group's ranks are within the cutoff."""
        return self.n if k is None else min(self.n, max(0, k - self.s))


def _float(terms) -> float:
    """The sum of exact terms (Fractions, or floats from one rounding) by math.fsum."""
    return math.fsum(float(t) for t in terms)


def _ratio(numerator: int, denominator: int) -> float:
    """A quotient of integers, correctly rounded (Python's int division)."""
    return numerator / denominator


def _linear(case: Tied, value, weights, k: int | None) -> float:
    """E[sum over documents of value(grade) * weight(rank)] with no weight beyond rank k; ``weights(a, b)`` is
    the sum of the weights of ranks a..b: each untied document at its rank, the group's documents at the mean
    weight of the group's ranks."""
    terms = [value(g) * weights(rank, rank) for rank, g in case.untied() if k is None or rank <= k]
    group_value = sum(value(g) * count for g, count in case.group)
    last = case.ranks_in_group(k)
    if group_value and last:
        terms.append(Fraction(group_value, case.n) * weights(case.s + 1, case.s + last))
    return _float(terms)


def _count(a: int, b: int) -> int:
    return max(0, b - a + 1)


def _discounts(a: int, b: int) -> float:
    return math.fsum(1.0 / math.log2(rank + 1) for rank in range(a, b + 1))


def _geometric(a: int, b: int) -> Fraction:
    """(1 - p) sum_{rank=a..b} p^(rank-1) = p^(a-1) - p^b."""
    return HALF ** (a - 1) - HALF ** b if b >= a else Fraction(0)


def _hits(case, k, rel=1):
    return _linear(case, lambda g: int(g is not None and g >= rel), _count, k)


def _gain(g):
    return max(g, 0) if g is not None else 0


def _ideal_dcg(case, k):
    ideal = sorted((_gain(g) for g in case.grades()), reverse=True)[:k]
    return math.fsum(g / math.log2(i + 2) for i, g in enumerate(ideal) if g)


def _ap(case, k, rel=1):
    """E[sum of the precisions at the relevant documents within k] / R."""
    total = case.relevant(rel)
    s, n, r = case.s, case.n, case.in_group(rel)

    def relevant(g):
        return g is not None and g >= rel
    terms = []
    for rank, g in case.untied():
        if relevant(g) and (k is None or rank <= k):
            seen = sum(relevant(gg) for rr, gg in case.untied() if rr <= rank) + (r if rank > s else 0)
            terms.append(Fraction(seen, rank))
    c = sum(relevant(g) for g in case.above)
    for j in range(1, case.ranks_in_group(k) + 1 if r else 1):
        if n == 1:
            terms.append(_ratio(r * (c + 1), s + j))
        else:
            terms.append(_ratio(r * ((c + 1) * (n - 1) + (j - 1) * (r - 1)), n * (n - 1) * (s + j)))
    return _float(terms) / total if total else 0.0


def _rr(case, k, rel=1):
    """E[1 / rank of the first relevant document within k]."""
    def relevant(g):
        return g is not None and g >= rel
    for rank, g in case.untied():
        if rank <= case.s and relevant(g):
            return 1.0 / rank if k is None or rank <= k else 0.0
    s, n, r = case.s, case.n, case.in_group(rel)
    if r:
        whole, terms = math.comb(n, r), []
        chance = math.comb(n - 1, r - 1)                # C(n - j, r - 1) at j = 1, then down one j at a time
        for j in range(1, min(case.ranks_in_group(k), n - r + 1) + 1):
            terms.append(_ratio(chance, whole * (s + j)))
            chance = chance * (n - j - r + 1) // (n - j) if j < n else 0
        return math.fsum(terms)
    for rank, g in case.untied():
        if rank > s and relevant(g):
            return 1.0 / rank if k is None or rank <= k else 0.0
    return 0.0


def _success(case, k, rel=1):
    def relevant(g):
        return g is not None and g >= rel
    if any(relevant(g) and rank <= k for rank, g in case.untied()):
        return 1.0
    m, r = case.ranks_in_group(k), case.in_group(rel)
    return float(1 - Fraction(math.comb(case.n - m, r), math.comb(case.n, r)))


def _stop(g) -> Fraction:
    g = min(g, MAX_REL) if g is not None else 0
    return Fraction(2 ** g - 1, 2 ** MAX_REL) if g > 0 else Fraction(0)


def _passing(counts: dict, terms: int) -> list[int]:
    """16^i e_i, i < terms, of the multiset {1 - R_g, counts[g] times}: the coefficients of
    prod_g (1 + (1 - R_g) t)^(counts[g]) (1 - R_g = a_g / 16, so 16^i e_i is an integer)."""
    poly = [1]
    for g, c in counts.items():
        a = 2 ** MAX_REL - (2 ** min(g, MAX_REL) - 1)
        factor = [math.comb(c, i) * a ** i for i in range(min(c, terms - 1) + 1)]
        poly = [sum(poly[h] * factor[i - h] for h in range(max(0, i - len(factor) + 1), min(i, len(poly) - 1) + 1))
                for i in range(min(len(poly) + len(factor) - 1, terms))]
    return poly


def _placements(n: int, v: int, j: int, i: int | None = None) -> int:
    """Of the placements of x's n - 1 others around x at the group's j-th rank, counted by where the v - 1
    other positive documents lie (when v <= j) or by what the j - 1 ranks above x hold (fewer factors when
    j < v): all of them (i None), or those with a given i of the v - 1 above x and the rest below."""
    u = n - v
    if v <= j:
        return math.perm(n - 1, v - 1) if i is None else math.perm(j - 1, i) * math.perm(n - j, v - 1 - i)
    return math.perm(n - 1, j - 1) if i is None else math.perm(j - 1, i) * math.perm(u, j - 1 - i)


def _err(case, k):
    """E[ERR@k]; the group's part: x at the group's j-th rank (chance 1/n) and a given set S of i of the v - 1
    other positive documents above it, the rest below (chance :func:`_placements`), which the user passes
    with chance prod_{y in S} (1 - R_y): summed over S of each size i by e_i."""
    terms, reach = [], Fraction(1)
    for rank, g in case.untied():
        if rank <= case.s and (k is None or rank <= k):
            terms.append(_stop(g) * reach / rank)
        if rank <= case.s:
            reach *= 1 - _stop(g)
    s, n, last = case.s, case.n, case.ranks_in_group(k)
    positive = {g: c for g, c in case.group if _stop(g)}
    v = sum(positive.values())
    u = n - v
    # 16^(i+1) T_i, T_i = sum over x of R_x e_i(the others' 1 - R), for the i < last that can count
    stopping = [0] * min(v, last)
    for g, c in positive.items():
        for i, e in enumerate(_passing({**positive, g: c - 1}, len(stopping))):
            stopping[i] += c * (2 ** min(g, MAX_REL) - 1) * e
    for j in range(1, last + 1 if v else 1):
        low, high = max(0, j - 1 - u), min(v - 1, j - 1)      # i of the v - 1 above, j - 1 - i of the u
        whole, ways = _placements(n, v, j), 0
        for i in range(low, high + 1):
            ways += stopping[i] * 16 ** (high - i) * _placements(n, v, j, i)
        terms.append(_ratio(reach.numerator * ways, reach.denominator * whole * 16 ** (high + 1) * n * (s + j)))
    after = reach
    for g, c in case.group:
        after *= (1 - _stop(g)) ** c
    for rank, g in case.untied():
        if rank > s and (k is None or rank <= k):
            terms.append(_stop(g) * after / rank)
            after *= 1 - _stop(g)
    return _float(terms)


def _ideal_err(case, k):
    ideal = sorted((g for g in case.grades() if _stop(g)), reverse=True)[:k]
    terms, reach = [], Fraction(1)
    for i, g in enumerate(ideal):
        terms.append(_stop(g) * reach / (i + 1))
        reach *= 1 - _stop(g)
    return _float(terms)


def _references(case: Tied, k: int | None) -> dict:
    """Each family's expectation at cutoff k (None: no cutoff; families that need one are left out)."""
    total = case.relevant(1)
    retrieved = case.s + case.n + len(case.below)
    depth = retrieved if k is None else k
    hits = _hits(case, k)
    dcg = _linear(case, _gain, _discounts, k)
    ideal_err = _ideal_err(case, k)
    at = (lambda m: m) if k is None else (lambda m: m @ k)
    out = {
        at(Hits): hits,
        at(F1): 2 * hits / (depth + total),
        at(Judged): _linear(case, lambda g: int(g is not None), _count, k) / min(retrieved, depth),
        at(DCG): dcg,
        at(nDCG): dcg / _ideal_dcg(case, k),
        at(RBP(p=0.5)): _linear(case, _gain, _geometric, k),
        at(RBP(p=0.5, rel=2)): _linear(case, lambda g: int(g is not None and g >= 2), _geometric, k),
        at(AP): _ap(case, k),
        at(AP(rel=2)): _ap(case, k, rel=2),
        at(RR): _rr(case, k),
        at(RR(rel=2)): _rr(case, k, rel=2),
        at(ERR): _err(case, k),
        at(nERR): _err(case, k) / ideal_err if ideal_err else 0.0,
    }
    if k is not None:
        out.update({P @ k: hits / k, P(rel=2) @ k: _hits(case, k, rel=2) / k, R @ k: hits / total,
                    Success @ k: _success(case, k), Success(rel=2) @ k: _success(case, k, rel=2),
                    Unjudged @ k: (min(retrieved, k) - _linear(case, lambda g: int(g is not None and g >= 0),
                                                              _count, k)) / k})
    else:
        out[Rprec] = _hits(case, total) / total
    return out


# group sizes 1 to 100,000; ERR's old limits (1,074 documents of grade 1, 1,192 of grade 2, 1,586 of grade 3);
# groups at the top and lower; cutoffs before, inside, at and after the group, and none
CASES = [
    (Tied(above=(0,), group=((2, 1),), below=(1,)), (1, 2, 3, None)),
    (Tied(group=((1, 1), (0, 1)), below=(2,), missing=(1,)), (1, 2, 5, None)),
    (Tied(above=(None,), group=((3, 1), (1, 1), (None, 1)), below=(0,), missing=(2,)), (2, 4, 10, None)),
    (Tied(above=(0, 1), group=((1, 2), (0, 2), (2, 1), (None, 1)), below=(1,)), (1, 3, 8, 9, None)),
    (Tied(above=(0,), group=((1, 3), (0, 7)), below=(1, 0), missing=(1,)), (4, 11, 20, None)),
    (Tied(above=(0, 0, 2), group=((1, 5), (2, 3), (4, 1), (0, 91)), missing=(3,)), (10, 103, 200, None)),
    (Tied(above=(2,), group=((1, 150), (3, 120), (0, 30)), below=(4,)), (40, 302, None)),
    (Tied(group=((1, 1073),)), (20, 1073, None)),
    (Tied(group=((1, 1100), (3, 2), (0, 3))), (30, None)),
    (Tied(above=(0,), group=((1, 1074),), below=(1,)), (20, 1075, None)),
    (Tied(group=((2, 1192), (0, 3)), missing=(2,)), (50, None)),
    (Tied(above=(1,), group=((3, 1586),)), (10, 1587, None)),
    (Tied(above=(0, 0), group=((1, 2), (2, 1), (0, 9997)), below=(1,)), (5, 5002, 10002, None)),
    (Tied(group=((1, 1), (0, 99999))), (1, 50000, None)),
    (Tied(above=(0,), group=((1, 1), (3, 1), (4, 1), (0, 99997)), missing=(1,)), (2, 100001, None)),
    (Tied(group=((1, 50000), (0, 50000))), (1, 10, 100)),
]


def _ids(case_cutoffs):
    case, _ = case_cutoffs
    return f'n={case.n}'


@pytest.mark.parametrize('case, cutoffs', [pytest.param(*c, marks=[pytest.mark.slow] if c[0].n >= 10_000 else [])
                                             for c in CASES], ids=[_ids(c) for c in CASES])   # slow: large groups
def test_every_family_s_expectation_is_exact_at_every_group_size(case, cutoffs):
    qrels, run = case.inputs()
    references = {}
    for k in cutoffs:
        references.update(_references(case, k))
    measures = list(references)
    got = irm.calc_aggregate([m(ties='expected') for m in measures], qrels, run)
    for m in measures:
        want, value = references[m], got[m(ties='expected')]
        assert value == pytest.approx(want, rel=1e-12), (m, value, want)


def test_the_sweep_covers_every_family_with_an_expectation():
    declared = {d.name for d in REGISTRY.definitions() if d.tie_order == 'expected'}
    swept = {m.definition.name for case, cutoffs in CASES[:1] for k in cutoffs for m in _references(case, k)}
    assert declared == swept


def _orders(case: Tied):
    """Every order of the group, as the untied ranking it makes (one query per order)."""
    qrels, run = case.inputs()
    group = [doc for doc, score in run['q'].items() if score == 0.5]
    for i, order in enumerate(itertools.permutations(group)):
        ranked = dict(run['q'])
        ranked.update({doc: 0.5 - rank * 1e-3 for rank, doc in enumerate(order)})
        yield f'o{i}', ranked


@pytest.mark.parametrize('case, cutoffs', [c for c in CASES if c[0].n <= 6], ids=[_ids(c) for c in CASES if
                                                                                 c[0].n <= 6])
def test_the_formulas_here_are_the_mean_over_every_order_of_a_small_group(case, cutoffs):
    qrels, _ = case.inputs()
    runs = dict(_orders(case))
    judged = {q: qrels['q'] for q in runs}
    for k in cutoffs:
        references = _references(case, k)
        values = np.asarray(irm.calc(list(references), judged, runs).values)
        np.testing.assert_allclose(values.mean(axis=0), list(references.values()), rtol=1e-13, atol=1e-15)


def test_hand_computed_expectations_of_three_tied_documents():
    # one relevant document among three tied at the top: it is at rank 1, 2 or 3 alike
    one = Tied(group=((1, 1), (0, 2)))
    qrels, run = one.inputs()
    got = irm.calc_aggregate([m(ties='expected') for m in (RR, AP, P @ 1, Success @ 2, nDCG @ 1, ERR)], qrels, run)
    assert got[RR(ties='expected')] == pytest.approx(11 / 18, rel=1e-15)            # (1 + 1/2 + 1/3) / 3
    assert got[AP(ties='expected')] == pytest.approx(11 / 18, rel=1e-15)
    assert got[P(ties='expected') @ 1] == pytest.approx(1 / 3, rel=1e-15)
    assert got[Success(ties='expected') @ 2] == pytest.approx(2 / 3, rel=1e-15)
    assert got[nDCG(ties='expected') @ 1] == pytest.approx(1 / 3, rel=1e-15)
    assert got[ERR(ties='expected')] == pytest.approx(11 / 288, rel=1e-15)          # R = 1/16, times RR
    # two relevant among three: their ranks are {1, 2}, {1, 3} or {2, 3}
    two = Tied(group=((1, 2), (0, 1)))
    qrels, run = two.inputs()
    got = irm.calc_aggregate([m(ties='expected') for m in (RR, AP, Success @ 1)], qrels, run)
    assert got[RR(ties='expected')] == pytest.approx(5 / 6, rel=1e-15)              # 1, 1, 1/2
    assert got[AP(ties='expected')] == pytest.approx(29 / 36, rel=1e-15)            # 1, 5/6, 7/12
    assert got[Success(ties='expected') @ 1] == pytest.approx(2 / 3, rel=1e-15)


def test_one_relevant_document_among_100000_tied_ones_keeps_every_digit():
    case = Tied(group=((1, 1), (0, 99999)))
    qrels, run = case.inputs()
    measures = [Success(ties='expected') @ 1, P(ties='expected') @ 1, RR(ties='expected'), AP(ties='expected')]
    got = irm.calc_aggregate(measures, qrels, run)
    assert got[Success(ties='expected') @ 1] == got[P(ties='expected') @ 1] == 1e-5
    assert got[RR(ties='expected')] == pytest.approx(got[AP(ties='expected')], rel=1e-14)   # both H_n / n
