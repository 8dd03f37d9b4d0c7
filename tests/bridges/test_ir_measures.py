"""irmetrics inside ir_measures (``irm.use_in_ir_measures()``): the provider's contract and its numbers.

Agreement: on generated collections without tied scores, ``ir_measures.iter_calc``,
``calc_aggregate`` and ``evaluator`` through the irmetrics provider give, for every measure both
support, the queries and values of the ir_measures provider that computes the measure without
irmetrics (pytrec_eval for most; cwl_eval, compat, judged, msmarco, gdeval, accuracy, pyndeval and
ranx for the others; ir_measures' ranx provider fails under pandas 3, so the one measure only it
computes, nDCG(dcg='exp-log2') without a cutoff, is compared with gdeval at a depth below every
ranking).  Contract: which queries are reported (a qrels query missing from the run gets
the measure's DEFAULT, a query only in the run nothing, Accuracy alone leaves undefined queries out), the
measure objects yielded (those asked for, by identity), the measures declined (ir_measures falls back),
and installing and removing the provider.  Every test restores ir_measures' pipeline (the
``ir_measures_pipeline`` fixture).
"""
import ast
import logging
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from reference_tools import reference
from repo_paths import EXAMPLES, ROOT

import irmetrics as irm

ir_measures = reference('ir_measures')
logging.getLogger('ir_measures').disabled = True      # cwl_eval's max_rel warnings on every evaluator
TOL = 1e-9


def collection(seed, subtopics=False):
    """(qrels records, run dict) without tied scores: graded judgments (negative ones too), a query
    without relevant documents, a qrels query missing from the run, a query only in the run, unjudged
    documents (one at the bottom of every ranking, so that ir_measures' accuracy provider never divides
    by zero).  Query ids are numbers (gdeval refuses others).  ``subtopics``: documents judged under
    several iterations, for the diversity measures."""
    rng = np.random.default_rng(seed)
    docs = [f'd{i}' for i in range(25)]
    qrels, run = [], {}
    for q in range(1, 9):
        judged = rng.choice(docs, size=int(rng.integers(3, 12)), replace=False)
        for topic in (range(1, int(rng.integers(2, 4))) if subtopics else [0]):
            for d in judged:
                if not subtopics or rng.random() < 0.6:
                    grade = 0 if q == 3 else int(rng.choice([-1, 0, 0, 1, 1, 2, 3]))
                    qrels.append(ir_measures.Qrel(str(q), str(d), grade, str(topic)))
        if q != 5:
            ranked = list(rng.choice(docs, size=int(rng.integers(1, 15)), replace=False)) + ['unjudged']
            run[str(q)] = {str(d): float(len(ranked) - i) for i, d in enumerate(ranked)}
    run['99'] = {'d1': 2.0, 'd2': 1.0}
    return qrels, run


M = None        # the measures, built on first use so that ir_measures is imported only by tests


