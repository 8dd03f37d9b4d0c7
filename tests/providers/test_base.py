"""The provider registry and the pytrec_eval provider's guards around trec_eval 9."""
import importlib
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from repo_paths import EXAMPLES

import irmetrics as irm
from irmetrics import AP, RR, Bpref, NumQ, NumRel, NumRet, P, ProviderError, UnsupportedMeasureError, nDCG
from irmetrics.providers.base import PROVIDERS

QRELS = {'q1': {'a': 1, 'b': 0, 'c': 2}, 'q2': {'a': 1}}
RUN = {'q1': {'a': 0.3, 'b': 0.9, 'c': 0.1}, 'q9': {'a': 1.0}}


def provider(name):
    return next(p for p in PROVIDERS if p.name == name)


def test_native_comes_first_and_computes_by_default():
    assert PROVIDERS.names()[0] == 'native'
    plan = irm.evaluator([AP, nDCG@10, Bpref, P(rel=2)@5], QRELS).engines.plan
    assert [name for name, _, _ in plan] == ['native']


def test_a_provider_can_be_forced():
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    ev = irm.evaluator([AP, NumQ], QRELS, provider='pytrec_eval')
    assert [name for name, _, _ in ev.engines.plan] == ['pytrec_eval']
    assert ev.calc_aggregate(RUN) == irm.calc_aggregate([AP, NumQ], QRELS, RUN)


def test_unknown_provider_names_the_known_ones():
    with pytest.raises(ProviderError, match=r"unknown provider 'nosuch'; providers: native, pytrec_eval"):
        irm.calc_aggregate([AP], QRELS, RUN, provider='nosuch')


def test_unsupported_measure_names_who_can_compute_it():
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    with pytest.raises(UnsupportedMeasureError, match=r"'pytrec_eval' does not support RR@5; it can be computed by: "
                                                      r"native"):
        irm.calc_aggregate([RR@5], QRELS, RUN, provider='pytrec_eval')


def test_pytrec_eval_refuses_relevance_levels_below_one():
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    assert not provider('pytrec_eval').supports(NumRet(rel=0))
    with pytest.raises(UnsupportedMeasureError, match='NumRet\\(rel=0\\).*native'):
        irm.calc_aggregate([NumRet(rel=0)], QRELS, RUN, provider='pytrec_eval')
    assert irm.calc_aggregate([NumRet(rel=0)], QRELS, RUN) == {NumRet(rel=0): 3}      # judged documents retrieved


def test_a_missing_engine_is_a_clear_error_not_an_import_error():
    code = textwrap.dedent('''
        import sys
        sys.modules['pytrec_eval'] = None                  # as if pytrec-eval-terrier were not installed
        import irmetrics as irm
        qrels, run = {'q': {'a': 1}}, {'q': {'a': 1.0, 'b': 2.0}}
        assert irm.calc_aggregate([irm.AP, irm.P@1], qrels, run) == {irm.AP: 0.5, irm.P@1: 0.0}
        try:
            irm.calc_aggregate([irm.AP], qrels, run, provider='pytrec_eval')
        except irm.ProviderError as ex:
            print(ex)
    ''')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "provider 'pytrec_eval' is not installed; install it with: pip install" in done.stdout


def test_pytrec_eval_survives_queries_judged_only_negatively():
    """trec_eval 9 reads relevance-level arrays it never allocated for such a query (bpref, ndcg):
    given it, pytrec_eval crashes or hangs.  The provider values it itself; run in a child process so
    that a regression shows as a failure rather than a dead test session."""
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    code = textwrap.dedent('''
        import json
        import irmetrics as irm
        qrels = {'10': {'d5': -1}, '11': {'d1': 1, 'd2': 0}, '12': {'d3': -1, 'd4': -2}}
        run = {'10': {'d7': 0.0, 'd5': 1.0}, '11': {'d1': 1.0, 'd9': 2.0}, '12': {'d3': 1.0}}
        measures = [irm.Bpref, irm.AP, irm.nDCG, irm.nDCG@5, irm.infAP, irm.NumQ, irm.NumRel, irm.NumRet,
                    irm.NumRet(rel=1), irm.IPrec@0.0, irm.IPrec(judged_only=True)@0.0, irm.SetF, irm.RR]
        forced = irm.calc(measures, qrels, run, provider='pytrec_eval').values.tolist()
        native = irm.calc(measures, qrels, run).values.tolist()
        print(json.dumps({'same': forced == native, 'values': forced}))
    ''')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f'status {done.returncode}: {done.stderr[-2000:]}'
    result = json.loads(done.stdout)
    assert result['same'], result
    values = result['values']
    # query 10: nothing relevant; NumQ 1, NumRet 2 (both retrieved documents), everything else 0
    assert values[0] == [0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0]


def test_grouped_invocations_keep_their_settings():
    """Measures needing different pytrec_eval invocations (rel, judged_only, gains, SetF's beta) in one call."""
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    measures = [P@1, P(rel=2)@1, P(judged_only=True)@1, nDCG, nDCG(gains={1: 10}), irm.SetF, irm.SetF(beta=3),
                irm.SetF(beta=0.5), NumRel, NumRel(rel=2)]
    forced = irm.calc(measures, QRELS, RUN, provider='pytrec_eval')
    native = irm.calc(measures, QRELS, RUN)
    assert np.allclose(forced.values, native.values, rtol=0, atol=1e-12)
    assert len({round(v, 12) for v in native.values[0, 5:8]}) == 3       # three betas, three values


def test_a_pattern_listing_values_does_not_match_the_default_it_does_not_list():
    """cwl_eval's AP divides by the relevant documents retrieved (divisor='num_rel_ret') and reads 1,000
    documents: plain AP (divisor 'num_rel', every document) was matched by its pattern, so forcing
    provider='cwl_eval' gave 0.5073 for the examples' AP, whose value is 0.4087.  Now it is refused, and
    the measure cwl_eval computes agrees with the native engine."""
    qrels, run = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'run_bm25.txt')
    for plain in (irm.parse_measure('AP'), irm.parse_measure('RR')):
        assert not provider('cwl_eval').supports(plain)
        with pytest.raises(UnsupportedMeasureError, match='does not support'):
            irm.calc_aggregate([plain], qrels, run, provider='cwl_eval')
    theirs = irm.parse_measure("AP(divisor='num_rel_ret')@1000")
    assert irm.calc_aggregate([theirs], qrels, run, provider='cwl_eval')[theirs] == \
        pytest.approx(irm.calc_aggregate([theirs], qrels, run)[theirs], abs=1e-12)
    assert provider('trectools').supports(irm.parse_measure('RBP')) and provider('trectools').supports(
        irm.parse_measure('RBP(rel=1)'))
