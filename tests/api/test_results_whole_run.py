"""Measures of a whole run (Coverage, Gini: one value per run) in every output: iter_metrics, the tidy and
wide DataFrames, every rendering format with and without the summary, and the command line."""
import json

import numpy as np
import pytest
from cli_support import QRELS, RUN_A, irmetrics, write_inputs
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP, Coverage, Gini
from irmetrics.rendering.evaluation import RENDERERS, Options, RunResults
from irmetrics.rendering.formats import FORMATS

pd = reference('pandas')

COVERAGE, GINI = Coverage(catalogue=10) @ 2, Gini(catalogue=10) @ 2
#: run A's top 2 recommends d1, d2 (q1) and d4, d5 (q2): 4 of the 10 items
COVERAGE_A = 4 / 10


@pytest.fixture
def results():
    return irm.calc([AP, COVERAGE, GINI], QRELS, RUN_A)


def test_iter_metrics_gives_them_as_the_query_all_after_the_queries(results):
    metrics = list(results.iter_metrics())
    assert [m.query_id for m in metrics] == ['q1', 'q2', 'q3', 'all', 'all']
    assert [m.measure for m in metrics[-2:]] == [COVERAGE, GINI]
    assert metrics[-2].value == COVERAGE_A and metrics[-1].value == results.aggregated[GINI]
    assert list(irm.iter_calc([AP, COVERAGE, GINI], QRELS, RUN_A)) == metrics
    assert results.per_query == metrics


def test_the_tidy_frame_has_a_row_all_for_each(results):
    frame = results.to_dataframe()
    assert frame.iloc[-2:].values.tolist() == [['all', str(COVERAGE), COVERAGE_A],
                                               ['all', str(GINI), results.aggregated[GINI]]]
    assert frame.iloc[:3]['measure'].tolist() == ['AP'] * 3
    assert {(r.query_id, r.measure): r.value for r in frame.itertuples()} == \
        {(m.query_id, str(m.measure)): m.value for m in results.iter_metrics()}
    labelled = results.to_dataframe(run='a')
    assert labelled['run'].tolist() == ['a'] * 5 and labelled.iloc[-1]['query_id'] == 'all'


def test_the_wide_frame_has_a_column_each_with_its_value_on_a_row_all(results):
    frame = results.to_dataframe(wide=True)
    assert list(frame.columns) == ['AP', str(COVERAGE), str(GINI)]
    assert list(frame.index) == ['q1', 'q2', 'q3', 'all']
    assert frame.loc['all', str(COVERAGE)] == COVERAGE_A
    assert frame[str(COVERAGE)].iloc[:3].isna().all() and np.isnan(frame.loc['all', 'AP'])
    np.testing.assert_array_equal(frame['AP'].iloc[:3].to_numpy(), results.values[:, 0])
    assert list(irm.calc([AP], QRELS, RUN_A).to_dataframe(wide=True).index) == ['q1', 'q2', 'q3']   # no 'all' row


@pytest.mark.parametrize('format', FORMATS)
@pytest.mark.parametrize('by_query, summary', [(False, True), (True, True), (True, False)])
def test_every_format_shows_them_with_or_without_the_summary(results, format, by_query, summary):
    text = RENDERERS[format]([RunResults('a', results)], Options(by_query, summary, width=10 ** 6))
    for measure in (COVERAGE, GINI):
        shown = text.count(str(measure))
        assert shown >= 1, (format, by_query, summary, text)
        if format in ('tsv', 'csv', 'jsonl'):
            assert shown == 1, text                                   # once: with the aggregates, or as 'all'


def test_the_json_document_holds_them_once_per_place(results):
    without_summary = json.loads(RENDERERS['json']([RunResults('a', results)], Options(True, False)))
    assert without_summary['runs'][0]['per_query']['all'] == {str(COVERAGE): COVERAGE_A,
                                                              str(GINI): results.aggregated[GINI]}
    with_summary = json.loads(results.render('json', by_query=True))
    assert 'all' not in with_summary['runs'][0]['per_query']
    assert with_summary['runs'][0]['aggregate'][str(COVERAGE)] == COVERAGE_A


def test_the_command_line_prints_them_in_every_layout(tmp_path):
    write_inputs(tmp_path)
    for extra in (['-f', 'tsv', '-q', '-n'], ['--trec-eval', '-q', '-n'], ['--trec-eval'], ['-q']):
        shown = irmetrics('qrels', 'a.run', 'AP', str(COVERAGE), *extra, cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        all_lines = [line for line in shown.stdout.splitlines() if line.split()[:2] != ['q1'] and 'all' in line]
        assert str(COVERAGE) in shown.stdout and any('0.4000' in line for line in all_lines), (extra, shown.stdout)