def routed_measures():
    """ir_measures measures, by the provider of ir_measures' default pipeline that computes them."""
    m = ir_measures
    return {
        'pytrec_eval': [
            m.P@1, m.P@5, m.P(rel=2)@5, m.P(judged_only=True)@5, m.R@5, m.R(rel=2)@10, m.R(judged_only=True)@5,
            m.AP, m.AP@5, m.AP(rel=2), m.AP(judged_only=True), m.RR, m.RR(rel=2), m.RR(judged_only=True),
            m.Rprec, m.Rprec(rel=2), m.Rprec(judged_only=True), m.Bpref, m.Bpref(rel=2), m.infAP, m.infAP(rel=2),
            m.nDCG, m.nDCG@3, m.nDCG@10, m.nDCG(judged_only=True)@5, m.nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7}),
            m.nDCG(gains={1: 5, 2: 1})@5, m.Success@1, m.Success(rel=2)@10, m.IPrec@0.0, m.IPrec@0.5,
            m.IPrec(rel=2)@0.3, m.SetP, m.SetP(rel=2), m.SetRelP, m.SetP(judged_only=True), m.SetR, m.SetR(rel=2),
            m.SetF, m.SetF(beta=0.5), m.SetAP, m.SetAP(rel=2), m.NumQ, m.NumRel, m.NumRet, m.NumRelRet,
            m.NumRet(rel=2),
        ],
        'cwl_eval': [
            m.RBP(rel=1), m.RBP(rel=2, p=0.5), m.SDCG(max_rel=3)@5, m.BPM(max_rel=3)@5, m.BPM(T=2.0, max_rel=3)@10,
            m.NERR8(max_rel=3)@5, m.NERR9(max_rel=3)@10, m.NERR10(max_rel=3), m.NERR11(max_rel=3),
            m.INST(max_rel=3), m.INSQ(T=2.0, max_rel=3),
        ],
        'compat': [m.Compat, m.Compat(p=0.8), m.Compat(normalize=False)],
        'judged': [m.Judged@5, m.Judged@10, m.Judged],
        'msmarco': [m.RR@5, m.RR(rel=2)@10],
        'gdeval': [m.nDCG(dcg='exp-log2')@5, m.ERR@10],
        'accuracy': [m.Accuracy, m.Accuracy(rel=2), m.Accuracy@100],
        # one (rel, alpha, beta) setting per call: ir_measures' pyndeval provider evaluates only the first
        # setting of a call (its run is a generator, used up by the first); it fails with judged_only=True
        'pyndeval': [m.alpha_nDCG@5, m.alpha_DCG@10, m.ERR_IA@5, m.nERR_IA@10, m.NRBP, m.nNRBP, m.AP_IA, m.P_IA@5,
                     m.StRecall@10],
        'pyndeval alpha=0.8': [m.alpha_nDCG(alpha=0.8)@5, m.alpha_DCG(alpha=0.8)@10, m.NRBP(alpha=0.8),
                               m.nNRBP(alpha=0.8)],
        'pyndeval rel=2': [m.alpha_nDCG(rel=2)@5, m.P_IA(rel=2)@5, m.StRecall(rel=2)@10, m.AP_IA(rel=2)],
    }


#: gdeval prints 5 decimals
TOLERANCE = {'gdeval': 5e-6}


def per_query(metrics):
    out = {}
    for x in metrics:
        assert (x.query_id, x.measure) not in out, f'{x} reported twice'
        out[x.query_id, x.measure] = x.value
    return out


def assert_same(got, expected, tol, where):
    assert set(got) == set(expected), f'{where}: reported {sorted(set(got) ^ set(expected), key=str)} differ'
    for key, want in expected.items():
        if isinstance(want, float) and math.isnan(want):
            # pyndeval's nNRBP is NaN (0/0) for a query without relevant documents: irmetrics' is 0
            assert key[1].NAME == 'nNRBP' and got[key] == 0.0, (where, key, got[key])
        else:
            assert abs(got[key] - want) <= tol, (where, key, got[key], want)


def routed():
    return [pytest.param(name, id=name) for name in routed_measures()]


def data_for(group, seed):
    return collection(seed, subtopics=group.startswith('pyndeval'))


def provider_of(group):
    return ir_measures.providers.registry[group.split()[0]]


@pytest.mark.parametrize('seed', [0, 1, 2])
@pytest.mark.parametrize('provider', routed())
def test_iter_calc_agrees_with_the_provider_ir_measures_would_use(ir_measures_pipeline, provider, seed):
    measures = routed_measures()[provider]
    qrels, run = data_for(provider, seed)
    assert type(ir_measures.DefaultPipeline.evaluator(measures, qrels)) is \
        type(provider_of(provider).evaluator(measures, qrels))
    expected = per_query(provider_of(provider).iter_calc(measures, qrels, run))
    irm.use_in_ir_measures()
    evaluator = ir_measures.DefaultPipeline.evaluator(measures, qrels)
    assert type(evaluator).__module__ == 'irmetrics.bridges.ir_measures'      # every measure goes to irmetrics
    got = per_query(ir_measures.iter_calc(measures, qrels, run))
    assert_same(got, expected, TOLERANCE.get(provider, TOL), provider)


