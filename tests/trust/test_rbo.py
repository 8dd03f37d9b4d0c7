"""Rank-biased overlap (irmetrics/trust/rbo.py): brute forces of Webber et al.'s definitions (the bounds as
the RBO of the worst and best continuations, summed numerically, and eq. 32 term by term), Corsi & Urbano's
tie variants written out depth by depth, the expectation over tie orders, the paper's properties and
hand-computed cases."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irmetrics as irm


def full_rbo(a: list, b: list, p: float) -> float:
    """(1-p) sum_d p^(d-1) |a[:d] & b[:d]| / d over two (long) lists of equal length: the RBO of infinite
    lists to within p^len."""
    seen_a, seen_b, overlap, total = set(), set(), 0, 0.0
    for d, (x, y) in enumerate(zip(a, b, strict=True), 1):
        overlap += (x in seen_b) + (y in seen_a) + (x == y)
        seen_a.add(x)
        seen_b.add(y)
        total += p ** (d - 1) * overlap / d
    return (1 - p) * total


def eq32(short: list, long: list, p: float) -> float:
    """Webber et al.'s RBO_EXT of uneven lists (their eq. 32), term by term."""
    s, ell = len(short), len(long)
    x = [len(set(short[:d]) & set(long[:d])) for d in range(1, ell + 1)]
    x_s, x_l = x[s - 1], x[ell - 1]
    total = sum(x[d - 1] / d * p ** d for d in range(1, ell + 1))
    total += sum(x_s * (d - s) / (s * d) * p ** d for d in range(s + 1, ell + 1))
    return (1 - p) / p * total + ((x_l - x_s) / ell + x_s / s) * p ** ell


def random_lists(rng, shorter_allowed=True):
    s = int(rng.integers(1, 20))
    ell = int(rng.integers(s, 30)) if shorter_allowed else s
    pool = int(rng.integers(ell, 2 * (s + ell) + 1))
    return ([f'i{v}' for v in rng.choice(pool, s, replace=False)],
            [f'i{v}' for v in rng.choice(pool, ell, replace=False)])


N = 2500          # continuations this long: p^N is below 1e-100 for p <= 0.9


@pytest.mark.parametrize('p', [0.5, 0.8, 0.9])
def test_bounds_are_the_rbo_of_the_worst_and_best_continuations(p):
    rng = np.random.default_rng(int(p * 10))
    for _ in range(25):
        short, long = random_lists(rng)
        result = irm.rbo(short, long, p=p)
        fresh = [f'f{k}' for k in range(N)]
        # worst: nothing more in common
        worst_s = short + [f's{k}' for k in range(N - len(short))]
        worst_l = long + [f'l{k}' for k in range(N - len(long))]
        assert result.minimum == pytest.approx(full_rbo(worst_s, worst_l, p), abs=1e-12)
        # best: the shorter list goes on with the longer one's unseen items, the longer with the shorter's,
        # then both with the same new items
        only_l = [i for i in long if i not in short]
        only_s = [i for i in short if i not in long]
        best_s = (short + only_l + fresh)[:N]
        best_l = (long + only_s + fresh)[:N]
        assert result.maximum == pytest.approx(full_rbo(best_s, best_l, p), abs=1e-12)
        assert result.minimum <= result.extrapolated + 1e-12 <= result.maximum + 2e-12


def test_extrapolation_of_uneven_lists_is_eq32():
    rng = np.random.default_rng(32)
    for _ in range(200):
        short, long = random_lists(rng)
        assert irm.rbo(short, long, p=0.9).extrapolated == pytest.approx(eq32(short, long, 0.9), abs=1e-13)
        assert irm.rbo(long, short, p=0.9).extrapolated == pytest.approx(eq32(short, long, 0.9), abs=1e-13)


def test_hand_computed_case():
    # 1 2 3 against 1 3 2, p = 1/2: X = 1, 1, 3 and A = 1, 1/2, 1
    result = irm.rbo([1, 2, 3], [1, 3, 2], p=0.5)
    seen = 1 * 0.5 + 0.5 * 0.25 + 1 * 0.125                     # (1-p)/p = 1
    assert result.extrapolated == pytest.approx(seen + 1 * 0.125)
    assert result.minimum == pytest.approx(seen + 3 * (math.log(2) - (0.5 + 0.125 + 0.125 / 3)))


