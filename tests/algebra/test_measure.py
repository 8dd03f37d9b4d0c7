"""The measure algebra: canonical identity, round-tripping repr, eager validation, aliases, parsing."""
import builtins
import copy
import math
import pickle
import re
import subprocess
import sys

import pytest
from hypothesis import given
from measure_strategies import measures

import irmetrics as irm
from irmetrics import (
    AP,
    RR,
    Bpref,
    IPrec,
    MeasureError,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetAP,
    SetF,
    SetP,
    SetR,
    Success,
    UnknownMeasureError,
    infAP,
    nDCG,
    parse_measure,
    parse_trec_measure,
)
from irmetrics.algebra import params as P_
from irmetrics.algebra.measure import REGISTRY
from irmetrics.algebra.parse import MAX_NESTING
from irmetrics.errors import MeasureSyntaxError

TREC_FAMILIES = ['AP', 'Bpref', 'infAP', 'IPrec', 'nDCG', 'NumQ', 'NumRel', 'NumRet', 'P', 'R', 'Rprec', 'RR',
                 'SetAP', 'SetF', 'SetP', 'SetR', 'Success', 'G', 'IPrecAvg', 'nDCGRel', 'RBP', 'RBPResidual',
                 'RnDCG', 'Unjudged', 'Utility']

#: A spread of measures: every trec_eval family, every parameter, defaults given explicitly or not.
SAMPLES = [
    AP, AP@10, AP(rel=2)@5, AP(judged_only=True), P@5, P(rel=2, judged_only=True)@5, R@100, R(rel=3)@1000,
    RR, RR@10, RR(rel=2, judged_only=True), Rprec, Rprec(judged_only=True), Bpref, Bpref(rel=2), infAP,
    infAP(rel=3), nDCG, nDCG@10, nDCG(gains={0: 0, 1: 1, 2: 3})@10, nDCG(gains={1: 0.5, 3: 1e-20}),
    nDCG(judged_only=True)@5, Success@1, Success(rel=2)@10, IPrec@0.0, IPrec@0.5, IPrec@1, IPrec(rel=2)@(1 / 3),
    SetP, SetP(relative=True), SetP(rel=2, judged_only=True), SetR, SetR(rel=2), SetF, SetF(beta=0.5),
    SetF(beta=1e20), SetF(beta=0), SetAP, SetAP(judged_only=True), NumQ, NumRel, NumRel(rel=2), NumRet,
    NumRet(rel=1), NumRet(rel=0),
]


# --- canonical identity -------------------------------------------------------------------------
def test_parameter_order_does_not_matter():
    a, b = P(rel=2, judged_only=True)@5, P(judged_only=True, rel=2)@5
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b) == 'P(judged_only=True,rel=2)@5'
    assert (P@5)(rel=2) == P(rel=2)@5 == P(cutoff=5, rel=2)


def test_defaults_are_dropped():
    assert P(rel=1)@5 == P@5 and repr(P(rel=1)@5) == 'P@5'
    assert P(judged_only=False)@5 == P@5
    assert SetF(beta=1) == SetF(beta=1.0) == SetF and repr(SetF(beta=1)) == 'SetF'
    assert nDCG(dcg='log2') == nDCG
    assert SetP(relative=False) == SetP
    assert (P(rel=2)@5)(rel=1) == P@5                  # setting a parameter back to its default
    assert P(rel=2)@5 != P@5
    assert NumRet(rel=1) != NumRet                     # NumRet's rel has no default: rel=1 is a real choice


def test_at_is_the_cutoff_parameter():
    assert nDCG@10 == nDCG(cutoff=10) and hash(nDCG@10) == hash(nDCG(cutoff=10))
    assert AP(cutoff=10) == AP@10 and repr(AP(cutoff=10)) == 'AP@10'
    assert (P@5)['cutoff'] == 5 and P['rel'] == 1 and AP['cutoff'] is irm.NOT_PROVIDED