@pytest.mark.parametrize('provider', routed())
def test_calc_aggregate_and_evaluator_agree(ir_measures_pipeline, provider):
    measures = routed_measures()[provider]
    qrels, run = data_for(provider, 7)
    _, other = data_for(provider, 8)
    reference_provider = provider_of(provider)
    expected = [reference_provider.calc_aggregate(measures, qrels, r) for r in (run, other)]
    irm.use_in_ir_measures()
    evaluator = ir_measures.evaluator(measures, qrels)              # qrels prepared once, two runs
    tol = TOLERANCE.get(provider, TOL)
    for r, want in zip((run, other), expected, strict=True):
        for got in (ir_measures.calc_aggregate(measures, qrels, r), evaluator.calc_aggregate(r)):
            assert set(got) == set(want)
            for m, value in want.items():
                if math.isnan(value):                      # nNRBP's NaN queries (see assert_same)
                    assert m.NAME == 'nNRBP' and not math.isnan(got[m])
                else:
                    assert got[m] == pytest.approx(value, abs=tol), m
    aggregated, per_query_metrics = ir_measures.calc(measures, qrels, run)
    assert set(aggregated) == set(measures) and len(per_query_metrics) > 0


def test_the_measure_objects_yielded_are_those_asked_for(ir_measures_pipeline):
    irm.use_in_ir_measures()
    qrels, run = collection(3)
    measures = routed_measures()['pytrec_eval'] + routed_measures()['accuracy']
    assert all(any(x.measure is m for m in measures) for x in ir_measures.iter_calc(measures, qrels, run))
    # two objects with one identity (P@5 and P(rel=1)@5) both get their values, each its own object
    a, b = ir_measures.P@5, ir_measures.P(rel=1)@5
    provider = ir_measures.providers.registry['irmetrics']
    got = list(provider.evaluator([a, b], qrels).iter_calc(run))
    assert all(type(x) is ir_measures.Metric for x in got)
    for query in {q.query_id for q in qrels} & set(run):
        assert {id(x.measure) for x in got if x.query_id == query} == {id(a), id(b)}


def test_exp_log2_ndcg_without_cutoff_is_gdeval_at_full_depth(ir_measures_pipeline):
    qrels, run = collection(6)
    expected = per_query(ir_measures.gdeval.iter_calc([ir_measures.nDCG(dcg='exp-log2')@1000], qrels, run))
    irm.use_in_ir_measures()
    got = per_query(ir_measures.iter_calc([ir_measures.nDCG(dcg='exp-log2')], qrels, run))
    assert_same({q: v for (q, _), v in got.items()}, {q: v for (q, _), v in expected.items()}, 5e-6, 'gdeval')


# --- which queries are reported ----------------------------------------------------------------
QRELS = {'1': {'a': 1, 'b': 0, 'c': 2}, '2': {'d': 1}, '3': {'e': 0}, '4': {'f': 1, 'g': 0}}
RUN = {'1': {'a': 3.0, 'b': 2.0, 'x': 1.0}, '3': {'e': 1.0, 'y': 0.5}, '4': {}, '9': {'z': 1.0}}


def test_missing_and_run_only_queries_as_ir_measures_reports_them(ir_measures_pipeline):
    """Query 2 is missing from the run: DEFAULT (0), NumQ and NumRel included; query 4 is named by the
    run with no document: evaluated as an empty ranking (NumQ 1), as pytrec_eval does; query 9 is only
    in the run: not reported."""
    measures = [ir_measures.AP, ir_measures.NumQ, ir_measures.NumRel, ir_measures.P@5]
    expected = per_query(ir_measures.iter_calc(measures, QRELS, RUN))
    irm.use_in_ir_measures()
    got = per_query(ir_measures.iter_calc(measures, QRELS, RUN))
    assert got == expected
    assert got['2', ir_measures.NumQ] == 0 and got['4', ir_measures.NumQ] == 1 and got['4', ir_measures.NumRel] == 1
    assert {q for q, _ in got} == {'1', '2', '3', '4'}
    # irmetrics itself counts the missing query (trec_eval -c)
    assert irm.calc_aggregate(['NumQ'], QRELS, RUN)[irm.NumQ] == 4


