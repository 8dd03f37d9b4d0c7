"""The measures added for trec_eval 10, checked by hand on small cases (1e-12), and their algebra:
parameters, repr round trip, trec_eval names both ways.

The case (``CASE``): query q1 judges a=2, b=0, c=1, d=3 and f=-1 (pooled, not judged); the run ranks
a, e (not in the qrels), b, d.  R = 3 relevant documents (a, c, d); the ideal gains are 3, 2, 1.
Query q2 judges x=1 and retrieves only y (not in the qrels).
"""
import math

import pytest
from repo_paths import FIXTURES

import irmetrics as irm
from irmetrics import (
    AP,
    DCG,
    IDCG,
    RBP,
    YAAP,
    Bpref,
    G,
    IPrec,
    IPrecAvg,
    NumRet,
    P,
    RBPResidual,
    RnDCG,
    Rprec,
    Unjudged,
    Utility,
    infAP,
    nDCG,
    nDCGRel,
)
from irmetrics.dialects.trec_eval import parse_trec_measure, trec_output_name

QRELS = 'q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq1 0 d 3\nq1 0 f -1\nq2 0 x 1\n'
RUN = 'q1 Q0 a 1 3.0 r\nq1 Q0 e 2 2.5 r\nq1 Q0 b 3 2.0 r\nq1 Q0 d 4 1.0 r\nq2 Q0 y 1 1.0 r\n'
L3 = math.log2(3)
IDCG_ALL = 3 + 2 / L3 + 1 / 2
DCG_ALL = 2 + 3 / math.log2(5)

HAND = [
    # AP: (1/1 + 2/4) / 3; GMAP: the geometric mean with q2's 0 floored at 1e-5
    (AP, 0.5, 0.25), (AP(agg='gmean'), 0.5, math.sqrt(0.5 * 1e-5)),
    (Bpref(agg='gmean'), 1 / 3 * (1 + (1 - 1 / 1)), math.sqrt(1 / 3 * 1e-5)),
    # R = 3, level 0.4: trec_eval 9 needs int(1.2 + 0.9) = 2 relevant documents, trec_eval 10 lround(1.2) = 1
    (IPrec@0.4, 0.5, 0.25), (IPrec(rounding='trec_eval_10')@0.4, 1.0, 0.5),
    (IPrec(rounding='trec_eval_10')@0.5, 0.5, 0.25),                  # lround(1.5) = 2, half away from 0
    # 11 levels, trec_eval 10: counts 0,0,1,1,1,2,2,2,2,3,3 -> 1,1,1,1,1,.5,.5,.5,.5,0,0
    (IPrecAvg(rounding='trec_eval_10'), 7 / 11, 7 / 22),
    (IPrecAvg(levels=(0.4, 1.0), rounding='trec_eval_10'), 0.5, 0.25),
    (IPrecAvg(levels=(1.0, 0.4)), 0.25, 0.125),                         # trec_eval 9: 0.4 needs 2 -> 0.5
    # Rprec(mult): P at int(mult * 3 + 0.9): 1, 4, 6
    (Rprec(mult=0.2), 1.0, 0.5), (Rprec(mult=1.2), 0.5, 0.25), (Rprec(mult=2.0), 2 / 6, 1 / 6),
    (Rprec, 1 / 3, 1 / 6),
    (P(relative=True)@2, 0.5, 0.25), (P(relative=True)@5, 2 / 3, 1 / 3), (P@5, 0.4, 0.2),
    # 2 relevant and 2 non-relevant retrieved, 1 relevant missed, N - 2 - 2 - 1 others
    (Utility, 0.0, -0.5),
    (Utility(rel_ret=2, nonrel_ret=-1, rel_unret=0.5, nonrel_unret=0.001, num_docs=100),
     4 - 2 + 0.5 + 0.001 * 95, (2.595 + (-1 + 0.5 + 0.001 * 98)) / 2),
    (NumRet(judged_nonrel=True), 1, 1), (NumRet(judged_nonrel=True, rel=3), 2, 2),
    (NumRet(judged_only=True), 3, 3), (NumRet, 4, 5),
    # G: gains 2 (rank 1) and 3 (rank 4); the ideal's cost 3 after one rank, 3+2+1+1 after four
    (G, (2 / math.log2(2 + 3 - 2) + 3 / math.log2(2 + 7 - 5)) / 6, None),
    (G(rel=1), (1 / math.log2(2) + 1 / math.log2(2 + 2)) / 3, None),      # binG: 0 and 2 non-relevant above
    (IDCG, IDCG_ALL, (IDCG_ALL + 1) / 2), (IDCG@2, 3 + 2 / L3, (3 + 2 / L3 + 1) / 2),
    (DCG, DCG_ALL, DCG_ALL / 2), (nDCG, DCG_ALL / IDCG_ALL, DCG_ALL / IDCG_ALL / 2),
    # nDCGRel: a at rank 1 (2 / 3), d at rank 4 (DCG@4 / IDCG@3), c missed (DCG / IDCG)
    (nDCGRel, (2 / 3 + 2 * DCG_ALL / IDCG_ALL) / 3, None),
    # RnDCG: the ideal's gain changes after 1, 2 and 3 documents; the ranking (4) is not >= 3 + 2 long
    (RnDCG, (2 / 3 + 2 / (3 + 2 / L3) + 2 / IDCG_ALL) / 3, None),
    (RnDCG(rel=4), 0.0, 0.0),                                            # no document of grade >= 4
    (Unjudged@5, 1 / 5, (1 / 5 + 1 / 5) / 2), (Unjudged@2, 1 / 2, (1 / 2 + 1 / 2) / 2),
    (Unjudged(judged_only=True)@2, 0.0, 0.0),
    # trec_eval's rbp: the query's highest grade is 3, so gains 2/3 and 1
    (RBP(max_rel='query', p=0.9), 0.1 * (2 / 3 + 0.9 ** 3), None),
    (RBP(max_rel='query', p=0.5, gains={2: 4}), 0.5 * (4 / 4 + 3 / 4 * 0.5 ** 3), None),
    (RBPResidual(tail='if_unjudged', p=0.9), 0.1 * 0.9 + 0.9 ** 4, (0.7461 + 1.0) / 2),
    (RBPResidual(tail='if_unjudged', p=0.9, judged_only=True), 0.0, 0.0),
    (YAAP, math.log((1 + 1.5) / (1 + 3 - 1.5)), None),
    (infAP(judged_only=True), (1 + (1 / 3 + 2 / 3 * (2 / 2) * ((1 + 1e-5) / (2 + 2e-5)))) / 3, None),
]


