"""System rankings under two evaluations (irmetrics/trust/system_agreement.py) and their plot
(agreement_plots.py): the means against irmetrics.calc_aggregate, the coefficients against scipy and the
coefficients' own functions on those means."""
import math
from pathlib import Path

import pytest
from reference_tools import reference
from repo_paths import EXAMPLES

import irmetrics as irm

stats = reference('scipy.stats')

QRELS = str(EXAMPLES / 'qrels.txt')
BM25, DENSE = str(EXAMPLES / 'run_bm25.txt'), str(EXAMPLES / 'run_dense.txt')


def small_run(name: str, picks: list[int]) -> dict:
    """A run of the example queries from the documents the two example runs put at the ranks ``picks``."""
    out: dict = {}
    for line in Path(BM25 if name.startswith('b') else DENSE).read_text().splitlines():
        query, _, doc, rank, score, _ = line.split()
        if int(rank) in picks:
            out.setdefault(query, {})[doc] = float(score)
    return out


def runs() -> dict:
    return {'bm25': BM25, 'dense': DENSE, 'b_top': small_run('b_top', [2, 1, 7]),
            'd_deep': small_run('d_deep', [5, 9, 14, 30]), 'b_mid': small_run('b_mid', [3, 4, 20, 21, 22])}


def test_two_measures_under_one_qrels():
    result = irm.system_agreement('AP', QRELS, runs(), measure_b='P@5')
    ap = [irm.calc_aggregate(['AP'], QRELS, r)['AP'] for r in runs().values()]
    p5 = [irm.calc_aggregate(['P@5'], QRELS, r)['P@5'] for r in runs().values()]
    assert result.values_a.tolist() == ap and result.values_b.tolist() == p5
    expected = stats.kendalltau(ap, p5)
    assert result.tau.statistic == pytest.approx(expected.statistic, abs=1e-14)
    assert result.tau.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
    named_ap, named_p5 = dict(zip(result.systems, ap, strict=True)), dict(zip(result.systems, p5, strict=True))
    assert result.tau_ap == irm.tau_ap(named_ap, named_p5)
    assert result.rbo == irm.rbo(named_ap, named_p5, p=0.9)
    assert (result.label_a, result.label_b) == ('AP (qrels)', 'P@5 (qrels)')


def test_two_sets_of_judgments(tmp_path):
    # the second judgments: only grades 2 and 3 count as relevant
    strict = tmp_path / 'strict.txt'
    strict.write_text(''.join(f'{q} 0 {d} {int(int(r) >= 2)}\n' for q, _, d, r in
                              (line.split() for line in Path(QRELS).read_text().splitlines())))
    result = irm.system_agreement('nDCG@10', QRELS, runs(), qrels_b=str(strict))
    lenient = [irm.calc_aggregate(['nDCG@10'], QRELS, r)['nDCG@10'] for r in runs().values()]
    graded = [irm.calc_aggregate(['nDCG@10'], str(strict), r)['nDCG@10'] for r in runs().values()]
    assert result.values_a.tolist() == lenient and result.values_b.tolist() == graded
    assert result.tau.statistic == pytest.approx(stats.kendalltau(lenient, graded).statistic, abs=1e-14)
    assert result.label_b == 'nDCG@10 (strict)'


def test_ranks_table_and_dict():
    result = irm.system_agreement('AP', QRELS, runs(), measure_b='nDCG@10')
    frame = result.to_dataframe()
    assert list(frame.columns) == ['system', 'value_a', 'value_b', 'rank_a', 'rank_b']
    assert frame['rank_a'].tolist() == sorted(frame['rank_a'].tolist())          # best under a first
    assert frame['value_a'].is_monotonic_decreasing
    assert set(result.to_dict()) == {'label_a', 'label_b', 'tau', 'tau_ap', 'rbo', 'systems'}
    assert repr(result).startswith('SystemAgreement(5 systems, AP (qrels) vs nDCG@10 (qrels): tau=')


def test_a_measure_where_lower_is_better_ranks_low_values_first():
    assert not irm.parse_measure('Unjudged@10').definition.higher_is_better
    result = irm.system_agreement('AP', QRELS, runs(), measure_b='Unjudged@10')
    _, rank_b = result.ranks()
    assert rank_b[result.values_b.argmin()] == 1 and rank_b[result.values_b.argmax()] == len(result.systems)
    signed = dict(zip(result.systems, (-result.values_b).tolist(), strict=True))
    assert result.tau == irm.kendall_tau(dict(zip(result.systems, result.values_a.tolist(), strict=True)), signed)


def test_two_runs_give_nan_correlations_with_warnings():
    with pytest.warns(irm.IrmetricsWarning, match='needs 3 items'):
        result = irm.system_agreement('AP', QRELS, [BM25, DENSE], measure_b='nDCG@10')
    assert math.isnan(result.tau.statistic) and math.isnan(result.tau_ap.statistic)
    assert result.rbo.extrapolated == 1.0                                          # same order of the two
    assert result.systems == ('run_bm25', 'run_dense')


def test_the_same_evaluation_twice_and_bad_arguments_are_errors():
    with pytest.raises(irm.InputError, match='give qrels_b .* or measure_b'):
        irm.system_agreement('AP', QRELS, runs())
    with pytest.raises(irm.InputError, match='names 2 measures'):
        irm.system_agreement('AP P@5', QRELS, runs(), measure_b='AP')
    with pytest.raises(irm.OptionError, match="invalid value 'w' for option 'tie_variant'"):
        irm.system_agreement('AP', QRELS, runs(), measure_b='P@5', tie_variant='w')