def test_accuracy_reports_only_the_queries_where_it_is_defined(ir_measures_pipeline):
    expected = per_query(ir_measures.iter_calc([ir_measures.Accuracy@5], QRELS, RUN))
    irm.use_in_ir_measures()
    got = per_query(ir_measures.iter_calc([ir_measures.Accuracy@5], QRELS, RUN))
    assert got == expected == {('1', ir_measures.Accuracy@5): 1.0}
    assert not any(math.isnan(v) for v in got.values())


def test_empty_qrels_and_empty_runs(ir_measures_pipeline):
    """Empty qrels give nothing (irmetrics alone refuses them); an empty run (PyTerrier evaluates the
    qrels queries of no batch with one) gives every DEFAULT."""
    empty = pd.DataFrame([], columns=['query_id', 'doc_id', 'score'])
    qrels = pd.DataFrame({'query_id': ['1', '2'], 'doc_id': ['a', 'b'], 'relevance': [1, 0]})
    cases = [(qrels.iloc[:0], RUN), (qrels, empty), (qrels, {})]
    for measures in ([ir_measures.AP, ir_measures.NumQ], [ir_measures.Accuracy]):
        expected = [per_query(ir_measures.iter_calc(measures, q, r)) for q, r in cases]
        irm.use_in_ir_measures()
        assert [per_query(ir_measures.iter_calc(measures, q, r)) for q, r in cases] == expected
        irm.use_in_ir_measures(False)
    assert expected[0] == {} and expected[1] == {}                      # Accuracy: no query is defined
    assert per_query(ir_measures.iter_calc([ir_measures.AP], qrels, empty)) == {('1', ir_measures.AP): 0.0,
                                                                            ('2', ir_measures.AP): 0.0}


def test_records_iterators_and_files_as_ir_measures_reads_them(ir_measures_pipeline):
    qrels, run = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'run_dense.txt')
    measures = [ir_measures.AP, ir_measures.nDCG@10]
    expected = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    irm.use_in_ir_measures()
    got = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    assert got == pytest.approx(expected, abs=TOL)


# --- measures declined: ir_measures falls back ---------------------------------------------------
def test_declined_measures_fall_back_to_ir_measures(ir_measures_pipeline):
    irm.use_in_ir_measures()
    provider = ir_measures.providers.registry['irmetrics']
    custom = ir_measures.define_byquery(lambda qrels, run: 0.25, name='F1')    # F1 is an irmetrics name too
    declined = {
        ir_measures.BPM(T=0.0, max_rel=3)@5: 'cwl_eval',   # irmetrics' T is positive
        ir_measures.alpha_nDCG: 'pyndeval',                # irmetrics needs the cutoff
        ir_measures.Compat(p=1.0): 'compat',         # irmetrics' persistence p is below 1
        custom: 'runtime',                           # defined with ir_measures.define
    }
    qrels, run = collection(4)
    assert provider.supports(ir_measures.P(rel=0)@5)       # trec_eval -l 0, which pytrec_eval refuses
    for measure, fallback in declined.items():
        assert not provider.supports(measure), measure
        assert ir_measures.DefaultPipeline.supports(measure)
        chosen = next(p for p in ir_measures.DefaultPipeline.providers if p.supports(measure))
        assert fallback == chosen.NAME
    values = per_query(ir_measures.iter_calc([custom, ir_measures.AP], qrels, run))
    assert values['1', custom] == 0.25 and values['1', ir_measures.AP] == irm.AP.calc(qrels, run).per_query[0].value
    with pytest.raises(ValueError, match='unsupported measure'):
        provider.evaluator([ir_measures.BPM(max_rel=3)], qrels)


