"""Evaluation with Dask on a LocalCluster of two worker processes gives the in-memory numbers.

Every measure family, ties, graded qrels, queries missing from the run, queries split across
partitions, empty partitions, and each duplicates policy with duplicates split across partitions:
per-query values and aggregates to the last bit; with ``calc_on_cluster``, per-query values to the
last bit and aggregates within numpy's pairwise-summation error of the exact mean.
"""
import math

import numpy as np
import pandas as pd
import pytest
from scale_support import FAMILY_MEASURES, NINE, assert_same_results, collection

import irmetrics as irm
from irmetrics import DuplicateError, InputError

dask = pytest.importorskip('dask')
dd = pytest.importorskip('dask.dataframe')
irmd = pytest.importorskip('irmetrics.dask')
from irmetrics.dask import layout  # noqa: E402


def frame_of(run_text: str) -> pd.DataFrame:
    fields = [line.split() for line in run_text.splitlines() if line]
    return pd.DataFrame({'query_id': [f[0] for f in fields], 'doc_id': [f[2] for f in fields],
                         'score': [float(f[4]) for f in fields]})


def partitioned(frame: pd.DataFrame, cuts) -> 'dd.DataFrame':
    """A Dask DataFrame of ``frame`` cut at row positions ``cuts`` (repeated cuts: empty partitions)."""
    bounds = [0, *sorted(cuts), len(frame)]
    pieces = [frame.iloc[a:b].reset_index(drop=True) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    return dd.from_delayed([dask.delayed(p) for p in pieces], meta=frame.iloc[:0], verify_meta=False)


@pytest.fixture(scope='module')
def case():
    """(qrels, pandas run with duplicates, in-memory results by duplicates policy)."""
    qrels_text, run_text = collection(seed=17, queries=50, duplicates=10)
    qrels = irm.read_trec_qrels(qrels_text, duplicates='max')
    frame = frame_of(run_text)
    want = {policy: irm.calc(FAMILY_MEASURES, qrels, frame, duplicates=policy) for policy in ('first', 'last', 'max')}
    return qrels, frame, want


def cut_plans(n_rows: int):
    rng = np.random.default_rng(4)
    return {
        'one': [],
        'even': list(range(n_rows // 6, n_rows, n_rows // 6)),
        'tiny-and-empty': [3, 3, 5, 40, 40, 41, 42, *rng.integers(0, n_rows, 20).tolist()],
        'empty-first-and-last': [0, 0, n_rows // 2, n_rows, n_rows],
    }


@pytest.mark.parametrize('policy', ['first', 'last', 'max'])
@pytest.mark.parametrize('plan', ['one', 'even', 'tiny-and-empty', 'empty-first-and-last'])
def test_grouped_runs_give_the_in_memory_numbers(dask_client, case, policy, plan):
    qrels, frame, want = case
    run = partitioned(frame, cut_plans(len(frame))[plan])
    assert_same_results(irmd.calc(FAMILY_MEASURES, qrels, run, duplicates=policy), want[policy])


@pytest.mark.parametrize('policy', ['first', 'last', 'max'])
def test_shuffled_runs_give_the_in_memory_numbers(dask_client, case, policy):
    qrels, frame, want = case
    rng = np.random.default_rng(8)
    scattered = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)   # duplicates far apart
    expected = irm.calc(FAMILY_MEASURES, qrels, scattered, duplicates=policy)
    run = partitioned(scattered, [50, 50, 200, 333])
    assert_same_results(irmd.calc(FAMILY_MEASURES, qrels, run, duplicates=policy), expected)
    grouped = partitioned(frame, [100, 250])
    assert_same_results(irmd.calc(FAMILY_MEASURES, qrels, grouped, duplicates=policy, shuffle=True), want[policy])


def test_duplicates_are_an_error_by_default(dask_client, case):
    qrels, frame, _ = case
    with pytest.raises(DuplicateError, match=r"run \(Dask DataFrame\): duplicate document '[^']+': retrieved more "
                                             r"than once for query"):
        irmd.calc(['AP'], qrels, partitioned(frame, [100]))


def test_partitions_split_at_their_edges():
    four = pd.DataFrame({'query_id': list('aaaabbbbcccc'), 'doc_id': list('wxyz' * 3), 'score': [1.0] * 12})
    pieces = [layout.split(four.iloc[a:b]) for a, b in ((0, 2), (2, 2), (2, 10), (10, 12))]
    assert [''.join(p.inner['query_id']) for p in pieces] == ['', '', 'bbbb', '']       # b, inside the third
    assert [[''.join(e['query_id']) for e in p.edges] for p in pieces] == [['aa'], [], ['aa', 'cc'], ['cc']]
    assert layout.merge(*[p.summary for p in pieces]).grouped
    again = layout.split(pd.concat([four.iloc[:6], four.iloc[:2]]))             # a, b, a in one partition
    assert not again.summary.grouped
    across = [layout.split(four.iloc[:6]).summary, layout.split(four.iloc[:1]).summary]   # a b | a
    assert not layout.merge(*across).grouped


@pytest.mark.parametrize('parts, grouped', [
    (['aa', 'a', '', 'ab', 'b', 'bc', 'c'], True),             # a and b over several partitions, an empty one
    (['ab', 'a'], False), (['a', 'b', 'a'], False), (['ab', 'b', 'ba'], False), (['aba'], False), (['', ''], True),
])
def test_a_tree_of_merges_tells_a_grouped_run(parts, grouped):
    summaries = [layout.split(pd.DataFrame({'query_id': list(p), 'doc_id': ['d'] * len(p), 'score': 1.0})).summary
                 for p in parts]
    assert layout.merge(*summaries).grouped == grouped
    for cut in range(1, len(summaries)):                          # any tree of merges says the same
        assert layout.merge(layout.merge(*summaries[:cut]), layout.merge(*summaries[cut:])).grouped == grouped


def test_a_run_not_grouped_by_query(dask_client, case):
    qrels, frame, want = case
    scattered = partitioned(frame.iloc[np.random.default_rng(1).permutation(len(frame))], [200])
    expected = irm.calc(NINE, qrels, scattered.compute(), duplicates='max')
    assert_same_results(irmd.calc(NINE, qrels, scattered, duplicates='max'), expected)     # found out, shuffled
    lazy = irmd.calc_on_cluster(NINE, qrels, scattered, duplicates='max')
    with pytest.raises(InputError, match='the run is not grouped by query .* pass shuffle=True'):
        lazy.per_query.compute()
    lazy = irmd.calc_on_cluster(NINE, qrels, scattered, duplicates='max', shuffle=True)
    assert_same_results(irm.Partitions(irm.evaluator(NINE, qrels)).combine(lazy.per_query.compute()), expected)


def test_per_query_values_stay_on_the_cluster(dask_client, case, tmp_path):
    qrels, frame, want = case
    results = irmd.calc_on_cluster(FAMILY_MEASURES, qrels, partitioned(frame, [7, 7, 300]), duplicates='max')
    per_query = results.per_query
    assert isinstance(per_query, dd.DataFrame)
    ev = irm.evaluator(FAMILY_MEASURES, qrels)
    computed = per_query.compute()
    assert_same_results(irm.Partitions(ev).combine(computed), want['max'])      # every qrels query, once
    assert computed.index.is_unique and computed.index.name == 'qrels_position'   # (not 0..n per part)
    assert computed.sort_index().query_id.tolist() == ev.query_ids             # sort_index(): the qrels' order
    from distributed import get_task_stream
    with get_task_stream(dask_client) as stream:
        aggregated = results.to_parquet(tmp_path / 'out')
    names = [t['key'][0] if isinstance(t['key'], tuple) else t['key'] for t in stream.data]
    evaluations = [name for name in names if name.startswith('evaluate_part')]
    assert len(evaluations) == 4                                        # the run is evaluated once for both
    assert len(pd.read_parquet(tmp_path / 'out')) == len(ev.query_ids)
    values = want['max'].values
    for j, m in enumerate(FAMILY_MEASURES):
        exact, pairwise = aggregated[irm.parse_measure(m)], want['max'].aggregated[irm.parse_measure(m)]
        n = int(np.count_nonzero(~np.isnan(values[:, j])))
        bound = (n.bit_length() + 1) * 2.0 ** -53 * float(np.nanmean(np.abs(values[:, j]))) if n else 0.0
        assert exact == pairwise or abs(exact - pairwise) <= bound or (math.isnan(exact) and math.isnan(pairwise)), m


def test_aggregates_and_evaluator(dask_client, case):
    qrels, frame, want = case
    run = partitioned(frame, [123])
    ev = irmd.evaluator(NINE, qrels)
    nine = irm.calc(NINE, qrels, frame, duplicates='last')
    assert ev.calc_aggregate(run, duplicates='last') == nine.aggregated
    assert list(ev.iter_calc(run, duplicates='last')) == list(nine.iter_metrics())
    assert irmd.calc_aggregate(NINE, qrels, run, duplicates='last') == nine.aggregated


def test_integer_and_pyterrier_columns(dask_client):
    qrels_text, run_text = collection(seed=2, numeric=True)
    frame = frame_of(run_text)
    want = irm.calc(NINE, qrels_text, frame)
    numeric = frame.astype({'query_id': 'int64', 'doc_id': 'int64'}).rename(columns={'query_id': 'qid',
                                                                                     'doc_id': 'docno'})
    assert_same_results(irmd.calc(NINE, qrels_text, partitioned(numeric, [40, 200])), want)


def test_parquet_and_trec_paths(dask_client, case, tmp_path):
    qrels, frame, want = case
    dd.from_pandas(frame, npartitions=3, sort=False).to_parquet(tmp_path / 'run')
    assert_same_results(irmd.calc(FAMILY_MEASURES, qrels, tmp_path / 'run', duplicates='first'), want['first'])
    lines = ''.join(f'{q} Q0 {d} 0 {s!r} t\n' for q, d, s in frame.itertuples(index=False))
    (tmp_path / 'run.txt').write_text(lines)
    run = irmd.read_trec_run(tmp_path / 'run.txt', blocksize=1000)
    assert run.npartitions > 5
    assert_same_results(irmd.calc(FAMILY_MEASURES, qrels, run, duplicates='first'), want['first'])


def test_bad_runs(dask_client, case):
    qrels, frame, _ = case
    with pytest.raises(InputError, match=r'run Dask DataFrame: lacks column\(s\) score'):
        irmd.calc(['AP'], qrels, dd.from_pandas(frame[['query_id', 'doc_id']], npartitions=2))
    with pytest.raises(InputError, match='expected a Dask DataFrame or a path'):
        irmd.calc(['AP'], qrels, frame)
    bad = frame.assign(score=frame['score'].where(frame.index != 20))
    with pytest.raises(InputError, match=r'run \(Dask DataFrame\): score nan is not a finite number'):
        irmd.calc(['AP'], qrels, partitioned(bad, [10]), duplicates='max')
