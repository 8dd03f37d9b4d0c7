"""irmetrics.reproducibility, rmse, effect_ratio and delta_relative_improvement: against repro_eval (the
tool of Breuer et al., SIGIR 2020) on the same per-query values and end to end on files, hand-computed
cases from the definitions, the queries counted, undefined ratios and errors."""
import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from repo_paths import ROOT
from valued_runs import precision_runs

import irmetrics as irm

QRELS = str(ROOT / 'examples' / 'qrels.txt')
BM25, DENSE = (str(ROOT / 'examples' / f'run_{n}.txt') for n in ('bm25', 'dense'))
MEASURES = ['AP', 'nDCG@10', 'P@10', 'RR']


def perturbed(path, out, seed):
    """A run like ``path`` with its scores jittered (each query still retrieved): a 'reproduction'."""
    rng = np.random.default_rng(seed)
    lines = []
    for line in Path(path).read_text().splitlines(keepends=True):
        q, z, doc, rank, score, tag = line.split()
        lines.append(f'{q} {z} {doc} {rank} {float(score) + rng.normal(0, 1.5):.4f} {tag}_rep\n')
    out.write_text(''.join(lines))
    return str(out)


@pytest.fixture
def four(tmp_path):
    return BM25, DENSE, perturbed(BM25, tmp_path / 'bm25_rep.txt', 1), perturbed(DENSE, tmp_path / 'dense_rep.txt', 2)


def per_query(run, qrels=QRELS):
    """{query: {measure: value}}, as repro_eval's scores are shaped, from irmetrics' per-query values."""
    results = irm.evaluator(MEASURES, qrels).calc(run)
    return {q: {str(m): float(v) for m, v in zip(results.measures, row, strict=True)}
            for q, row in zip(results.query_ids, results.values, strict=True)}


def test_same_numbers_as_repro_eval_on_the_same_per_query_values(four):
    from repro_eval.measure.effectiveness import RMSE
    from repro_eval.measure.overall_effects import DRI, ER
    ob, oa, rb, ra = (per_query(r) for r in four)
    result = irm.reproducibility(MEASURES, QRELS, *four)
    for name, want in (('rmse_baseline', RMSE(ob, rb)), ('rmse_advanced', RMSE(oa, ra)),
                       ('effect_ratio', ER(orig_score_a=oa, orig_score_b=ob, rep_score_a=ra, rep_score_b=rb)),
                       ('delta_ri', DRI(orig_score_a=oa, orig_score_b=ob, rep_score_a=ra, rep_score_b=rb))):
        got = getattr(result, name)
        assert [str(m) for m in result.measures] == list(want)
        np.testing.assert_allclose(got, list(want.values()), rtol=1e-12, atol=1e-14, err_msg=name)
    assert result.rmse_baseline.max() > 0 and not np.allclose(result.effect_ratio, 1)   # reproduced imperfectly


def test_same_numbers_as_repro_eval_end_to_end(four):
    """repro_eval reads the files and evaluates them itself (ir_measures, pytrec_eval): every run retrieves
    every qrels query, so the queries agree and so must the numbers."""
    from repro_eval.Evaluator import RpdEvaluator
    ob, oa, rb, ra = four
    reference = RpdEvaluator(qrels_orig_path=QRELS, run_b_orig_path=ob, run_a_orig_path=oa, run_b_rep_path=rb,
                             run_a_rep_path=ra)
    reference.trim()
    reference.evaluate()
    rmse, er, dri = reference.rmse(), reference.er(), reference.dri()
    result = irm.reproducibility(MEASURES, QRELS, ob, oa, rb, ra).to_dict()
    for measure, theirs in (('AP', 'AP'), ('nDCG@10', 'nDCG@10'), ('P@10', 'P@10'), ('RR', 'RR')):
        ours = result[measure]
        assert ours['rmse_baseline'] == pytest.approx(rmse['baseline'][theirs], rel=1e-6, abs=1e-9)
        assert ours['rmse_advanced'] == pytest.approx(rmse['advanced'][theirs], rel=1e-6, abs=1e-9)
        assert ours['effect_ratio'] == pytest.approx(er[theirs], rel=1e-6, abs=1e-9)
        assert ours['delta_ri'] == pytest.approx(dri[theirs], rel=1e-6, abs=1e-9)


def test_replicability_on_another_collection_as_repro_eval(four, tmp_path):
    """A replication judged by other qrels (here: the example qrels of queries 401-405 only): ER and
    Delta RI over each collection's own queries, as repro_eval's RplEvaluator computes them; no RMSE."""
    from repro_eval.Evaluator import RplEvaluator
    kept = {'401', '402', '403', '404', '405'}
    lines = [line for line in Path(QRELS).read_text().splitlines(keepends=True) if line.split()[0] in kept]
    other = tmp_path / 'qrels_other.txt'
    other.write_text(''.join(lines))
    ob, oa, rb, ra = four
    reference = RplEvaluator(qrels_orig_path=QRELS, run_b_orig_path=ob, run_a_orig_path=oa, run_b_rep_path=rb,
                             run_a_rep_path=ra, qrels_rpl_path=str(other))
    reference.trim()
    reference.evaluate()
    er, dri = reference.er(), reference.dri()
    result = irm.reproducibility(MEASURES, QRELS, ob, oa, rb, ra, reproduced_qrels=str(other))
    assert not result.same_collection and (result.n_queries, result.n_reproduced_queries) == (10, 5)
    assert np.isnan(result.rmse_baseline).all() and np.isnan(result.rmse_advanced).all()
    for j, m in enumerate(result.measures):
        assert result.effect_ratio[j] == pytest.approx(er[str(m)], rel=1e-6, abs=1e-9)
        assert result.delta_ri[j] == pytest.approx(dri[str(m)], rel=1e-6, abs=1e-9)