@pytest.mark.parametrize('measure, q1, mean', HAND, ids=lambda x: repr(x) if isinstance(x, irm.Measure) else '')
def test_hand_computed(measure, q1, mean):
    results = irm.calc([measure], QRELS, RUN)
    values = {m.query_id: m.value for m in results.per_query}
    assert values['q1'] == pytest.approx(q1, abs=1e-12, rel=1e-12)
    if mean is not None:
        assert results.aggregated[measure] == pytest.approx(mean, abs=1e-12, rel=1e-12)


def test_q2_values_where_they_are_not_zero():
    values = {m.measure: m.value for m in irm.iter_calc([YAAP, RBPResidual(tail='if_unjudged', p=0.9), IDCG,
                                                         Utility(rel_unret=2)], QRELS, RUN) if m.query_id == 'q2'}
    assert values[YAAP] == pytest.approx(math.log(1 / 2), abs=1e-12)   # no relevant document retrieved, R = 1
    assert values[RBPResidual(tail='if_unjudged', p=0.9)] == pytest.approx(1.0, abs=1e-12)
    assert values[IDCG] == 1.0
    assert values[Utility(rel_unret=2)] == -1 + 2


def test_a_query_missing_from_the_run():
    """q2 is not in the run: most measures score 0; YAAP, IDCG and RnDCG are computed on an empty
    ranking (the residual, with its tail only if unjudged, is 0)."""
    run = 'q1 Q0 a 1 3.0 r\n'
    values = {m.measure: m.value for m in irm.iter_calc([YAAP, IDCG, RnDCG, RBPResidual(tail='if_unjudged'),
                                                         RBPResidual, Utility(rel_unret=2)], QRELS, run)
              if m.query_id == 'q2'}
    assert values == {YAAP: math.log(1 / 2), IDCG: 1.0, RnDCG: 0.0, RBPResidual(tail='if_unjudged'): 0.0,
                      RBPResidual: 1.0, Utility(rel_unret=2): 0.0}


def test_rndcg_is_undefined_without_a_positive_gain():
    """Every gain 0: trec_eval's RnDCG averages no point (0/0)."""
    value = irm.calc_aggregate([RnDCG(gains={1: 0, 2: 0, 3: 0})], QRELS, RUN)
    assert math.isnan(next(iter(value.values())))