def test_measures_ir_measures_alone_cannot_compute(ir_measures_pipeline):
    """No ir_measures provider computes graded RBP (its trectools provider is off) or NumRel(rel=2);
    irmetrics does."""
    qrels, run = collection(5)
    theirs = [ir_measures.RBP, ir_measures.RBP(rel=2)@10, ir_measures.NumRel(rel=2), ir_measures.ERR]
    for m in theirs:
        with pytest.raises(ValueError, match='Unsupported measures'):
            ir_measures.calc_aggregate([m], qrels, run)
    irm.use_in_ir_measures()
    got = per_query(ir_measures.iter_calc(theirs, qrels, run))
    ours = irm.calc([irm.RBP, irm.RBP(rel=2)@10, irm.NumRel(rel=2), irm.ERR], qrels, run)
    for x in ours.iter_metrics():
        want = x.value if x.query_id in run else 0.0                # query 5 is missing from the run: DEFAULT
        assert got[x.query_id, theirs[ours.measures.index(x.measure)]] == want


# --- ties: irmetrics' rule for every measure -----------------------------------------------------
def test_tied_scores_follow_irmetrics_rule_for_every_measure(ir_measures_pipeline):
    """The shipped runs have tied scores.  Without irmetrics, ir_measures computes RR with pytrec_eval
    (ties by docno descending) but RR@10 with its msmarco provider (ascending): 0.85 and 0.8167.
    Through irmetrics both follow trec_eval's rule."""
    qrels, run = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'run_bm25.txt')
    measures = [ir_measures.RR, ir_measures.RR@10]
    before = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    assert before[ir_measures.RR] == pytest.approx(0.85)
    assert before[ir_measures.RR@10] == pytest.approx(0.8167, abs=1e-4)
    irm.use_in_ir_measures()
    after = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    assert after == {ir_measures.RR: pytest.approx(0.85), ir_measures.RR@10: pytest.approx(0.85)}


# --- documented divergences ---------------------------------------------------------------------
def test_divergence_iprec_judged_only_gives_0_where_pytrec_eval_gives_nan(ir_measures_pipeline):
    qrels = {'q': {'a': 1, 'b': 0, 'c': 1}}
    run = {'q': {'u1': 2.0, 'u2': 1.0}}                      # only unjudged documents retrieved
    m = ir_measures.IPrec(judged_only=True)@0.0
    assert math.isnan(ir_measures.calc_aggregate([m], qrels, run)[m])
    irm.use_in_ir_measures()
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == 0.0


def test_accuracy_asked_with_other_measures_is_filled_as_ir_measures_fills_it(ir_measures_pipeline):
    """Asked along with measures of other providers, ir_measures' fallback evaluator fills the queries
    its accuracy provider leaves out with 0 (PyTerrier's per-query tables rely on it); the irmetrics
    provider, computing every measure itself, fills them the same way."""
    measures = [ir_measures.Accuracy@5, ir_measures.AP]
    before = per_query(ir_measures.iter_calc(measures, QRELS, RUN))
    assert before['3', ir_measures.Accuracy@5] == 0.0 and len(before) == 2 * len(QRELS)
    irm.use_in_ir_measures()
    assert per_query(ir_measures.iter_calc(measures, QRELS, RUN)) == before
    assert per_query(ir_measures.iter_calc([ir_measures.Accuracy@5, ir_measures.Accuracy], QRELS, RUN)) == \
        {('1', ir_measures.Accuracy@5): 1.0, ('1', ir_measures.Accuracy): 1.0}


def test_diversity_judged_only_which_ir_measures_cannot_compute(ir_measures_pipeline):
    """ir_measures' pyndeval provider fails on judged_only=True; through irmetrics the measures are
    computed with irmetrics' judged_only, trec_eval's -J for every measure: documents absent from the
    qrels and those judged only with negative grades are removed (as pytrec_eval does for P and AP)."""
    qrels = [ir_measures.Qrel('1', 'n', -1, '1'), ir_measures.Qrel('1', 'a', 1, '1'),
             ir_measures.Qrel('1', 'b', 0, '2')]
    run = {'1': {'n': 3.0, 'u': 2.0, 'a': 1.0}}
    m = ir_measures.P_IA(judged_only=True)@1
    with pytest.raises(TypeError):
        ir_measures.calc_aggregate([m], qrels, run)
    irm.use_in_ir_measures()
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == 1.0    # 'a' first, relevant to the one subtopic with any
    p = ir_measures.P(judged_only=True)@1
    assert ir_measures.pytrec_eval.calc_aggregate([p], {'1': {'n': -1, 'a': 1}}, run)[p] == 1.0