def test_identical_and_disjoint_lists():
    a = [f'd{i}' for i in range(12)]
    same = irm.rbo(a, a, p=0.9)
    assert same.extrapolated == pytest.approx(1.0, abs=1e-15)
    assert same.maximum == pytest.approx(1.0, abs=1e-15)
    assert same.minimum == pytest.approx(1 - 0.9 ** 12 + full_tail_of_identical(12, 0.9), abs=1e-12)
    apart = irm.rbo(a, [f'x{i}' for i in range(12)], p=0.9)
    assert apart.extrapolated == 0.0 and apart.minimum == 0.0 and apart.residual > 0


def full_tail_of_identical(k: int, p: float) -> float:
    """What the worst continuation of two identical prefixes of length k keeps: k items in common at every
    depth d > k, (1-p) sum_{d>k} p^(d-1) k/d."""
    return (1 - p) * sum(p ** (d - 1) * k / d for d in range(k + 1, 4000))


def test_bounds_tighten_with_depth():
    rng = np.random.default_rng(5)
    a = [f'i{v}' for v in rng.permutation(80)]
    b = [f'i{v}' for v in rng.permutation(80)]
    results = [irm.rbo(a[:k], b[:k], p=0.8) for k in range(1, 81)]
    minima = np.array([r.minimum for r in results])
    maxima = np.array([r.maximum for r in results])
    assert np.all(np.diff(minima) >= -1e-15) and np.all(np.diff(maxima) <= 1e-15)
    assert np.all(minima <= maxima)


def test_symmetric():
    rng = np.random.default_rng(9)
    for ties in 'abw':
        for _ in range(30):
            a = {f'i{k}': float(v) for k, v in enumerate(rng.integers(0, 5, 12))}
            b = {f'i{k + 3}': float(v) for k, v in enumerate(rng.integers(0, 5, 9))}
            x, y = irm.rbo(a, b, p=0.9, tie_variant=ties), irm.rbo(b, a, p=0.9, tie_variant=ties)
            assert x.extrapolated == pytest.approx(y.extrapolated, abs=1e-14)
            assert x.minimum == pytest.approx(y.minimum, abs=1e-14)
            assert x.residual == pytest.approx(y.residual, abs=1e-14)


# --- ties ---------------------------------------------------------------------------------------------
def flat(ranking: dict) -> dict:
    """Each item's best and worst rank (1-based) in its tie group."""
    return {k: (1 + sum(w > v for w in ranking.values()), sum(w >= v for w in ranking.values()))
            for k, v in ranking.items()}


def contribution(ranks, depth: int, ties: str) -> float:
    top, bottom = ranks
    if depth < top:
        return 0.0
    if ties == 'w' or depth >= bottom:
        return 1.0
    return (depth - top + 1) / (bottom - top + 1)


def corsi_urbano(x: dict, y: dict, p: float, ties: str) -> tuple[float, float]:
    """RBO_EXT and RBO_MIN written out depth by depth from Corsi & Urbano's item contributions."""
    fx, fy = flat(x), flat(y)
    S, L = (fx, fy) if len(fx) <= len(fy) else (fy, fx)
    s, ell = len(S), len(L)
    only_l = [k for k in L if k not in S]

    def agreement(depth: int, overlap: float) -> float:
        cl = [contribution(L[k], depth, ties) for k in L]
        if depth <= s:
            cs = [contribution(S[k], depth, ties) for k in S]
        else:
            cs = [1.0] * depth          # the unseen part of the shorter list: depth items, untied
        if ties == 'w':
            return 2 * overlap / (sum(cs) + sum(cl))
        if ties == 'a':
            return overlap / depth
        return overlap / math.sqrt(sum(c * c for c in cs) * sum(c * c for c in cl))

    seen = [sum(contribution(S[k], d, ties) * contribution(L[k], d, ties) for k in S if k in L)
            for d in range(1, ell + 1)]
    a_seen = [agreement(d, seen[d - 1]) for d in range(1, ell + 1)]
    a_s = a_seen[s - 1]
    ext = []
    for d in range(1, ell + 1):
        if d <= s:
            ext.append(a_seen[d - 1])
            continue
        nonzero = [c for c in (contribution(L[k], d, ties) for k in only_l) if c > 0]
        ext.append(agreement(d, seen[d - 1] + (d - s) * a_s * sum(nonzero) / len(nonzero)))
    x_l = seen[-1]
    weights = [p ** d for d in range(1, ell + 1)]
    tail_min = x_l * (math.log(1 / (1 - p)) - sum(p ** d / d for d in range(1, ell + 1)))
    tail_ext = (x_l + (ell - s) * a_s) / ell * p ** (ell + 1) / (1 - p)
    scale = (1 - p) / p
    return (scale * (sum(a * w for a, w in zip(ext, weights, strict=True)) + tail_ext),
            scale * (sum(a * w for a, w in zip(a_seen, weights, strict=True)) + tail_min))


