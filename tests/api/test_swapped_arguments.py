"""Arguments given in each other's place, or in the order before 1.0: one error that says so (and, for the
evaluating functions, shows the call to write)."""
import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.comparing.gate import gate

QRELS, BM25, DENSE = (str(ROOT / 'examples' / name) for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))


@pytest.mark.parametrize('measures', [QRELS, {'q1': {'d1': 1}}, irm.read_trec_run(BM25)])
def test_data_where_calc_takes_the_measures(measures):
    with pytest.raises(irm.MeasureError, match=r'the arguments look swapped: .*calc\(measures, qrels, run\)'):
        irm.calc_aggregate(measures, QRELS, ['AP'])


def test_an_unknown_measure_name_is_not_called_swapped():
    with pytest.raises(irm.UnknownMeasureError) as info:
        irm.calc_aggregate('BM25x', QRELS, BM25)
    assert 'swapped' not in str(info.value)


@pytest.mark.parametrize('call, old, new', [
    (lambda: irm.compare({'bm25': BM25, 'dense': DENSE}, QRELS, ['AP']), 'compare(runs, qrels, measures)',
     'compare(measures, qrels, runs, ...)'),
    (lambda: irm.compare([BM25, DENSE], QRELS, 'AP nDCG@10'), 'compare(runs, qrels, measures)',
     'compare(measures, qrels, runs, ...)'),
    (lambda: irm.compare_slices([BM25, DENSE], QRELS, 'AP', {'401': 'a'}),
     'compare_slices(runs, qrels, measures, slices)', 'compare_slices(measures, qrels, runs, slices=..., ...)'),
    (lambda: irm.urisk(DENSE, BM25, QRELS, 'AP'), 'urisk(run, baseline, qrels, measure)',
     'urisk(measure, qrels, run, baseline=..., ...)'),
    (lambda: irm.trisk(DENSE, BM25, QRELS, 'AP'), 'trisk(run, baseline, qrels, measure)',
     'trisk(measure, qrels, run, baseline=..., ...)'),
    (lambda: irm.georisk([BM25, DENSE], QRELS, 'AP'), 'georisk(runs, qrels, measure)',
     'georisk(measure, qrels, runs, ...)'),
    (lambda: irm.discriminative_power([BM25, DENSE], QRELS, ['AP']), 'discriminative_power(runs, qrels, measures)',
     'discriminative_power(measures, qrels, runs, ...)'),
    (lambda: irm.swap_rates([BM25, DENSE], QRELS, ['AP']), 'swap_rates(runs, qrels, measures)',
     'swap_rates(measures, qrels, runs, ...)'),
    (lambda: irm.system_agreement([BM25, DENSE], QRELS, QRELS, 'AP'),
     'system_agreement(runs, qrels_a, qrels_b, measure)', 'system_agreement(measure, qrels, runs, ...)'),
    (lambda: irm.reproducibility(BM25, DENSE, BM25, DENSE, QRELS, ['AP']), 'reproducibility(original_baseline',
     'reproducibility(measures, qrels, original_baseline, original_advanced, reproduced_baseline, reproduced_advanced'),
    (lambda: irm.rmse(BM25, DENSE, QRELS, ['AP']), 'rmse(original, reproduced, qrels, measures)',
     'rmse(measures, qrels, original, reproduced, ...)'),
    (lambda: irm.system_agreement([BM25, DENSE], QRELS, QRELS, measure='AP'),
     'system_agreement(runs, qrels_a, qrels_b, measure)', 'system_agreement(measure, qrels, runs, ...)'),
    (lambda: irm.compare({'bm25': BM25, 'dense': DENSE}, QRELS, measures=['AP']), 'compare(runs, qrels, measures)',
     'compare(measures, qrels, runs, ...)'),
    (lambda: irm.judgment_coverage({'bm25': BM25, 'dense': DENSE}, QRELS), 'judgment_coverage(runs, qrels, cutoffs)',
     'judgment_coverage(qrels, runs, ...)'),
    (lambda: irm.judgment_coverage([BM25, DENSE], QRELS, 10), 'judgment_coverage(runs, qrels, cutoffs)',
     'judgment_coverage(qrels, runs, ...)'),
    (lambda: irm.judgment_coverage([irm.read_trec_run(BM25)], irm.read_trec_qrels(QRELS), cutoffs=5),
     'judgment_coverage(runs, qrels, cutoffs)', 'judgment_coverage(qrels, runs, ...)'),
    (lambda: irm.pool([BM25, DENSE], depth=10), 'pool(runs, *, depth, qrels=None)',
     'pool(qrels, runs, depth=..., ...)'),
    (lambda: irm.pool([BM25, DENSE], depth=10, qrels=QRELS), 'pool(runs, *, depth, qrels=None)',
     'pool(qrels, runs, depth=..., ...)'),
    (lambda: gate(BM25, QRELS, {'401': {'AP': 0.5}}, ['AP']), 'gate(run, qrels, stored, measures)',
     'gate(measures, qrels, run, stored=..., ...)'),
])
def test_the_order_before_1_0_is_one_error_showing_the_new_call(call, old, new):
    with pytest.raises(irm.ArgumentOrderError) as info:
        call()
    message = str(info.value)
    assert f'the order before 1.0, {old}' in message and new in message
    assert isinstance(info.value, TypeError) and isinstance(info.value, irm.IrmetricsError)