def test_at_sets_the_recall_level_of_iprec():
    assert IPrec@0.5 == IPrec(recall=0.5) and (IPrec@0.5)['recall'] == 0.5
    assert IPrec@0 == IPrec@0.0 and IPrec@1 == IPrec@1.0 and repr(IPrec@1) == 'IPrec@1.0'


def test_numbers_are_canonicalised():
    assert SetF(beta=2) == SetF(beta=2.0) and repr(SetF(beta=2)) == 'SetF(beta=2.0)'
    assert nDCG(gains={2: 3, 1: 1}) == nDCG(gains={1: 1, 2: 3})
    assert repr(nDCG(gains={2: 3, 1: 1})) == 'nDCG(gains={1:1,2:3})'


def test_different_measures_differ():
    distinct = [P@5, P@10, R@5, P(rel=2)@5, P(judged_only=True)@5, SetP, SetP(relative=True), AP, AP@5,
                nDCG, nDCG@5, nDCG(gains={1: 2}), IPrec@0.1, IPrec@0.2, SetF, SetF(beta=0.5)]
    assert len(set(distinct)) == len(distinct)
    assert len({repr(m) for m in distinct}) == len(distinct)
    assert P@5 != 'P@5'


def test_equal_measures_collapse_in_sets_and_dicts():
    same = [P@5, P(cutoff=5), parse_measure('P@5'), parse_measure('Precision@5'), parse_measure('P(rel=1)@5'),
            pickle.loads(pickle.dumps(P@5))]
    assert len(set(same)) == 1
    assert {m: i for i, m in enumerate(same)} == {P@5: len(same) - 1}


def test_measures_are_immutable():
    m = P@5
    with pytest.raises(AttributeError):
        m.definition = AP.definition
    with pytest.raises(AttributeError):
        m._params = ()
    derived = m(rel=2)
    assert m == P@5 and repr(m) == 'P@5' and derived != m


def test_measures_sort_by_their_text():
    assert sorted([nDCG@10, P@5, AP]) == [AP, P@5, nDCG@10]


# --- repr round-trips through parse_measure ----------------------------------------------------
@pytest.mark.parametrize('measure', SAMPLES + parse_trec_measure('all_trec'), ids=repr)
def test_repr_round_trips(measure):
    parsed = parse_measure(repr(measure))
    assert parsed == measure and hash(parsed) == hash(measure) and repr(parsed) == repr(measure)
    assert str(measure) == repr(measure)


@given(measures(TREC_FAMILIES))
def test_repr_round_trips_for_generated_measures(measure):
    parsed = parse_measure(repr(measure))
    assert parsed == measure and hash(parsed) == hash(measure) and repr(parsed) == repr(measure)
    assert pickle.loads(pickle.dumps(measure)) == measure


@given(measures(TREC_FAMILIES))
def test_identity_is_independent_of_how_parameters_are_given(measure):
    given_params = list(measure.params.items())
    rebuilt = measure.definition.bare
    for name, value in reversed(given_params):       # one at a time, in the opposite order
        rebuilt = rebuilt(**{name: value})
    assert rebuilt == measure and hash(rebuilt) == hash(measure)
    assert measure.definition.bare(**measure.params) == measure