def test_a_tied_reference_leaves_tau_ap_a_undefined_and_keeps_tau_and_rbo():
    tied = {'r1': BM25, 'r2': BM25, 'r3': DENSE}
    with pytest.warns(irm.IrmetricsWarning, match=r"tau_AP is NaN: under AP \(qrels\).*'r1', 'r2' tie.*"
                                                  r"tie_variant='b'"):
        result = irm.system_agreement('AP', QRELS, tied, measure_b='P@5')
    assert math.isnan(result.tau_ap.statistic) and result.tau_ap.n == 3 and result.tau_ap.tie_variant == 'a'
    means = {name: dict(zip(result.systems, values, strict=True)) for name, values in
             (('a', result.values_a.tolist()), ('b', result.values_b.tolist()))}
    assert result.tau == irm.kendall_tau(means['a'], means['b'])
    assert result.rbo == irm.rbo(means['a'], means['b'], p=0.9, tie_variant='a')
    assert result.rbo.extrapolated > 0 and result.tau.statistic == pytest.approx(1.0)
    b = irm.system_agreement('AP', QRELS, tied, measure_b='P@5', tie_variant='b')
    assert b.tau == result.tau and not math.isnan(b.tau_ap.statistic)
    with pytest.raises(irm.InputError, match="tie_variant='b'"):                  # tau_ap itself still refuses
        irm.tau_ap(means['a'], means['b'])


@pytest.mark.parametrize('by', ['score', 'rank'])
def test_plot(tmp_path, by):
    result = irm.system_agreement('AP', QRELS, runs(), measure_b='nDCG@10')
    fig = irm.plot_system_agreement(result, by=by)
    ax = fig.axes[0]
    assert ax.get_xlabel().endswith('AP (qrels)') and ax.get_ylabel().endswith('nDCG@10 (qrels)')
    assert sorted(t.get_text() for t in ax.texts) == sorted(result.systems)
    points = ax.collections[0].get_offsets()
    expected = result.ranks() if by == 'rank' else (result.values_a, result.values_b)
    assert points[:, 0].tolist() == list(map(float, expected[0]))
    assert points[:, 1].tolist() == list(map(float, expected[1]))
    if by == 'rank':
        assert ax.get_xlim()[0] > ax.get_xlim()[1]                              # rank 1 on the right
    fig.savefig(tmp_path / 'agreement.png')
    assert (tmp_path / 'agreement.png').stat().st_size > 1000
    assert result.plot(by=by).axes[0].get_title() == ax.get_title()


def test_plot_bad_axis():
    result = irm.system_agreement('AP', QRELS, runs(), measure_b='nDCG@10')
    with pytest.raises(irm.InputError, match="by='ranks'"):
        irm.plot_system_agreement(result, by='ranks')


def test_means_equal_but_for_the_rounding_of_their_sums_tie():
    qrels = {q: {f'{q}r{i}': 1 for i in range(3)} for q in ('q1', 'q2', 'q3')}

    def run(relevant_per_query):
        return {q: {**{f'{q}r{i}': 20.0 - i for i in range(k)}, **{f'{q}n{i}': 10.0 - i for i in range(10 - k)}}
                for q, k in zip(('q1', 'q2', 'q3'), relevant_per_query, strict=True)}

    runs = {'a': run([1, 2, 0]), 'b': run([3, 0, 0]), 'c': run([0, 0, 0]), 'd': run([2, 2, 2])}
    p10 = [irm.calc_aggregate(['P@10'], qrels, r)['P@10'] for r in runs.values()]
    assert p10[0] != p10[1] and p10[0] == pytest.approx(p10[1])          # 0.1 + 0.2 against 0.3, over 3
    result = irm.system_agreement('P@10', qrels, runs, measure_b='RR', tie_variant='b')
    rank_a, _ = result.ranks()
    assert rank_a[0] == rank_a[1] == 2
    rr = [irm.calc_aggregate(['RR'], qrels, r)['RR'] for r in runs.values()]
    assert result.tau.statistic == pytest.approx(stats.kendalltau([0.1, 0.1, 0.0, 0.2], rr).statistic, abs=1e-14)


def test_both_measures_under_one_qrels_warn_once(tmp_path):
    short = tmp_path / 'short.txt'                                    # a run of the first five queries only
    short.write_text(''.join(line + '\n' for line in Path(BM25).read_text().splitlines()
                             if line.split()[0] <= '405'))
    with pytest.warns(irm.IrmetricsWarning) as caught:
        irm.system_agreement('AP', QRELS, [BM25, DENSE, str(short)], measure_b='P@5')
    missing = [w for w in caught if 'not in the run' in str(w.message)]
    assert len(missing) == 1


def test_a_mean_that_is_not_a_number_is_an_error_naming_the_run():
    from irmetrics.api.custom import undefine
    undefined = irm.define(lambda qrels_rows, run_rows: float('nan'), name='AlwaysUndefinedForAgreement')
    try:
        with pytest.raises(irm.InputError, match="mean AlwaysUndefinedForAgreement of run 'run_bm25' is nan"):
            irm.system_agreement('AP', QRELS, {'run_bm25': BM25, 'run_dense': DENSE, 'again': DENSE},
                                 measure_b=undefined)
    finally:
        undefine('AlwaysUndefinedForAgreement')                       # the registry is the process's