def test_the_new_order_is_never_taken_for_the_old_one():
    """Measures first, even as Measure objects or a list, never read as runs; the shared options are checked."""
    assert irm.compare([irm.AP], QRELS, [BM25, DENSE]).measures == (irm.AP,)
    assert irm.urisk(irm.AP, QRELS, DENSE, baseline=BM25).wins == 9
    with pytest.raises(TypeError, match=r"compare\(\) got an unexpected keyword argument 'provder' \(its shared "
                                        r'options: dialect, duplicates, exclude, grades, items, memory_limit, '
                                        r'provider'):
        irm.compare('AP', QRELS, [BM25, DENSE], provder='native')


@pytest.mark.parametrize('call, message', [
    (lambda: irm.urisk('AP', QRELS, DENSE, BM25), 'urisk takes 3 positional arguments (measure, qrels, run) and 4 '
     'were given: give baseline=... by keyword: urisk(measure, qrels, run, baseline=..., ...)'),
    (lambda: irm.trisk(irm.AP, QRELS, DENSE, BM25), 'trisk takes 3 positional arguments (measure, qrels, run) and 4 '
     'were given: give baseline=... by keyword: trisk(measure, qrels, run, baseline=..., ...)'),
    (lambda: irm.system_agreement('AP', QRELS, [BM25, DENSE], QRELS), 'system_agreement takes 3 positional '
     'arguments (measure, qrels, runs) and 4 were given: give qrels_b=... by keyword'),
    (lambda: irm.judgment_coverage(QRELS, [BM25, DENSE], 10), 'judgment_coverage takes 2 positional arguments '
     '(qrels, runs) and 3 were given: give cutoffs=... by keyword'),
])
def test_an_option_given_by_position_in_the_new_order_is_told_it_is_keyword_only(call, message):
    with pytest.raises(irm.ArgumentOrderError) as info:
        call()
    assert str(info.value).startswith(message) and 'before 1.0' not in str(info.value)


def test_qrels_as_a_dict_of_dicts_are_not_taken_for_runs():
    qrels = {'401': {'LA010189-0001': 1}}
    assert irm.judgment_coverage(qrels, {'bm25': BM25}, cutoffs=10).runs == ('bm25',)


@pytest.mark.parametrize('args, line', [([BM25, QRELS], 'a run line has 6 fields: are the qrels and the run swapped?'),
                                        (['trec_eval', BM25, QRELS], 'a run line has 6 fields')])
def test_files_in_each_other_s_place(args, line):
    assert_user_error(irmetrics(*args, *(['-m', 'AP'] if args[0] != 'trec_eval' else [])), line)


def test_a_qrels_given_as_the_run_is_called_swapped(layout):
    with pytest.raises(irm.InputError, match=r'a qrels line has 4 fields: are the qrels and the run swapped\?'):
        irm.read_trec_run(QRELS)