# --- eager validation -----------------------------------------------------------------------------
BAD_BUILDS = [
    (lambda: P@0, 'cutoff'), (lambda: P@5.5, 'cutoff'), (lambda: P@-1, 'cutoff'), (lambda: P@True, 'cutoff'),
    (lambda: P@'5', 'cutoff'), (lambda: AP@0, 'cutoff'), (lambda: nDCG@0, 'cutoff'), (lambda: RR@0, 'cutoff'),
    (lambda: Success@0, 'cutoff'), (lambda: R@2.0, 'cutoff'),
    (lambda: SetF(beta=-1), 'beta'), (lambda: SetF(beta=math.nan), 'beta'), (lambda: SetF(beta=math.inf), 'beta'),
    (lambda: SetF(beta='1'), 'beta'),
    (lambda: IPrec@1.5, 'recall'), (lambda: IPrec@-0.1, 'recall'), (lambda: IPrec@math.nan, 'recall'),
    (lambda: P(rel=math.nan)@5, 'rel'), (lambda: P(rel=-0.5)@5, 'rel'), (lambda: AP(rel=-1), 'rel'),
    (lambda: P(judged_only=1)@5, 'judged_only'), (lambda: SetP(relative='yes'), 'relative'),
    (lambda: nDCG(gains={1: -1}), 'gains'), (lambda: nDCG(gains={-1: 1}), 'gains'), (lambda: nDCG(gains={}), 'gains'),
    (lambda: nDCG(gains={1: 'x'}), 'gains'), (lambda: nDCG(gains={1: math.nan}), 'gains'),
    (lambda: nDCG(gains={1.5: 1}), 'gains'), (lambda: nDCG(gains=[1, 2]), 'gains'),
    (lambda: nDCG(dcg='bogus'), 'dcg'),
    (lambda: P(foo=1)@5, 'foo'), (lambda: AP(beta=1), 'beta'), (lambda: Bpref(judged_only=True), 'judged_only'),
    (lambda: NumQ@5, '@'), (lambda: Bpref@10, '@'), (lambda: SetF@2, '@'),
]


@pytest.mark.parametrize('build, fragment', BAD_BUILDS)
def test_invalid_parameters_fail_when_the_measure_is_built(build, fragment):
    with pytest.raises(MeasureError) as info:
        build()
    assert isinstance(info.value, ValueError)
    assert fragment in str(info.value)


def test_invalid_value_message_names_parameter_and_value():
    with pytest.raises(MeasureError, match=r"invalid value 0 for parameter 'cutoff': expected an integer >= 1"):
        P@0
    with pytest.raises(MeasureError,
                       match=r"P has no parameter 'foo' \(parameters: cutoff, judged_only, rel, relative, ties\)"):
        P(foo=1)