def test_rndcg_counts_the_end_of_a_ranking_longer_than_the_ideal_by_two():
    qrels = 'q 0 a 1\nq 0 b 0\n'
    deep = 'q Q0 x 1 9 r\nq Q0 a 2 8 r\nq Q0 y 3 7 r\n'             # n = 3 >= L + 2 = 3: nDCG@1 and nDCG@3
    shallow = 'q Q0 x 1 9 r\nq Q0 a 2 8 r\n'                        # n = 2: nDCG@1 only
    assert irm.calc_aggregate([RnDCG], qrels, deep)[RnDCG] == pytest.approx((0 + L3 ** -1) / 2, abs=1e-12)
    assert irm.calc_aggregate([RnDCG], qrels, shallow)[RnDCG] == 0.0


def test_relevance_strings():
    from irmetrics.providers.native.relstring import relevance_strings
    qrels, run = irm.read_trec_qrels(QRELS), irm.read_trec_run(RUN + 'q1 Q0 f 5 0.5 r\nq1 Q0 z 6 0.1 r\n')
    assert relevance_strings(qrels, run, 10) == ['2-03.-', '-']
    assert relevance_strings(qrels, run, 3) == ['2-0', '-']
    assert relevance_strings(qrels, run, 10, judged_only=True) == ['203', '']
    twelve = irm.read_trec_qrels('q 0 a 12\n')
    assert relevance_strings(twelve, irm.read_trec_run('q Q0 a 1 1 r\n'), 10) == ['>']


def test_geometric_mean_floors_each_value():
    agg = irm.calc_aggregate([AP(agg='gmean'), irm.parse_measure('GMAP')], QRELS, RUN)
    assert len(agg) == 1 and next(iter(agg.values())) == pytest.approx(math.sqrt(0.5 * 1e-5), rel=1e-12)


# --- the algebra -----------------------------------------------------------------------------------------
SAMPLES = [
    AP(agg='gmean'), Bpref(agg='gmean', rel=2), IPrec(rounding='trec_eval_10')@0.25, IPrecAvg,
    IPrecAvg(levels=(0.2, 0.5, 0.8)), IPrecAvg(levels=(0.5,), rounding='trec_eval_10'), Rprec(mult=0.2),
    P(relative=True)@5, Utility(rel_ret=2, nonrel_ret=-1, nonrel_unret=0.001, num_docs=100),
    NumRet(judged_nonrel=True, rel=2), NumRet(judged_only=True), G, G(rel=2), G(gains={1: 2}), IDCG, IDCG@10,
    nDCGRel, RnDCG(rel=2), Unjudged@5, RBP(max_rel='query', p=0.9), RBP(gains={2: 4}, max_rel='query'),
    RBPResidual(tail='if_unjudged'), YAAP, infAP(judged_only=True), nDCGRel(gains={1: 3}, judged_only=True),
]


@pytest.mark.parametrize('measure', SAMPLES, ids=repr)
def test_repr_round_trips(measure):
    assert irm.parse_measure(repr(measure)) == measure


@pytest.mark.parametrize('text, expected', [
    ('GMAP', AP(agg='gmean')), ('binG', G(rel=1)), ('NumNonRelJudgedRet', NumRet(judged_nonrel=True)),
    ('IPrecAvg(levels=(0.8,0.2))', IPrecAvg(levels=(0.2, 0.8))),
    ('IPrecAvg(levels=(0.5,0.5))', IPrecAvg(levels=[0.5, 0.5])),
    ("RBP(max_rel='query')", RBP(max_rel='query')), ('Rprec(mult=1)', Rprec),
])
def test_parse(text, expected):
    assert irm.parse_measure(text) == expected


@pytest.mark.parametrize('build, fragment', [
    (lambda: AP(agg='median'), 'agg'), (lambda: IPrec(rounding='nearest')@0.5, 'rounding'),
    (lambda: IPrecAvg(levels=()), 'levels'), (lambda: IPrecAvg(levels=(0.5, 1.5)), 'levels'),
    (lambda: IPrecAvg(levels='0.5'), 'levels'), (lambda: Rprec(mult=-1), 'mult'),
    (lambda: RBP(max_rel='all'), 'max_rel'), (lambda: RBP(rel=1, gains={1: 2}), 'not both'),
    (lambda: G(rel=1, gains={1: 2}), 'not both'), (lambda: Unjudged, 'cutoff'),
    (lambda: RBPResidual(tail='never'), 'tail'), (lambda: Utility(num_docs=1.5), 'num_docs'),
])
def test_invalid_parameters_fail_when_built(build, fragment):
    with pytest.raises(irm.MeasureError, match=fragment):
        irm.parse_measure(build())