@pytest.mark.parametrize('ties', ['a', 'b', 'w'])
def test_tie_variants_equal_their_definitions_written_out(ties):
    rng = np.random.default_rng(ord(ties))
    for _ in range(80):
        n_x, n_y = int(rng.integers(1, 14)), int(rng.integers(1, 14))
        pool = int(rng.integers(max(n_x, n_y), n_x + n_y + 3))
        x = {f'i{k}': float(v) for k, v in zip(rng.choice(pool, n_x, replace=False), rng.integers(0, 4, n_x),
                                               strict=True)}
        y = {f'i{k}': float(v) for k, v in zip(rng.choice(pool, n_y, replace=False), rng.integers(0, 4, n_y),
                                               strict=True)}
        ext, low = corsi_urbano(x, y, 0.8, ties)
        got = irm.rbo(x, y, p=0.8, tie_variant=ties)
        assert got.extrapolated == pytest.approx(ext, abs=1e-13)
        assert got.minimum == pytest.approx(low, abs=1e-13)


def orders(ranking: dict):
    """Every way to break the ranking's ties (an untied ranking each)."""
    groups = [[k for k in ranking if ranking[k] == v] for v in sorted(set(ranking.values()), reverse=True)]
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [k for group in choice for k in group]


def test_variant_a_is_the_mean_rbo_over_the_orders_of_the_ties():
    rng = np.random.default_rng(4)
    for _ in range(25):
        n = int(rng.integers(2, 7))
        shift, extra = int(rng.integers(0, 3)), int(rng.integers(0, 2))
        x = {f'i{k}': float(v) for k, v in enumerate(rng.integers(0, 3, n))}
        y = {f'i{k + shift}': float(v) for k, v in enumerate(rng.integers(0, 3, n + extra))}
        values = [irm.rbo(a, b, p=0.9) for a in orders(x) for b in orders(y)]
        got = irm.rbo(x, y, p=0.9, tie_variant='a')
        assert got.minimum == pytest.approx(np.mean([v.minimum for v in values]), abs=1e-13)
        if not extra:      # RBO_EXT of uneven lists multiplies two random agreements: not linear in the orders
            assert got.extrapolated == pytest.approx(np.mean([v.extrapolated for v in values]), abs=1e-13)


def test_variant_a_of_uneven_lists_tied_below_the_shorter_end_is_not_the_mean_over_the_orders():
    # the docs' case: s = 2, l = 4, b and d tied at ranks 3-4 of the longer list.  A_1 = 1, A_2 = 1/2; below
    # depth 2 the overlap X_3 = 1.5 (b is in the top 3 half the time), X_4 = 2, plus (d - s) A_s times the
    # unmatched items' mean contribution (c whole, d half: 0.75 at depth 3; 1 at depth 4); the tail
    # (X_l + (l - s) A_s) / l p^(l+1) / (1 - p)
    short, longer = ['a', 'b'], {'a': 3, 'c': 2, 'b': 1, 'd': 1}
    p = 0.9
    agreement = [1, 1 / 2, (1.5 + 1 * 0.5 * 0.75) / 3, (2 + 2 * 0.5 * 1) / 4]
    want = (1 - p) / p * (sum(a * p ** d for d, a in enumerate(agreement, 1)) + (2 + 2 * 0.5) / 4 * p ** 5 / (1 - p))
    got = irm.rbo(short, longer, p=p, tie_variant='a')
    assert got.extrapolated == pytest.approx(want, abs=1e-15) and want == pytest.approx(0.742375, abs=1e-15)
    each = [irm.rbo(short, order, p=p) for order in orders(longer)]
    assert np.mean([r.extrapolated for r in each]) == pytest.approx(0.74575, abs=1e-15)      # b, d: 0.75925, 0.73225
    assert got.minimum == pytest.approx(np.mean([r.minimum for r in each]), abs=1e-15)        # RBO_MIN is the mean
    # the same lists cut to one length: RBO_EXT and RBO_RES are the means over the orders too
    even = {'a': 3, 'b': 1, 'd': 1}
    got, each = irm.rbo(['a', 'c', 'b'], even, p=p), [irm.rbo(['a', 'c', 'b'], o, p=p) for o in orders(even)]
    assert got.extrapolated == pytest.approx(np.mean([r.extrapolated for r in each]), abs=1e-15)
    assert got.residual == pytest.approx(np.mean([r.residual for r in each]), abs=1e-15)


