"""Property tests of measure strings: every measure of every family reads back from its text,
however its parameters are written; trec_eval's and ranx's names read as the measures they name, and a
measure's printed trec_eval name reads back as it; any other text is a MeasureError, never another
exception (the fuzzing harness ``fuzz/fuzz_measure_parser.py`` searches the same properties for longer).
"""
import string

from hypothesis import given
from hypothesis import strategies as st
from measure_strategies import check_round_trips, measures

import irmetrics.measures
from irmetrics import MeasureError, parse_measure, parse_trec_measure
from irmetrics.algebra.measure import REGISTRY
from irmetrics.dialects import parse_measures
from irmetrics.dialects.ranx import RANX_NAMES
from irmetrics.dialects.trec_eval import INVOCATION_PARAMS, TREC_NAMES, Cutoffs, Values, to_trec_name

FAMILIES = list(irmetrics.measures.__all__)


def spelled(measure, draw_order, spaces):
    """``measure``'s text with its parameters in another order and spaces around the punctuation."""
    definition = measure.definition
    params = [(k, v) for k, v in measure.params.items() if k != definition.at_param]
    params = [params[i] for i in draw_order(len(params))]
    inner = (',' + spaces).join(f'{k}{spaces}={spaces}{definition.param(k).constraint.repr_value(v)}'
                                for k, v in params)
    text = definition.name + (f'({spaces}{inner}{spaces})' if params else '')
    if definition.at_param in measure.params:
        text += f'{spaces}@{spaces}{measure[definition.at_param]!r}'
    return text


@given(measures(FAMILIES), st.randoms(use_true_random=False), st.sampled_from(['', ' ', '  ']))
def test_every_measure_reads_back_from_its_text_however_written(measure, rnd, spaces):
    check_round_trips(measure)
    text = spelled(measure, lambda n: rnd.sample(range(n), n), spaces)
    assert parse_measure(text) == measure, text
    assert parse_measures(f' {measure!r}  {measure!r}') == [measure]        # a list of the same measure, twice


@given(measures(FAMILIES))
def test_a_measure_has_a_trec_eval_name_only_if_trec_eval_computes_it(measure):
    found = to_trec_name(measure)
    if found is not None:
        entry = next(t for t in TREC_NAMES if t.trec == found[0])
        assert entry.measure.definition is measure.definition
        assert all(k in (*entry.form.params, *entry.preset, *INVOCATION_PARAMS) for k in measure.params)


def _trec_values(param):
    if param == 'cutoff':
        return st.integers(1, 10 ** 6).map(lambda v: (v, str(v)))
    if param == 'recall':
        return st.integers(0, 100).map(lambda v: (v / 100, f'{v / 100:.2f}'))
    if param == 'mult':                                                         # Rprec_mult's multiples of R
        return st.integers(1, 500).map(lambda v: (v / 100, f'{v / 100:.2f}'))
    return st.integers(0, 10 ** 6).map(lambda v: (v / 1000, str(v / 1000)))      # set_F's beta


def _one_number(entry) -> bool:
    """Whether the entry reads one number into one parameter of a measure (set_F's beta)."""
    return isinstance(entry.form, Values) and entry.measure is not None and len(entry.form.params) == 1 \
        and not entry.form.as_tuple


@st.composite
def trec_names(draw):
    """(text, expected measures) of a trec_eval name with a parameter list: ``P_5,10``, ``P.5``, ..."""
    entry = draw(st.sampled_from([t for t in TREC_NAMES if isinstance(t.form, Cutoffs) or _one_number(t)]))
    param = entry.form.params[0]
    many = isinstance(entry.form, Cutoffs)          # a list of cutoffs or levels: one measure each
    values = draw(st.lists(_trec_values(param), min_size=1, max_size=4 if many else 1, unique_by=lambda v: v[0]))
    text = entry.trec + draw(st.sampled_from('_.')) + ','.join(shown for _, shown in values)
    bare = entry.measure(**entry.preset)
    return text, [bare(**{param: value}) for value, _ in sorted(values)]      # trec_eval sorts its lists


@given(trec_names())
def test_trec_eval_names_with_parameters_read_as_the_measures_they_name(case):
    text, expected = case
    assert parse_trec_measure(text) == expected
    assert parse_trec_measure(f'  {text} ') == expected


@given(st.sampled_from(sorted(RANX_NAMES)), st.none() | st.integers(0, 10 ** 4), st.none() | st.integers(0, 200),
       st.sampled_from('@.'))
def test_ranx_names_read_as_measures_or_are_refused_clearly(name, k, level, sep):
    text = name + (f'{sep}{k}' if k is not None else '') + (f'-l{level}' if level is not None else '')
    try:
        measure = parse_measure(text)
    except MeasureError:
        return
    check_round_trips(measure)
    entry = RANX_NAMES[name]
    if k and name != 'rbp' and entry.takes_k:
        assert measure['cutoff'] == k


# --- anything else is a MeasureError -----------------------------------------------------------------
#: pieces of measure strings: names, parameters, punctuation and numbers, valid or not
PIECES = sorted({*FAMILIES, *REGISTRY.aliases(), *RANX_NAMES, *(t.trec for t in TREC_NAMES)}) + [
    '(', ')', '@', '=', ',', '{', '}', ':', '.', '_', '-l', ' ', "'", '"', 'rel', 'cutoff', 'p', 'gains', 'dcg',
    'judged_only', 'alpha', 'beta', 'max_rel', 'True', 'False', "'log2'", "'exp-log2'", '0', '1', '-1', '+2', '0.5',
    '1e308', '1e309', '-1e-400', '9' * 30, '9' * 5000, 'nan', 'inf', '\x00', 'é', '\u0661', '\ud800', '\\']
ANY_CHARACTER = st.characters(blacklist_categories=())                 # lone surrogates included


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map(''.join) |
       st.text(ANY_CHARACTER, max_size=40) | st.text(string.printable, max_size=40))
def test_any_text_is_a_measure_or_a_measure_error(text):
    for parse in (parse_measure, parse_measures, parse_trec_measure):
        try:
            parsed = parse(text)
        except MeasureError as ex:
            assert str(ex)
            continue
        for measure in parsed if isinstance(parsed, list) else [parsed]:
            check_round_trips(measure)