def test_validation_does_not_rely_on_assert():
    code = ('import irmetrics as irm\n'
            'for build in (lambda: irm.P@0, lambda: irm.SetF(beta=-1), lambda: irm.parse_measure("P@5.5")):\n'
            '    try:\n'
            '        build()\n'
            '    except irm.MeasureError:\n'
            '        continue\n'
            '    raise SystemExit("accepted")\n')
    done = subprocess.run([sys.executable, '-O', '-c', code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


BAD_STRINGS = [
    ('P@0', 'cutoff'), ('P@5.5', 'cutoff'), ('P@1e1', 'cutoff'), ('SetF(beta=-1)', 'beta'), ('P(foo=1)@5', 'foo'),
    ('P(rel="2")@5', 'rel'), ('P(judged_only=1)@5', 'judged_only'), ('IPrec@1.5', 'recall'),
    ('P', 'P@10'), ('IPrec', 'recall'), ('R', 'cutoff'), ('Success', 'cutoff'),
    ('P(rel=2', 'cannot parse'), ('P@5)', 'cannot parse'), ('P@5@6', 'cannot parse'), ('', 'cannot parse'),
    ('P(rel=2,rel=3)@5', 'given twice'), ('P(rel=2,)@5', 'cannot parse'), ('P@5 AP', 'cannot parse'),
    ('nDCG(gains={1:1,1:2})', 'given twice'), ('nDCG(gains={{1:2}:3})', 'cannot parse'), ('P@5;', 'cannot parse'),
    ('NumQ@5', '@'),
]


@pytest.mark.parametrize('text, fragment', BAD_STRINGS)
def test_parse_measure_refuses_invalid_strings(text, fragment):
    with pytest.raises(MeasureError) as info:
        parse_measure(text)
    assert fragment in str(info.value)


def test_parse_measure_refuses_non_strings():
    with pytest.raises(MeasureError, match='expected a measure or a measure string, got int'):
        parse_measure(5)


def test_a_measure_missing_its_cutoff_cannot_be_evaluated():
    with pytest.raises(MeasureError, match='cutoff'):
        irm.calc_aggregate([P], {'q': {'d': 1}}, {'q': {'d': 1.0}})


def test_parse_measure_reads_whitespace_quotes_and_signs():
    assert parse_measure('  P @ 5 ') == P@5
    assert parse_measure('P(\n rel = 2 )@5') == P(rel=2)@5
    assert parse_measure('P@+5') == parse_measure('P@05') == P@5
    assert parse_measure("nDCG(dcg='log2')@5") == parse_measure('nDCG(dcg="log2")@5') == nDCG@5
    assert parse_measure('IPrec@.5') == IPrec@0.5
    assert parse_measure('AP()') == AP
    assert parse_measure('nDCG(gains={0:0, 1:1.5, 2:3})@10') == nDCG(gains={0: 0, 1: 1.5, 2: 3})@10


# --- aliases --------------------------------------------------------------------------------------
@pytest.mark.parametrize('alias, measure', [
    ('MAP', AP), ('MAP@10', AP@10), ('MRR', RR), ('MRR@10', RR@10), ('NDCG', nDCG), ('NDCG@10', nDCG@10),
    ('Precision@5', P@5), ('Recall@5', R@5), ('RPrec', Rprec), ('BPref', Bpref),
    ('NumRelRet', NumRet(rel=1)), ('SetRelP', SetP(relative=True)),
    ('SetRelP(rel=2)', SetP(rel=2, relative=True)), ('NumRelRet(rel=2)', NumRet(rel=2)),
    ('Precision(rel=2)@5', P(rel=2)@5),
], ids=lambda x: x if isinstance(x, str) else repr(x))
def test_aliases(alias, measure):
    parsed = parse_measure(alias)
    assert parsed == measure and repr(parsed) == repr(measure)      # printed under the canonical name


# --- unknown names ------------------------------------------------------------------------------
def _suggestions(message):
    found = re.search(r'did you mean (.*)\?$', message)
    assert found, message
    return [s.strip() for s in found.group(1).split(',')]


@pytest.mark.parametrize('text, meant', [('Sucess@5', 'Success'), ('nDGC@10', 'nDCG'), ('Bperf', 'Bpref'),
                                         ('infap', 'infAP'), ('SetFF', 'SetF'), ('NumQQ', 'NumQ'),
                                         ('Rprek', 'Rprec')])
def test_unknown_measure_suggests_the_closest_names(text, meant):
    with pytest.raises(UnknownMeasureError) as info:
        parse_measure(text)
    assert isinstance(info.value, MeasureError) and isinstance(info.value, ValueError)
    assert repr(text.split('@')[0]) in str(info.value)
    suggested = _suggestions(str(info.value))
    assert meant in suggested                              # the measure's own name, not an alias of it
    assert all(name in REGISTRY for name in suggested)


def test_unknown_measure_without_close_names_is_still_clear():
    with pytest.raises(UnknownMeasureError, match="unknown measure 'Zzqx'"):
        parse_measure('Zzqx')


@pytest.mark.parametrize('text', ["__import__('os')", "__import__('os').system('true')",
                                  "P(rel=__import__('os').getpid())@5", "nDCG(gains={1:__import__('os')})",
                                  "P@(1+1)", "P@[5]", "exec('1')", "P@5 if True else AP", "lambda: 1"])
def test_parse_measure_never_evaluates_code(text):
    with pytest.raises(MeasureError):
        parse_measure(text)


def test_parse_measure_does_not_call_eval_exec_or_compile(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError('parse_measure must not evaluate code')
    texts = [repr(m) for m in SAMPLES] + ['MAP', 'P(judged_only=True,rel=2)@5', "nDCG(dcg='log2')@5"]
    with monkeypatch.context() as patch:
        for name in ('eval', 'exec', 'compile'):
            patch.setattr(builtins, name, refuse)
        parsed = [parse_measure(t) for t in texts]
    assert [repr(m) for m in parsed[:len(SAMPLES)]] == [repr(m) for m in SAMPLES]


# --- trec_eval names ------------------------------------------------------------------------------
DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
LEVELS = [IPrec@(i / 10) for i in range(11)]


@pytest.mark.parametrize('name, expected', [
    ('map', [AP]), ('P_5,10', [P@5, P@10]), ('P.5,10', [P@5, P@10]), ('P_5, 10', [P@5, P@10]),
    ('ndcg_cut_10', [nDCG@10]), ('ndcg_cut.10', [nDCG@10]), ('ndcg', [nDCG]), ('map_cut_100', [AP@100]),
    ('recall_1000', [R@1000]), ('success_1', [Success@1]), ('success', [Success@1, Success@5, Success@10]),
    ('recip_rank', [RR]), ('Rprec', [Rprec]), ('bpref', [Bpref]), ('infAP', [infAP]), ('set_P', [SetP]),
    ('set_relative_P', [SetP(relative=True)]), ('set_recall', [SetR]), ('set_map', [SetAP]), ('set_F', [SetF]),
    ('set_F.0.5', [SetF(beta=0.5)]), ('set_F_2', [SetF(beta=2)]), ('num_q', [NumQ]), ('num_ret', [NumRet]),
    ('num_rel', [NumRel]), ('num_rel_ret', [NumRet(rel=1)]), ('iprec_at_recall', LEVELS),
    ('iprec_at_recall_0.10', [IPrec@0.1]), ('iprec_at_recall.0.5,1', [IPrec@0.5, IPrec@1.0]),
    ('P', [P@k for k in DEFAULT_CUTOFFS]), ('ndcg_cut', [nDCG@k for k in DEFAULT_CUTOFFS]), (' map ', [AP]),
])
def test_parse_trec_measure(name, expected):
    assert parse_trec_measure(name) == expected


def test_parse_trec_measure_official():
    assert parse_trec_measure('official') == [NumQ, NumRet, NumRel, NumRet(rel=1), AP, AP(agg='gmean'), Rprec,
                                              Bpref, RR, *LEVELS, *[P@k for k in DEFAULT_CUTOFFS]]


def test_parse_trec_measure_all_trec_covers_every_family_once():
    found = parse_trec_measure('all_trec')
    assert len(found) == len(set(found))
    assert {m.name for m in found} == set(TREC_FAMILIES)
    assert set(parse_trec_measure('official')) <= set(found)
    assert {AP@1000, nDCG@5, SetP(relative=True), NumRet(rel=1), infAP, SetF} <= set(found)


@pytest.mark.parametrize('name, fragment', [
    ('mapp', 'did you mean map'), ('foo', "unknown trec_eval measure 'foo'"), ('Map', 'did you mean map'),
    ('gm_mapx', "unknown trec_eval measure 'gm_mapx'"), ('P_0', 'cutoff'), ('P_x', "invalid parameter 'x'"),
    ('P_-1', "invalid parameter '-1'"), ('P_5.5', 'cutoff'), ('map_5', 'takes no parameters'),
    ('num_q_1', 'takes no parameters'), ('iprec_at_recall_1.5', 'recall'), ('set_F_-1', "parameter 'beta'"),
])
def test_parse_trec_measure_refuses_unknown_and_invalid_names(name, fragment):
    with pytest.raises(MeasureError) as info:
        parse_trec_measure(name)
    assert fragment in str(info.value)


# --- pickling ---------------------------------------------------------------------------------------
@pytest.mark.parametrize('measure', SAMPLES, ids=repr)
def test_measures_pickle_and_copy(measure):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        restored = pickle.loads(pickle.dumps(measure, protocol=protocol))
        assert restored == measure and hash(restored) == hash(measure) and repr(restored) == repr(measure)
    assert copy.deepcopy(measure) == measure and copy.copy(measure) == measure


def test_sentinels_pickle_to_themselves():
    assert pickle.loads(pickle.dumps(irm.NOT_PROVIDED)) is irm.NOT_PROVIDED
    assert pickle.loads(pickle.dumps(P_.REQUIRED)) is P_.REQUIRED


def test_equal_gain_maps_are_one_measure_with_one_spelling():
    a, b = irm.parse_measure('nDCG(gains={1:1})'), irm.parse_measure('nDCG(gains={1:1.0})')
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b) == 'nDCG(gains={1:1})'
    assert repr(irm.parse_measure('nDCG(gains={1:0.5})')) == 'nDCG(gains={1:0.5})'


def test_bounded_integer_parameters_fail_when_built():
    with pytest.raises(MeasureError, match="max_rel"):
        irm.parse_measure('ERR(max_rel=5000)@5')


def test_the_hint_spells_every_missing_parameter():
    """A hint never shows a spelling that still lacks a parameter (``SDCG@10`` for SDCG, which needs max_rel too)."""
    with pytest.raises(MeasureError) as info:
        irm.parse_measure('SDCG')
    assert str(info.value) == 'SDCG needs parameter(s) cutoff, max_rel (e.g. SDCG(max_rel=N)@10)'
    with pytest.raises(MeasureError, match=r'e\.g\. P@10'):
        irm.parse_measure('P')


def _integer_parameters():
    """(definition, parameter) of every integer parameter of every measure definition."""
    from irmetrics.constraints import Int, IntOrChoice, Level
    return [(definition, param.name) for definition in REGISTRY.definitions() for param in definition.params
            if isinstance(param.constraint, (Int, IntOrChoice, Level))]


@pytest.mark.parametrize('definition, param', _integer_parameters(), ids=lambda x: getattr(x, 'name', x))
def test_every_integer_parameter_is_bounded_by_what_int64_holds(definition, param):
    """Beyond 2**63 - 1 (or below its negative) an integer parameter is a MeasureError naming the bound, from
    Python or from a measure's text: no value reaches an array's integers to overflow them (before:
    Judged@9223372036854775808 was an OverflowError from numpy)."""
    for value in (2 ** 63, -2 ** 63, 10 ** 400):
        with pytest.raises(MeasureError, match=f"for parameter '{param}': expected") as info:
            definition.bare(**{param: value})
        assert '2**63 - 1' in str(info.value) or re.search('expected an? (integer|number) >=', str(info.value))


def test_a_cutoff_beyond_int64_in_a_measures_text_is_a_measure_error():
    with pytest.raises(MeasureError, match=r"value 9223372036854775808 for parameter 'cutoff'.*at most 2\*\*63"):
        irm.parse_measure('Judged@9223372036854775808')
    assert irm.parse_measure('Judged@9223372036854775807')['cutoff'] == 2 ** 63 - 1
    with pytest.raises(MeasureError, match=r'<an integer of 1329 bits>'):         # (Python writes no such number)
        P(cutoff=10 ** 400)


def test_options_and_places_beyond_their_bounds_are_option_errors():
    results = irm.calc(['AP'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    for places in (2 ** 63, 18, -2, 1.5, True):
        with pytest.raises(irm.OptionError, match="for option 'places'"):
            results.render('csv', places=places)
    assert results.render('csv', places=17).splitlines()[1] == 'AP,0.40865133869236780'
    with pytest.raises(irm.OptionError, match="invalid value 9223372036854775808 for option 'cutoffs'"):
        irm.judgment_coverage('examples/qrels.txt', ['examples/run_bm25.txt'], cutoffs=[2 ** 63])


@pytest.mark.parametrize('opening, closing', [('{1:', '}'), ('(', ')')])
def test_values_nested_beyond_the_limit_are_a_syntax_error_naming_the_position(opening, closing):
    deep = 1000                                             # beyond Python's recursion limit
    text = 'nDCG(gains=' + opening * deep + '1' + closing * deep + ')'
    position = len('nDCG(gains=') + MAX_NESTING * len(opening)        # the first bracket too deep
    with pytest.raises(MeasureSyntaxError, match=f'nested more than {MAX_NESTING} brackets deep at position '
                                                 f'{position}$'):
        parse_measure(text)
    with pytest.raises(MeasureSyntaxError, match=f'at position {len("P@") + MAX_NESTING}$'):
        parse_measure('P@' + '(' * deep)
    assert parse_measure('nDCG(gains={0:0,1:1,2:3})@10') == nDCG(gains={0: 0, 1: 1, 2: 3}) @ 10   # 1 deep: read