def test_identical_tied_rankings():
    x = {'a': 3, 'b': 2, 'c': 2, 'd': 1}
    assert irm.rbo(x, x, p=0.9, tie_variant='w').extrapolated == pytest.approx(1.0)
    assert irm.rbo(x, x, p=0.9, tie_variant='b').extrapolated == pytest.approx(1.0)
    # 'a': b and c are ordered independently in the two rankings, so they agree at depth 2 only half the time
    assert irm.rbo(x, x, p=0.9, tie_variant='a').extrapolated < 1.0


def test_without_ties_the_variants_agree():
    a, b = list('abcdefgh'), list('cadbhgxy')
    values = {t: irm.rbo(a, b, p=0.9, tie_variant=t) for t in 'abw'}
    for t in 'bw':
        assert values[t].extrapolated == pytest.approx(values['a'].extrapolated, abs=1e-15)
        assert values[t].minimum == pytest.approx(values['a'].minimum, abs=1e-15)
        assert values[t].residual == pytest.approx(values['a'].residual, abs=1e-15)


@pytest.mark.parametrize('kwargs, message', [
    (dict(p=1.0), "invalid value 1.0 for option 'p': expected a number > 0 and < 1"),
    (dict(p=0), "option 'p'"),
    (dict(p=True), "option 'p'"),
    (dict(tie_variant='x'), "invalid value 'x' for option 'tie_variant'"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(irm.OptionError, match=message):
        irm.rbo(['a', 'b'], ['b', 'a'], **kwargs)


def test_empty_or_repeated_rankings_are_errors():
    with pytest.raises(irm.InputError, match='b: the ranking is empty'):
        irm.rbo(['a'], [])
    with pytest.raises(irm.InputError, match="a: item 'x' occurs twice"):
        irm.rbo(['x', 'y', 'x'], ['a'])


def test_result_object():
    result = irm.rbo(['a', 'b', 'c'], ['a', 'c'], p=0.9)
    assert (result.depth_a, result.depth_b, result.p, result.tie_variant) == (3, 2, 0.9, 'a')
    assert result.to_dict()['maximum'] == result.minimum + result.residual
    assert repr(result).startswith('RBO(extrapolated=')


# The worked example of Corsi & Urbano's implementation (julian-urbano/sigir2024-rbo, rbo/Python/README.md):
# x = red (blue green) yellow pink, y = (blue red) white (yellow black purple) green, p = 0.95; values to 7 places.
WORKED = {'a': (0.6922853, 0.3310519, 0.8930692), 'w': (0.7068257, 0.3429684, 0.9049857),
          'b': (0.7207131, 0.3509163, 0.9129336)}


@pytest.mark.parametrize('ties', sorted(WORKED))
def test_the_worked_example_of_corsi_and_urbano(ties):
    x = {'red': 4, 'blue': 3, 'green': 3, 'yellow': 2, 'pink': 1}
    y = {'blue': 4, 'red': 4, 'white': 3, 'yellow': 2, 'black': 2, 'purple': 2, 'green': 1}
    got = irm.rbo(x, y, p=0.95, tie_variant=ties)
    ext, low, high = WORKED[ties]
    assert got.extrapolated == pytest.approx(ext, abs=5e-8)
    assert got.minimum == pytest.approx(low, abs=5e-8)
    assert got.maximum == pytest.approx(high, abs=5e-8)
    assert got.residual == pytest.approx(0.5620173, abs=5e-8)


rankings_with_ties = st.dictionaries(st.sampled_from([f'i{k}' for k in range(20)]), st.integers(0, 4), min_size=1,
                                     max_size=15)


@settings(max_examples=300, deadline=None)
@given(rankings_with_ties, rankings_with_ties, st.sampled_from('abw'), st.sampled_from([0.5, 0.9, 0.99]))
def test_bounds_order_and_range(x, y, ties, p):
    r = irm.rbo(x, y, p=p, tie_variant=ties)
    assert -1e-12 <= r.minimum <= r.extrapolated + 1e-12
    assert r.extrapolated <= r.maximum + 1e-12 <= 1 + 2e-12


@pytest.mark.parametrize('p, length', [(0.9, 300), (0.99, 2000), (0.999, 3000)])
def test_minimum_of_long_identical_lists_to_the_last_digits(p, length):
    # RBO_MIN of two identical prefixes of length k: 1 - p^k + (1-p) sum_{d>k} p^(d-1) k/d, summed exactly
    # rounded (math.fsum); the difference ln(1/(1-p)) - sum_{d<=k} p^d/d would lose ~1e-14 to cancellation
    items = [f'd{i}' for i in range(length)]
    exact = math.fsum([1.0, -p ** length] + [(1 - p) * p ** (d - 1) * length / d
                                              for d in range(length + 1, length + 400_000)])
    assert abs(irm.rbo(items, items, p=p).minimum - exact) <= 2e-16