# --- duplicates ------------------------------------------------------------------------------------
def test_a_run_with_a_duplicate_is_an_error_unless_a_policy_is_chosen(ir_measures_pipeline):
    qrels = pd.DataFrame({'query_id': ['q'] * 2, 'doc_id': ['a', 'b'], 'relevance': [1, 0]})
    run = pd.DataFrame({'query_id': ['q'] * 3, 'doc_id': ['b', 'a', 'b'], 'score': [3.0, 2.0, 1.0]})
    m = ir_measures.P@1
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == 1.0          # ir_measures keeps the last 'b'
    irm.use_in_ir_measures()
    with pytest.raises(irm.DuplicateError, match=r"duplicate document 'b'.*use_in_ir_measures\(duplicates=...\)"):
        ir_measures.calc_aggregate([m], qrels, run)
    irm.use_in_ir_measures(duplicates='last')
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == 1.0
    irm.use_in_ir_measures(duplicates='first')
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == 0.0
    with pytest.raises(irm.errors.OptionError, match="option 'duplicates': expected one of"):
        irm.use_in_ir_measures(duplicates='keep')


# --- installing and removing -------------------------------------------------------------------
def test_install_puts_the_provider_first_once_and_uninstall_restores(ir_measures_pipeline):
    before = list(ir_measures.DefaultPipeline.providers)
    irm.use_in_ir_measures()
    irm.use_in_ir_measures()
    providers = ir_measures.DefaultPipeline.providers
    assert providers[0] is ir_measures.providers.registry['irmetrics'] and providers[1:] == before
    irm.use_in_ir_measures(False)
    assert ir_measures.DefaultPipeline.providers == before and 'irmetrics' not in ir_measures.providers.registry
    irm.use_in_ir_measures(False)                                           # nothing to undo: no error
    assert ir_measures.DefaultPipeline.providers == before


def test_the_bridge_sits_on_the_public_api_and_only_its_function_imports_it():
    allowed = {'irmetrics.api.evaluator', 'irmetrics.api.calc',
               'irmetrics.algebra.measure', 'irmetrics.dialects', 'irmetrics.data.inputs', 'irmetrics.data.policies',
               'irmetrics.data.duplicates', 'irmetrics.errors'}
    package = ROOT / 'irmetrics'
    assert imports_of(package / 'bridges' / 'ir_measures.py') <= allowed
    for path in package.rglob('*.py'):
        if path != package / 'bridges' / '__init__.py':
            assert 'irmetrics.bridges.ir_measures' not in imports_of(path), path


def imports_of(path):
    """Absolute names of the irmetrics modules (and imported names) a module imports, lazily too."""
    package = '.'.join(path.relative_to(ROOT).parent.parts)
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parts = package.split('.')
                base = '.'.join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out |= {base} if node.module else {f'{base}.{a.name}' for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {n for n in out if n.startswith('irmetrics')}


def test_importing_irmetrics_imports_none_of_the_neighbours():
    code = ('import sys, irmetrics\n'
            'print(sorted(m for m in sys.modules if m == "irmetrics.bridges.ir_measures" or '
            'm.split(".")[0] in ("ir_measures", "ranx", "pandas", "pyterrier")))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == '[]'


def test_the_order_asked_reaches_irmetrics_and_uninstalling_leaves_no_trace(ir_measures_pipeline):
    """The default pipeline notes the order of the measures asked (ir_measures turns them into a set);
    taking irmetrics out removes that note."""
    irm.use_in_ir_measures()
    qrels, run = collection(3)
    asked = [ir_measures.RR, ir_measures.P @ 5, ir_measures.AP, ir_measures.nDCG @ 10]
    first_query = [m.measure for m in ir_measures.iter_calc(asked, qrels, run)][:4]
    assert first_query == asked
    irm.use_in_ir_measures(False)
    assert '_evaluator' not in vars(ir_measures.DefaultPipeline)
