"""The options of the API (irmetrics.api.calc, irmetrics.api.evaluator, irmetrics.data.policies):
one declaration each, checked with the constraint objects measure parameters use, an OptionError
naming the option and what it accepts; every option is a keyword after the data arguments."""
import pytest
from cli_support import irmetrics, write_inputs

import irmetrics as irm
from irmetrics.errors import OptionError

QRELS = {'q1': {'a': 1, 'b': 0}}
RUN = {'q1': {'a': 2.0, 'b': 1.0}}
EXPECTED = "invalid value 'bogus' for option 'duplicates': expected one of 'error', 'first', 'last', 'max'"


@pytest.mark.parametrize('call', [
    lambda: irm.calc(['AP'], QRELS, RUN, duplicates='bogus'),
    lambda: irm.calc_aggregate(['AP'], QRELS, RUN, duplicates='bogus'),
    lambda: list(irm.iter_calc(['AP'], QRELS, RUN, duplicates='bogus')),
    lambda: irm.evaluator(['AP'], QRELS).calc(RUN, duplicates='bogus'),
    lambda: irm.to_run(RUN, duplicates='bogus'),
    lambda: irm.use_in_ir_measures(duplicates='bogus'),
], ids=['calc', 'calc_aggregate', 'iter_calc', 'Evaluator.calc', 'to_run', 'use_in_ir_measures'])
def test_a_bad_duplicates_value_is_an_option_error_wherever_it_is_given(call):
    with pytest.raises(OptionError) as info:
        call()
    assert str(info.value) == EXPECTED
    assert isinstance(info.value, ValueError) and isinstance(info.value, irm.IrmetricsError)


def test_the_qrels_duplicates_option_names_its_own_choices():
    with pytest.raises(OptionError, match="option 'duplicates': expected one of 'error', 'max'$"):
        irm.to_qrels(QRELS, duplicates='first')


def test_the_command_line_offers_the_same_choices(tmp_path):
    write_inputs(tmp_path)
    shown = irmetrics('qrels', 'a.run', 'AP', '--duplicates', 'bogus', cwd=tmp_path)
    assert shown.returncode == 2 and "'error', 'first', 'last', 'max'" in shown.stderr


@pytest.mark.parametrize('call', [
    lambda: irm.calc(['AP'], QRELS, RUN, None),
    lambda: irm.calc_aggregate(['AP'], QRELS, RUN, None),
    lambda: irm.iter_calc(['AP'], QRELS, RUN, None),
    lambda: irm.evaluator(['AP'], QRELS, None),
    lambda: irm.Evaluator(['AP'], QRELS, None),
    lambda: irm.evaluator(['AP'], QRELS).calc(RUN, 'first'),
], ids=['calc', 'calc_aggregate', 'iter_calc', 'evaluator', 'Evaluator', 'Evaluator.calc'])
def test_options_are_keywords_after_the_data_arguments(call):
    with pytest.raises(TypeError, match='positional argument'):
        call()


def test_the_data_arguments_stay_positional_as_in_ir_measures():
    assert irm.calc_aggregate(['AP'], QRELS, RUN) == {irm.AP: 1.0}
    assert [m.value for m in irm.iter_calc(['AP'], QRELS, RUN)] == [1.0]
    assert irm.evaluator(['AP'], QRELS).calc_aggregate(RUN) == {irm.AP: 1.0}
    assert irm.calc_aggregate(['AP'], QRELS, RUN, duplicates='first', provider='native') == {irm.AP: 1.0}


@pytest.mark.parametrize('measures', [[], '', ' ', ()])
@pytest.mark.parametrize('call', [
    lambda ms: irm.calc_aggregate(ms, {'q1': {'d1': 1}}, {'q1': {'d1': 1.0}}),
    lambda ms: irm.calc(ms, {'q1': {'d1': 1}}, {'q1': {'d1': 1.0}}),
    lambda ms: list(irm.iter_calc(ms, {'q1': {'d1': 1}}, {'q1': {'d1': 1.0}})),
    lambda ms: irm.evaluator(ms, {'q1': {'d1': 1}}),
])
def test_no_measure_is_an_error_not_an_empty_result(call, measures):
    with pytest.raises(irm.MeasureError, match=r'no measure to evaluate \(measures=.*\): give at least one'):
        call(measures)