def test_hand_computed():
    """P@10 on two queries.  Original: baseline (0.2, 0.4), advanced (0.4, 0.6); reproduced: baseline
    (0.2, 0.2), advanced (0.3, 0.3).  RMSE: sqrt((0 + 0.2^2) / 2) = 0.1 sqrt(2) and sqrt((0.1^2 + 0.3^2) / 2)
    = sqrt(0.05); mean improvements 0.2 and 0.1: ER = 0.5; RI = 0.2 / 0.3 = 2/3 and 0.1 / 0.2 = 1/2:
    Delta RI = 1/6."""
    qrels, runs = precision_runs([[2, 4], [4, 6], [2, 2], [3, 3]], names=['ob', 'oa', 'rb', 'ra'])
    result = irm.reproducibility('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])
    assert result.rmse_baseline[0] == pytest.approx(0.1 * math.sqrt(2), abs=1e-15)
    assert result.rmse_advanced[0] == pytest.approx(math.sqrt(0.05), abs=1e-15)
    assert result.effect_ratio[0] == pytest.approx(0.5, abs=1e-14)
    assert result.ri_original[0] == pytest.approx(2 / 3, abs=1e-14)
    assert result.ri_reproduced[0] == pytest.approx(0.5, abs=1e-14)
    assert result.delta_ri[0] == pytest.approx(1 / 6, abs=1e-14)
    assert (result.original_baseline[0], result.reproduced_advanced[0]) == pytest.approx((0.3, 0.3))
    assert irm.rmse('P@10', qrels, runs['ob'], runs['rb'])['P@10'] == pytest.approx(0.1 * math.sqrt(2), abs=1e-15)
    assert irm.effect_ratio('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])['P@10'] == \
        pytest.approx(0.5, abs=1e-14)
    assert irm.delta_relative_improvement('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])['P@10'] \
        == pytest.approx(1 / 6, abs=1e-14)


def test_a_perfect_reproduction_and_a_reversed_one():
    result = irm.reproducibility(MEASURES, QRELS, BM25, DENSE, BM25, DENSE)
    assert not result.rmse_baseline.any() and not result.rmse_advanced.any()
    np.testing.assert_array_equal(result.effect_ratio, 1.0)
    np.testing.assert_array_equal(result.delta_ri, 0.0)
    reversed_ = irm.reproducibility(MEASURES, QRELS, BM25, DENSE, DENSE, BM25)
    np.testing.assert_allclose(reversed_.effect_ratio, -1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(reversed_.rmse_baseline, reversed_.rmse_advanced, rtol=0, atol=0)


def test_a_query_missing_from_a_run_scores_zero():
    """trec_eval -c: the reproduced baseline lacks q1, which scores 0 there (repro_eval, through
    pytrec_eval, would leave q1 out of the reproduced run's scores)."""
    qrels, runs = precision_runs([[2, 4], [4, 6], [2, 4], [4, 6]], names=['ob', 'oa', 'rb', 'ra'])
    del runs['rb']['q1']
    with pytest.warns(irm.IrmetricsWarning, match='not in the run'):
        result = irm.reproducibility('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])
    assert result.rmse_baseline[0] == pytest.approx(math.sqrt(0.4 ** 2 / 2), abs=1e-15)
    assert result.effect_ratio[0] == pytest.approx(0.4 / 0.2, abs=1e-14)        # (0.2 + 0.6) / 2 over 0.2


def test_undefined_ratios_are_nan_with_a_warning():
    qrels, runs = precision_runs([[3, 3], [3, 3], [0, 0], [2, 2]], names=['ob', 'oa', 'rb', 'ra'])
    with pytest.warns(irm.IrmetricsWarning) as caught:
        result = irm.reproducibility('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])
    messages = [str(w.message) for w in caught]
    assert any('original runs improve by 0 on average' in m for m in messages)
    assert any("reproduced baseline's mean is 0" in m for m in messages)
    assert np.isnan(result.effect_ratio[0]) and np.isnan(result.ri_reproduced[0]) and np.isnan(result.delta_ri[0])
    assert result.ri_original[0] == 0.0


def test_an_improvement_of_0_in_tenths_is_0_not_its_rounding():
    """P@10 in tenths: the original improvements -0.1, -0.1 and +0.2 add up to exactly 0, but the mean of their
    floating-point values is 9.3e-18 (ER was 1.1e16, with no warning); both original means are 1.3 / 3 in
    tenths, their floating-point sums 1.3000000000000003 and 1.3 (RI was 2.6e-16)."""
    levels = [[10, 1, 2], [9, 0, 4], [1, 2, 3], [2, 3, 4]]
    assert (np.array(levels[1]) / 10 - np.array(levels[0]) / 10).mean() != 0        # the rounding is there
    qrels, runs = precision_runs(levels, names=['ob', 'oa', 'rb', 'ra'])
    four = (runs['ob'], runs['oa'], runs['rb'], runs['ra'])
    with pytest.warns(irm.IrmetricsWarning, match='original runs improve by 0 on average'):
        result = irm.reproducibility('P@10', qrels, *four)
    assert np.isnan(result.effect_ratio[0]) and result.ri_original[0] == 0.0
    assert result.ri_reproduced[0] == pytest.approx(0.5, rel=1e-15)                # 0.3 / 0.6
    with pytest.warns(irm.IrmetricsWarning, match='the effect ratio is undefined'):
        assert math.isnan(irm.effect_ratio('P@10', qrels, *four)['P@10'])
    assert irm.delta_relative_improvement('P@10', qrels, *four)['P@10'] == pytest.approx(-0.5, rel=1e-15)
    # a reproduced improvement of 0 in tenths (-0.1 + 0.1; 1.4e-17 in floating point) is an effect ratio of 0
    levels = [[2, 4], [4, 6], [10, 1], [9, 2]]
    assert (np.array(levels[3]) / 10 - np.array(levels[2]) / 10).mean() != 0
    qrels, runs = precision_runs(levels, names=['ob', 'oa', 'rb', 'ra'])
    assert irm.effect_ratio('P@10', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])['P@10'] == 0.0


def test_a_baseline_mean_of_0_up_to_rounding_is_undefined():
    # values of both signs whose mean is 0 in exact arithmetic (0.1 + 0.2 - 0.3 is 5.6e-17 in floating point)
    from irmetrics.trust.reproducibility import relative_improvement
    baseline, advanced = np.array([[0.1], [0.2], [-0.3]]), np.array([[0.2], [0.2], [0.2]])
    assert baseline.mean() != 0
    with pytest.warns(irm.IrmetricsWarning, match="the original baseline's mean is 0"):
        assert np.isnan(relative_improvement(baseline, advanced, [irm.parse_measure('AP')], 'original')).all()


def test_errors_and_result_object():
    with pytest.raises(irm.MeasureError, match='summed over queries'):
        irm.reproducibility('NumRet', QRELS, BM25, DENSE, BM25, DENSE)
    with pytest.raises(irm.MeasureError, match='summed over queries'):
        irm.rmse('NumRel', QRELS, BM25, DENSE)
    result = irm.reproducibility(['AP', 'P@5'], QRELS, BM25, DENSE, DENSE, BM25)
    assert isinstance(result, irm.Reproducibility)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.same_collection = False
    frame = result.to_dataframe()
    assert list(frame.columns) == ['measure', 'original_baseline', 'original_advanced', 'reproduced_baseline',
                                   'reproduced_advanced', 'rmse_baseline', 'rmse_advanced', 'effect_ratio',
                                   'ri_original', 'ri_reproduced', 'delta_ri']
    assert frame.measure.tolist() == ['AP', 'P@5']
    assert result.to_dict()['AP']['effect_ratio'] == pytest.approx(-1.0, abs=1e-14)
    assert repr(result) == '<Reproducibility: 2 measures, same collection; effect ratio AP -1.000, P@5 -1.000>'
    assert str(result).splitlines()[0].split()[:3] == ['measure', 'original_baseline', 'original_advanced']


def test_a_measure_undefined_on_a_query():
    """AUC is undefined on q0 (no judged non-relevant document): the RMSE and the mean improvements count
    the queries where both runs compared are defined, the means (RI) those where each run is."""
    qrels, runs = precision_runs([[2, 4, 6], [4, 6, 9], [3, 4, 5], [3, 7, 8]], names=['ob', 'oa', 'rb', 'ra'])
    qrels['q0'] = {f'r{i}': 1 for i in range(10)}
    values = {name: irm.evaluator('AUC', qrels).calc(run).values[:, 0] for name, run in runs.items()}
    assert np.isnan([v[0] for v in values.values()]).all() and not np.isnan([v[1:] for v in values.values()]).any()
    result = irm.reproducibility('AUC', qrels, runs['ob'], runs['oa'], runs['rb'], runs['ra'])
    ob, oa, rb, ra = (values[n][1:] for n in ('ob', 'oa', 'rb', 'ra'))
    assert result.rmse_baseline[0] == pytest.approx(math.sqrt(((ob - rb) ** 2).mean()), abs=1e-15)
    assert result.effect_ratio[0] == pytest.approx((ra - rb).mean() / (oa - ob).mean(), abs=1e-14)
    ri = (oa.mean() - ob.mean()) / ob.mean() - (ra.mean() - rb.mean()) / rb.mean()
    assert result.delta_ri[0] == pytest.approx(ri, abs=1e-14)
