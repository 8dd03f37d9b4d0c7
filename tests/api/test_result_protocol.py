"""One result protocol: every result irmetrics returns renders in every format of the one format registry
(``render(format)``), gives its numbers as a pandas DataFrame (``to_dataframe()``) and as plain Python values
that JSON writes as they are (``to_dict()``)."""
import json

import pandas as pd
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.rendering.formats import FORMATS

EX = ROOT / 'examples'
QRELS, BM25, DENSE = str(EX / 'qrels.txt'), str(EX / 'run_bm25.txt'), str(EX / 'run_dense.txt')
RUNS = {'bm25': BM25, 'dense': DENSE}
SLICES = {str(q): 'low' if q < 406 else 'high' for q in range(401, 411)}

RESULTS = {
    'calc': lambda: irm.calc(['AP', 'P@5'], QRELS, BM25),
    'compare': lambda: irm.compare(['AP'], QRELS, RUNS, baseline='bm25'),
    'compare_slices': lambda: irm.compare_slices(['AP'], QRELS, RUNS, slices=SLICES, baseline='bm25'),
    'urisk': lambda: irm.urisk('AP', QRELS, DENSE, baseline=BM25),
    'trisk': lambda: irm.trisk('AP', QRELS, DENSE, baseline=BM25),
    'georisk': lambda: irm.georisk('AP', QRELS, RUNS),
    'discriminative_power': lambda: irm.discriminative_power(['AP'], QRELS, RUNS, n_resamples=50),
    'swap_rates': lambda: irm.swap_rates(['AP'], QRELS, RUNS, trials=20),
    'system_agreement': lambda: irm.system_agreement('AP', QRELS, {**RUNS, 'first': {'401': {'D401-022': 1.0}}},
                                                     measure_b='P@10', tie_variant='b'),
    'reproducibility': lambda: irm.reproducibility(['AP'], QRELS, BM25, DENSE, BM25, DENSE),
    'unjudged_bounds': lambda: irm.unjudged_bounds(['P@10'], QRELS, BM25),
    'tie_dependence': lambda: irm.tie_dependence(['AP'], QRELS, BM25),
    'pool': lambda: irm.pool(QRELS, [BM25, DENSE], depth=5),
    'judgment_coverage': lambda: irm.judgment_coverage(QRELS, [BM25, DENSE]),
    'qrels_stats': lambda: irm.qrels_stats(QRELS),
    'cohen_kappa': lambda: irm.cohen_kappa(QRELS, QRELS),
    'krippendorff_alpha': lambda: irm.krippendorff_alpha(QRELS, QRELS),
    'kendall_tau': lambda: irm.kendall_tau({'a': 0.3, 'b': 0.2, 'c': 0.1}, {'a': 0.3, 'b': 0.1, 'c': 0.2}),
    'tau_ap': lambda: irm.tau_ap({'a': 0.3, 'b': 0.2, 'c': 0.1}, {'a': 0.3, 'b': 0.1, 'c': 0.2}),
    'rbo': lambda: irm.rbo(['a', 'b', 'c'], ['a', 'c', 'b']),
    'run_agreement': lambda: irm.run_agreement(BM25, DENSE),
}


@pytest.mark.parametrize('name', RESULTS)
def test_every_result_has_the_protocol(name):
    result = RESULTS[name]()
    for fmt in FORMATS:
        text = result.render(fmt)
        assert isinstance(text, str) and text.strip(), fmt
        if fmt == 'json':
            json.loads(text)
        if fmt == 'jsonl':
            [json.loads(line) for line in text.splitlines()]
    assert result.render() == result.render('table')
    with pytest.raises(irm.OptionError, match='xlsx'):
        result.render('xlsx')
    frame = result.to_dataframe()
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0
    document = result.to_dict()
    assert isinstance(document, dict) and document
    json.dumps(document, allow_nan=False)                   # plain values: NaN given as None


def test_no_result_keeps_the_old_names():
    for name in RESULTS:
        result = RESULTS[name]()
        old = [attr for attr in ('to_pandas', 'to_table', 'to_markdown', 'to_latex', 'to_html', 'to_json', 'to_csv')
               if hasattr(result, attr)]
        assert old == [], name
