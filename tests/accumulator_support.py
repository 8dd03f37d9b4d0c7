"""What the tests of the accumulator and of the torchmetrics bridge share: the judgments and scores of a small
recommender (:func:`data`), batches of users, and two processes of torch.distributed (gloo, on the CPU) that each
run one scenario of this module (``python accumulator_support.py SCENARIO``) and print what they computed as JSON
(:func:`two_processes`).  In every scenario process 0 gives the users 0-19, 40-59 and 80-96, process 1 the others
(unless the scenario says otherwise), and each process prints ``{name: result}``: a result is the measures, the
per-user values and the aggregates, or the error's message."""
import json
import os
import socket
import subprocess
import sys
import warnings

import numpy as np
import scipy.sparse as sp

MEASURES = ['nDCG@10', 'R@20', 'P@10', 'RR@10', 'AP@15', 'ERR@5', "nDCG(dcg='exp-log2')@5", 'Coverage(catalogue=60)@10',
            'Gini(catalogue=60)@10']
#: measures given as a set: Python iterates it in an order that follows the process's hash seed
MEASURE_SET = frozenset({'nDCG@10', 'R@20', 'AP', 'ERR@10', 'P@5', 'RR', 'Coverage(catalogue=60)@10'})
SLICES = ([(0, 20), (40, 60), (80, 97)], [(20, 40), (60, 80)])


def data(seed=0, users=97, items=60):
    rng = np.random.default_rng(seed)
    grades = rng.choice([0] * 12 + [1, 2, 3], size=(users, items))
    grades[4] = 0                                                        # a user without judgments
    scores = (rng.integers(0, 5, size=(users, items)) / 2).astype(np.float32)     # ties at every rank
    scores[7] = -np.inf                                                  # a user whose every item is masked
    scores[rng.random(scores.shape) < 0.1] = -np.inf
    return sp.csr_matrix(grades), scores


def batches(n, size):
    return [(lo, min(lo + size, n)) for lo in range(0, n, size)]


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def two_processes(scenario, envs=({}, {})):
    """What each of two processes of ``scenario`` printed (``envs``: each one's extra environment)."""
    port = str(_free_port())
    here = os.path.dirname(os.path.abspath(__file__))
    procs = []
    for rank, extra in enumerate(envs):
        env = {**os.environ, 'MASTER_ADDR': '127.0.0.1', 'MASTER_PORT': port, 'RANK': str(rank), 'WORLD_SIZE': '2',
               'PYTHONPATH': os.pathsep.join([os.path.dirname(here), here]), **extra}
        procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__), scenario], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outs = [p.communicate(timeout=120) for p in procs]
    for proc, (_, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]


def _result(compute):
    import irmetrics as irm
    try:
        got = compute()
    except irm.InputError as ex:
        return {'error': str(ex)}
    return {'measures': [str(m) for m in got.measures], 'query_ids': got.query_ids, 'values': got.values.tolist(),
            'aggregated': {str(m): v for m, v in got.aggregated.items()}}


def _accumulated(measures, qrels, scores, slices, sync=None):
    import torch

    import irmetrics as irm
    acc = irm.evaluator(measures, qrels).accumulator(sync=sync)
    for lo, hi in slices:
        acc.update(torch.from_numpy(scores[lo:hi]), offset=lo)
    return _result(acc.compute)


def _metric(measures, qrels, scores, slices):
    import torch

    from irmetrics.bridges.torchmetrics import RankingMetric
    metric = RankingMetric(measures, qrels)
    for lo, hi in slices:
        metric.update(torch.from_numpy(scores[lo:hi]), offset=lo)

    def compute():
        aggregated = metric.compute()
        assert aggregated == metric.results.aggregated
        return metric.results
    return _result(compute)


def scenario(name, rank):
    """What process ``rank`` computes in the scenario ``name`` (see the module docstring)."""
    qrels, scores = data()
    mine = SLICES[rank]
    if name == 'whole':                       # TWICE: process 1 gives users 90 and 91 too
        twice = [(90, 92)] if rank == 1 and os.environ.get('TWICE') else []
        twice += [(4, 5)] if rank == 1 and os.environ.get('UNJUDGED_TWICE') else []    # user 4 has no judgments
        return {'accumulator': _accumulated(MEASURES, qrels, scores, mine + twice)}
    if name == 'own':                         # sync=False: each process its own users, warnings recorded
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            result = _accumulated(MEASURES, qrels, scores, mine, sync=False)
        return {'accumulator': result, 'warnings': [str(w.message) for w in caught]}
    if name == 'set':
        return {'given': [*MEASURE_SET], 'accumulator': _accumulated(MEASURE_SET, qrels, scores, mine),
                'metric': _metric(MEASURE_SET, qrels, scores, mine)}
    if name == 'measures differ':
        return {'accumulator': _accumulated(['AP', 'nDCG@10'] + ['R@20'] * rank, qrels, scores, mine)}
    if name == 'sharded judgments':          # each process builds the evaluator from its own users' judgments
        lo, hi = (0, 50) if rank == 0 else (50, 97)
        return {'accumulator': _accumulated(['AP', 'nDCG@10'], qrels[lo:hi], scores[lo:hi], [(0, hi - lo)])}
    if name == 'idle':                        # process 1 is given no batch
        everything = [(0, 97)] if rank == 0 else []
        return {'accumulator': _accumulated(MEASURES, qrels, scores, everything),
                'metric': _metric(MEASURES, qrels, scores, everything)}
    raise ValueError(name)


if __name__ == '__main__':
    import torch.distributed as dist
    warnings.simplefilter('ignore')
    dist.init_process_group('gloo')
    print(json.dumps(scenario(sys.argv[1], dist.get_rank())))
    dist.destroy_process_group()
