"""Comparisons within query slices with one correction over all of them."""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics.comparing import corrections


def collection(n=30, seed=0):
    """n queries, one relevant document each; run 'b' ranks it higher than run 'a' on most queries."""
    rng = np.random.default_rng(seed)
    qrels = {f'q{i}': {'r': 1} for i in range(n)}

    def run(shift):
        ranks = np.clip(rng.integers(1, 6, n) - shift, 1, None)
        return {f'q{i}': {**{f'n{j}': 100.0 - j for j in range(int(k) - 1)}, 'r': 100.0 - int(k) + 1}
                for i, k in enumerate(ranks)}
    return qrels, {'a': run(0), 'b': run(2)}


def test_the_correction_spans_every_slice():
    qrels, runs = collection()
    slices = {f'q{i}': ('even' if i % 2 == 0 else 'odd') for i in range(30)}
    sliced = irm.compare_slices('AP RR', qrels, runs, slices=slices, baseline='a', correction='holm')
    assert list(sliced) == ['even', 'odd'] and all(len(c.query_ids) == 15 for c in sliced.values())
    raw = np.stack([sliced[g].pvalue['t'] for g in sliced])                     # (slices, pairs, measures)
    for j in range(2):                                                          # within each measure
        expected = corrections.adjust_pvalues(raw[:, :, j].ravel(), 'holm')
        assert np.allclose(np.array([sliced[g].p_adjusted['t'][0, j] for g in sliced]), expected)
    for cmp in sliced.values():
        alone = irm.compare('AP RR', {q: qrels[q] for q in cmp.query_ids}, runs, baseline='a')
        assert np.array_equal(cmp.pvalue['t'], alone.pvalue['t'])              # each slice compared on its own
        assert (cmp.significant['t'] == (cmp.p_adjusted['t'] <= 0.05)).all()
        assert cmp.family_size == 2 and 'in 2 query slices' in str(cmp)
    frame = sliced.to_dataframe()
    assert frame.columns[0] == 'slice' and set(frame.slice) == {'even', 'odd'} and len(frame) == 2 * 2 * 2


def test_slices_given_as_lists_and_errors():
    qrels, runs = collection(12)
    sliced = irm.compare_slices('AP', qrels, runs,
                                slices={'one': [f'q{i}' for i in range(6)],
                                                    'two': [f'q{i}' for i in range(6, 12)]})
    assert [len(c.query_ids) for c in sliced.values()] == [6, 6]
    with pytest.raises(irm.ComparisonError, match="query 'nope' is not a query of the qrels"):
        irm.compare_slices('AP', qrels, runs, slices={'one': ['nope']})
