#!/usr/bin/env python3
"""Checking the evaluation against the reference tools, in one run: the same inputs, the values
checked to agree, the medians and their ratios printed.

What is measured (each tool run once as a warm-up, then N times interleaved)
    run agreement   irmetrics.run_agreement(A, B, depth=100) (KTU and RBO per query) against repro_eval's
                    KTU(trim_thresh=100) and RBO(p=0.9) per topic, on two runs of the synthetic scale (B is A
                    with its scores perturbed); KTU checked equal (1e-12)
    reproducibility irmetrics.reproducibility(...) against repro_eval's RpdEvaluator (trim, evaluate, RMSE, ER,
                    DRI), both reading the four run files and computing repro_eval's measures (its
                    load_measures(): AP, P@k, nDCG@k, IPrec, infAP, ...); AP, nDCG@10, P@10 checked equal (1e-9)
    kappa           irmetrics.cohen_kappa(qrels, other) (reading both, joining the pairs) against
                    sklearn.metrics.cohen_kappa_score on the pairs already joined; checked equal (1e-12)
    kendall tau     irmetrics.kendall_tau on 2,000 systems' means against scipy.stats.kendalltau; equal (1e-12)

How to run (from the repository root, with the project's virtualenv and the test extra)
    .venv/bin/python benchmarks/bench_trust.py                       # the robust scale, N=5
    .venv/bin/python benchmarks/bench_trust.py --scale small -n 3

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from bench_arrays import median_times  # noqa: E402  (this folder's benchmarks)
from synthetic import ensure  # noqa: E402


def perturbed(run: Path, out: Path, seed: int, scale: float) -> Path:
    """``run`` with normal noise of ``scale`` times the score spread added to its scores (a reproduction),
    written in ranked order (repro_eval reads a ranking in file order)."""
    frame = pd.read_csv(run, sep=' ', header=None, names=['q', 'z', 'd', 'rank', 'score', 'tag'], dtype=str)
    scores = frame['score'].astype(float)
    frame['value'] = scores + np.random.default_rng(seed).normal(scale=scale * float(scores.std()), size=len(frame))
    frame['first'] = frame.groupby('q', sort=False).ngroup()
    frame = frame.sort_values(['first', 'value'], ascending=[True, False], kind='stable')
    frame['rank'] = frame.groupby('first').cumcount() + 1
    frame['score'] = frame['value'].map(lambda v: f'{v:.4f}')     # distinct in float32 too (pytrec_eval's)
    frame[['q', 'z', 'd', 'rank', 'score', 'tag']].to_csv(out, sep=' ', header=False, index=False)
    return out


def line(case: str, medians: dict[str, float], agree: bool) -> bool:
    (ours, mine), (theirs, other) = medians.items()
    print(f'{case:16s} {ours} {mine * 1000:9.1f} ms   {theirs} {other * 1000:9.1f} ms   '
          f'ratio {mine / other:6.2f}   {"values agree" if agree else "VALUES DIFFER"}')
    return agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--scale', default='robust', choices=['small', 'robust3', 'robust'])
    parser.add_argument('-n', type=int, default=5)
    args = parser.parse_args()
    from repro_eval.Evaluator import RpdEvaluator
    from repro_eval.measure import document_order
    from repro_eval.util import load_measures, load_run
    from scipy.stats import kendalltau
    from sklearn.metrics import cohen_kappa_score

    import irmetrics as irm
    work = Path(tempfile.mkdtemp())
    qrels, run_a = ensure(args.scale, work)
    run_b = perturbed(run_a, work / 'b.run', 1, 0.05)
    run_c, run_d = perturbed(run_a, work / 'c.run', 2, 0.5), perturbed(run_a, work / 'd.run', 3, 0.6)
    print(f'scale {args.scale}: {qrels.stat().st_size / 1e6:.1f} MB qrels, {run_a.stat().st_size / 1e6:.1f} MB runs; '
          f'median of {args.n}')
    ok = True

    original, reproduced = load_run(str(run_a)), load_run(str(run_b))
    values, medians = median_times({
        'irmetrics': lambda: irm.run_agreement(str(run_a), str(run_b), depth=100),
        'repro_eval': lambda: (document_order.KTU(original, reproduced, trim_thresh=100, per_topic=True),
                               document_order.RBO(original, reproduced, p=0.9, depth=100, pbar=False,
                                                  per_topic=True)),
    }, args.n)
    ours, (ktu, _) = values['irmetrics'], values['repro_eval']
    same = all(abs(v - ktu[q]) < 1e-12 for q, v in zip(ours.query_ids, ours.ktu, strict=True))
    ok &= line('run agreement', medians, same)

    def repro_eval_run():
        evaluator = RpdEvaluator(qrels_orig_path=str(qrels), run_b_orig_path=str(run_c), run_a_orig_path=str(run_a),
                                 run_b_rep_path=str(run_d), run_a_rep_path=str(run_b))
        evaluator.trim()
        evaluator.evaluate()
        return evaluator.rmse(), evaluator.er(), evaluator.dri()
    measures = [str(m) for m in load_measures()]
    values, medians = median_times({
        'irmetrics': lambda: irm.reproducibility(measures, str(qrels), str(run_c), str(run_a), str(run_d),
                                                 str(run_b)).to_dict(),
        'repro_eval': repro_eval_run,
    }, args.n)
    ours, (rmse, er, dri) = values['irmetrics'], values['repro_eval']
    ok &= line('reproducibility', medians, all(
        abs(ours[m]['rmse_advanced'] - rmse['advanced'][m]) < 1e-9 and abs(ours[m]['effect_ratio'] - er[m]) < 1e-9
        and abs(ours[m]['delta_ri'] - dri[m]) < 1e-9 for m in ('AP', 'nDCG@10', 'P@10')))

    judged = pd.read_csv(qrels, sep=' ', header=None, names=['query_id', 'iteration', 'doc_id', 'relevance'],
                         dtype={'query_id': str, 'doc_id': str})
    other = judged.copy()
    flip = np.random.default_rng(4).random(len(other)) < 0.2
    other.loc[flip, 'relevance'] = np.random.default_rng(5).integers(0, 3, int(flip.sum()))
    a, b = (judged['relevance'] >= 1).to_numpy(), (other['relevance'] >= 1).to_numpy()
    values, medians = median_times({
        'irmetrics': lambda: irm.cohen_kappa(judged, other).statistic,
        'sklearn': lambda: cohen_kappa_score(a, b),
    }, args.n)
    ok &= line('kappa', medians, abs(values['irmetrics'] - values['sklearn']) < 1e-12)

    rng = np.random.default_rng(6)
    x = rng.random(2000)
    y = x + rng.normal(scale=0.2, size=2000)
    sa, sb = {f's{i}': v for i, v in enumerate(x)}, {f's{i}': v for i, v in enumerate(y)}
    values, medians = median_times({
        'irmetrics': lambda: irm.kendall_tau(sa, sb).statistic,
        'scipy': lambda: float(kendalltau(x, y).statistic),
    }, args.n)
    ok &= line('kendall tau', medians, abs(values['irmetrics'] - values['scipy']) < 1e-12)
    return 0 if ok else 1


if __name__ == '__main__':
    raise SystemExit(main())
