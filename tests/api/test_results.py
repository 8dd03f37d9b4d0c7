"""Results as pandas DataFrames (tidy and wide) and as a printed table, from the API and from an evaluator."""
import math
import subprocess
import sys

import numpy as np
import pytest
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP, NumRet, P

pd = reference('pandas')

from cli_support import QRELS, RUN_A, RUN_B  # noqa: E402


@pytest.fixture
def results():
    return irm.calc([AP, P@2, NumRet], QRELS, RUN_A)


def test_tidy_frame(results):
    frame = results.to_dataframe()
    assert list(frame.columns) == ['query_id', 'measure', 'value']
    assert len(frame) == 3 * 3
    assert frame.iloc[0].tolist() == ['q1', 'AP', pytest.approx(5 / 6, abs=1e-12)]
    expected = {(m.query_id, str(m.measure)): m.value for m in results.iter_metrics()}
    assert {(r.query_id, r.measure): r.value for r in frame.itertuples()} == expected


def test_wide_frame(results):
    frame = results.to_dataframe(wide=True)
    assert frame.index.name == 'query_id' and list(frame.index) == ['q1', 'q2', 'q3']
    assert list(frame.columns) == ['AP', 'P@2', 'NumRet']
    assert frame.loc['q2', 'AP'] == 0.5 and frame.loc['q3', 'NumRet'] == 0
    assert frame.mean()['AP'] == pytest.approx(results.aggregated[AP], abs=1e-12)


def test_run_label_concatenates_several_runs():
    ev = irm.evaluator([AP, P@2], QRELS)
    tidy = pd.concat([ev.calc(text).to_dataframe(run=name) for name, text in (('a', RUN_A), ('b', RUN_B))])
    assert list(tidy.columns) == ['run', 'query_id', 'measure', 'value']
    table = tidy[tidy.measure == 'AP'].groupby('run')['value'].mean()
    assert table['a'] == pytest.approx(4 / 9, abs=1e-12) and table['b'] == pytest.approx(5 / 6, abs=1e-12)
    wide = pd.concat([ev.calc(text).to_dataframe(wide=True, run=name) for name, text in (('a', RUN_A),
                                                                                          ('b', RUN_B))])
    assert wide.index.names == ['run', 'query_id'] and wide.loc[('b', 'q3'), 'AP'] == 1.0


def test_evaluator_results_render_the_same(results):
    ev = irm.evaluator([AP, P@2, NumRet], QRELS)
    pd.testing.assert_frame_equal(ev.calc(RUN_A).to_dataframe(), results.to_dataframe())
    pd.testing.assert_frame_equal(ev.calc(RUN_A).to_dataframe(wide=True), results.to_dataframe(wide=True))


def test_undefined_values_are_left_out_of_the_tidy_frame_and_nan_in_the_wide_one():
    measure = irm.Accuracy                  # undefined on a query without relevant documents retrieved
    assert measure.definition.skips_undefined and not measure.missing_required()
    res = irm.CalcResults(['q1', 'q2'], [measure, AP], np.array([[math.nan, 0.5], [0.25, 1.0]]))
    tidy = res.to_dataframe()
    assert len(tidy) == 3 and not tidy.value.isna().any()
    assert math.isnan(res.to_dataframe(wide=True).loc['q1', str(measure)])


def test_empty_results():
    res = irm.CalcResults([], [AP], np.empty((0, 1)))
    assert len(res.to_dataframe()) == 0 and list(res.to_dataframe().columns) == ['query_id', 'measure', 'value']
    assert res.to_dataframe(wide=True).shape == (0, 1)


def test_aggregates_print_as_a_table(results):
    assert str(results) == ('measure   value\n'
                            'AP       0.4444\n'
                            'P@2      0.3333\n'
                            'NumRet        5\n')
    assert results.render(places=2).splitlines() == ['run    AP   P@2  NumRet', 'run  0.44  0.33       5']


def test_pandas_is_imported_only_when_asked():
    code = ('import sys, irmetrics as irm\n'
            f'r = irm.calc(["AP"], {QRELS!r}, {RUN_A!r})\n'
            'str(r); list(r.iter_metrics())\n'
            'assert "pandas" not in sys.modules, "pandas imported"\n'
            'r.to_dataframe()\n'
            'assert "pandas" in sys.modules\n')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_per_query_and_to_dict_give_what_the_json_rendering_gives():
    """per_query and to_dict are built from the columns at once: the same metrics, in the same order, as a loop over
    the rows, and the numbers of render('json', by_query=True): undefined values of a measure that skips them left
    out, NaN and infinity as None, whole counts as ints, the measures of a whole run with the aggregates only."""
    import json
    measures = [P @ 5, NumRet, irm.parse_measure('ILD@10'), AP]
    rng = np.random.default_rng(3)
    values = rng.random((50, 4))
    values[:, 1] = rng.integers(0, 9, 50)
    values[3, 1] = 2.5                                              # a count that is not whole stays a float
    values[rng.random(50) < 0.3, 2] = np.nan                        # ILD undefined: left out
    values[7, 0], values[8, 3], values[9, 0] = np.nan, np.inf, -0.0
    results = irm.CalcResults([f'q{i}' for i in range(50)], measures, values,
                              {irm.parse_measure('Coverage(catalogue=9)@5'): 0.5})
    loop = [irm.Metric(q, m, v) for q, row in zip(results.query_ids, values.tolist(), strict=True)
            for m, v in zip(measures, row, strict=True) if not (m == measures[2] and v != v)]
    assert repr(results.per_query[:-1]) == repr(loop) and len(loop) < 200             # repr: NaN equals NaN
    assert [type(m.value) for m in results.per_query] == [float] * len(results.per_query)
    assert results.per_query[-1] == irm.Metric('all', irm.parse_measure('Coverage(catalogue=9)@5'), 0.5)
    doc = json.loads(results.render('json', by_query=True))
    got = results.to_dict()
    assert got == {'measures': doc['measures'], 'aggregate': doc['runs'][0]['aggregate'],
                   'per_query': doc['runs'][0]['per_query']}
    assert json.dumps(got) == json.dumps({'measures': doc['measures'], 'aggregate': doc['runs'][0]['aggregate'],
                                          'per_query': doc['runs'][0]['per_query']})     # ints stay ints, order kept
    assert got['per_query']['q3']['NumRet'] == 2.5 and got['per_query']['q7']['P@5'] is None
