"""The logarithms of the kernels of trec_eval's measures (providers/native/libm.py): the C library's, as
``math`` gives them, whatever numpy's vectorised ones give (on processors with AVX-512 numpy's log2 of
1621 is one bit below glibc's)."""
import math

import numpy as np

import irmetrics as irm
from irmetrics import DCG, nDCG
from irmetrics.providers.native.libm import log, log2, log2_rank


def test_the_discounts_are_the_c_librarys_log2_of_every_rank():
    ranks = np.arange(2_100_000)
    assert log2_rank(ranks).tolist() == [math.log2(r + 2) for r in ranks.tolist()]
    assert log2_rank(np.array([1619, 0, 3])).tolist() == [math.log2(1621), 1.0, math.log2(5)]
    assert log2_rank(np.zeros(0, dtype=np.int64)).shape == (0,)


def test_log_and_log2_of_each_value():
    rng = np.random.default_rng(0)
    x = rng.uniform(1e-3, 1e3, 100_000)
    assert log(x).tolist() == [math.log(v) for v in x.tolist()]
    assert log2(x).tolist() == [math.log2(v) for v in x.tolist()]
    with np.errstate(divide='ignore', invalid='ignore'):
        assert np.array_equal(log(np.array([0.0, -1.0, np.inf, np.nan])), np.log([0.0, -1.0, np.inf, np.nan]),
                              equal_nan=True)


def test_dcg_at_rank_1620_divides_by_the_c_librarys_log2_of_1621():
    """One relevant document (grade 5), at rank 1620 of 1,700: DCG = 5 / log2(1621), as m_ndcg.c computes it."""
    run = {'q': {f'd{i}': float(2000 - i) for i in range(1700)}}
    qrels = {'q': {'d1619': 5, 'd0': 0}}
    got = irm.calc_aggregate([DCG, nDCG, nDCG @ 1700], qrels, run)
    dcg = 5 / math.log2(1621)
    assert got == {DCG: dcg, nDCG: dcg / 5.0, nDCG @ 1700: dcg / 5.0}