@pytest.mark.parametrize('trec, measures', [
    ('gm_map', [AP(agg='gmean')]), ('gm_bpref', [Bpref(agg='gmean')]), ('11pt_avg', [IPrecAvg]),
    ('11pt_avg.0.2,0.5,0.8', [IPrecAvg(levels=(0.2, 0.5, 0.8))]),
    ('Rprec_mult.0.5,2', [Rprec(mult=0.5), Rprec(mult=2.0)]), ('relative_P.5', [P(relative=True)@5]),
    ('utility.2,-1,0,0.001', [Utility(rel_ret=2, nonrel_unret=0.001)]), ('utility', [Utility]),
    ('num_nonrel_judged_ret', [NumRet(judged_nonrel=True)]), ('G', [G]), ('G.1=3', [G(gains={1: 3})]),
    ('binG', [G(rel=1)]), ('dcg', [DCG]), ('ideal_dcg', [IDCG]), ('ndcg_rel', [nDCGRel]), ('Rndcg', [RnDCG]),
    ('ndcg.1=0,2=3', [nDCG(gains={1: 0, 2: 3})]), ('unj', [Unjudged@5, Unjudged@10, Unjudged@20]),
    ('rbp', [RBP(max_rel='query', p=0.9)]), ('rbp.p=0.5,2=4', [RBP(max_rel='query', p=0.5, gains={2: 4})]),
    ('rbp_resid', [RBPResidual(tail='if_unjudged', p=0.9)]), ('yaap', [YAAP]),
])
def test_trec_eval_names_both_ways(trec, measures):
    assert parse_trec_measure(trec) == measures
    base = trec.split('.')[0]
    for m in measures:
        name = trec_output_name(m)
        assert name is not None and (name == base or name.startswith(base + '_'))
        assert parse_trec_measure(name.replace(f'{base}_', f'{base}.', 1) if name != base else name)[0] == m \
            or base in ('unj', 'Rprec_mult')


@pytest.mark.parametrize('measure, name', [
    (Utility(rel_ret=2, nonrel_unret=0.001), 'utility_2,-1,0,0.001'), (RBP(max_rel='query', p=0.5), 'rbp_p=0.5'),
    (RBPResidual(tail='if_unjudged', p=0.9), 'rbp_resid'), (IPrecAvg(levels=(0.2, 0.8)), '11pt_avg_0.2,0.8'),
    (Rprec(mult=0.5), 'Rprec_mult_0.50'), (Unjudged@10, 'unj_10'), (RBP(p=0.9), None), (G(rel=2), 'binG'),
    (AP(divisor='num_rel_ret'), None), (IPrec(rounding='trec_eval_10')@0.25, 'iprec_at_recall_0.25'),
])
def test_trec_output_names(measure, name):
    assert trec_output_name(measure) == name


@pytest.mark.parametrize('text, fragment', [
    ('P.5,5', 'given twice'), ('P.0', 'cutoff'), ('utility.1,2', '4 parameter'), ('ndcg.x=1', "no parameter 'x'"),
    ('rbp_resid.2=3', "no parameter '2'"), ('ndcg.1', 'name=number'), ('prefs_simp.2', 'takes no parameters'),
    ('map_avgjg.5', 'takes no parameters'), ('relstring', 'not a measure'), ('iprec_at_recall.0.5,.5', 'given twice'),
])
def test_trec_eval_parameters_refused(text, fragment):
    with pytest.raises(irm.MeasureError, match=fragment):
        parse_trec_measure(text)


def test_iprec_rounding_on_trec_evals_topic_302():
    """R = 77 at recall 0.6: trec_eval 9 needs int(46.2 + 0.9) = 47 relevant documents, trec_eval 10
    lround(46.2) = 46; trec_eval 10 prints 0.1528 (stored output of the conformance corpus)."""
    case = FIXTURES / 'conformance' / 'trec_eval_302'
    nine, ten = IPrec@0.6, IPrec(rounding='trec_eval_10')@0.6
    values = irm.calc_aggregate([nine, ten], str(case / 'qrels'), str(case / 'run'))
    assert f'{values[nine]:.4f}' == '0.1420' and f'{values[ten]:.4f}' == '0.1528'
    assert 'iprec_at_recall_0.60  \t302\t0.1528' in (case / 'trec_eval.out').read_text()
    pytest.importorskip('pytrec_eval')                   # pytrec_eval embeds trec_eval 9
    value = irm.calc_aggregate([nine], str(case / 'qrels'), str(case / 'run'), provider='pytrec_eval')
    assert f'{value[nine]:.4f}' == '0.1420'
