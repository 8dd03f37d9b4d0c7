"""Arguments given in each other's place (issue 21): one error with the word "swapped" in it."""
import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

import irmetrics as irm

QRELS, BM25, DENSE = (str(ROOT / 'examples' / name) for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))


@pytest.mark.parametrize('measures', [QRELS, {'q1': {'d1': 1}}, irm.read_trec_run(BM25)])
def test_data_where_calc_takes_the_measures(measures):
    with pytest.raises(irm.MeasureError, match=r'the arguments look swapped: .*calc\(measures, qrels, run\)'):
        irm.calc_aggregate(measures, QRELS, ['AP'])


def test_an_unknown_measure_name_is_not_called_swapped():
    with pytest.raises(irm.UnknownMeasureError) as info:
        irm.calc_aggregate('BM25x', QRELS, BM25)
    assert 'swapped' not in str(info.value)


@pytest.mark.parametrize('runs, measures', [(['AP'], {'bm25': BM25, 'dense': DENSE}), ('AP nDCG@10', [BM25, DENSE])])
def test_measures_where_compare_takes_the_runs(runs, measures):
    with pytest.raises(irm.ComparisonError, match=r'the arguments look swapped: compare\(runs, qrels, measures\)'):
        irm.compare(runs, QRELS, measures)


@pytest.mark.parametrize('args, line', [([BM25, QRELS], 'a run line has 6 fields: are the qrels and the run swapped?'),
                                        (['trec_eval', BM25, QRELS], 'a run line has 6 fields')])
def test_files_in_each_other_s_place(args, line):
    assert_user_error(irmetrics(*args, *(['-m', 'AP'] if args[0] != 'trec_eval' else [])), line)


def test_a_qrels_given_as_the_run_is_called_swapped(layout):
    with pytest.raises(irm.InputError, match=r'a qrels line has 4 fields: are the qrels and the run swapped\?'):
        irm.read_trec_run(QRELS)
