"""The full-catalogue shapes of bench_recommender.py: score matrices from embeddings, on the CPU or a GPU.

Data (generated here): float32 user and item embeddings (32 dimensions, seed 0), scores = U @ V.T, and 8
held-out items per user (a scipy.sparse matrix, grade 1).  Measures: nDCG@10, R@20, P@10, RR@10.

Anchors, in the same run on the same machine:
  torch path   RecBole's full-sort evaluation written out in torch: ``torch.topk`` of the score matrix,
               ``torch.gather`` of the held-out matrix (dense, on the device) at the top 20, the four formulas
               on the hit matrix, means; its order among tied scores is topk's (arbitrary)
  numpy floor  the same with ``np.argpartition`` and ``np.take_along_axis`` on the host (no tie rule)
  topk alone   ``torch.topk`` of the matrix and nothing else: the floor of any path in torch
irmetrics is given the matrix as it is (a numpy array, a torch tensor on the CPU or on the GPU) and the held-out
matrix as scipy.sparse, through an evaluator built once (the judgments read once, as in a training loop).
"""
from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

MEASURES = ['nDCG@10', 'R@20', 'P@10', 'RR@10']
DEPTH, HELD_OUT, DIMENSIONS = 20, 8, 32


def embeddings(users: int, items: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((users, DIMENSIONS), dtype=np.float32),
            rng.standard_normal((items, DIMENSIONS), dtype=np.float32))


def held_out(users: int, items: int, seed: int = 1):
    """``HELD_OUT`` distinct random items per user, as a CSR matrix of ones (rows with a repeat drawn again)."""
    import scipy.sparse as sp
    rng = np.random.default_rng(seed)
    columns = rng.integers(0, items, size=(users, HELD_OUT))
    while True:
        columns.sort(axis=1)
        twice = (columns[:, 1:] == columns[:, :-1]).any(axis=1)
        if not twice.any():
            break
        columns[twice] = rng.integers(0, items, size=(int(twice.sum()), HELD_OUT))
    return sp.csr_matrix((np.ones(columns.size, dtype=np.int8), columns.ravel(),
                          np.arange(0, columns.size + 1, HELD_OUT)), shape=(users, items))


def _formulas(hits: Any, positives: Any) -> dict[str, Any]:
    """The four measures per user from the users x 20 hit matrix (1.0 where the item is held out) and the
    number of held-out items, in the hit matrix's library (numpy, or torch on its device)."""
    if isinstance(hits, np.ndarray):
        ranks = np.arange(1, DEPTH + 1, dtype=np.float64)
        ideal_at = np.clip(positives, 1, 10).astype(np.int64) - 1
        first = np.where(hits[:, :10] > 0, 1.0 / ranks[:10], 0.0).max(1)
        cumulative = np.cumsum(1.0 / np.log2(ranks[:10] + 1.0))
    else:
        import torch
        ranks = torch.arange(1, DEPTH + 1, dtype=hits.dtype, device=hits.device)
        ideal_at = positives.clip(1, 10).long() - 1
        first = torch.where(hits[:, :10] > 0, 1.0 / ranks[:10], 0.0).amax(1)
        cumulative = torch.cumsum(1.0 / torch.log2(ranks[:10] + 1.0), 0)
    discount = 1.0 / (ranks + 1.0).log2() if not isinstance(ranks, np.ndarray) else 1.0 / np.log2(ranks + 1.0)
    return {'nDCG@10': (hits[:, :10] * discount[:10]).sum(1) / cumulative[ideal_at], 'R@20': hits.sum(1) / positives,
            'P@10': hits[:, :10].sum(1) / 10.0, 'RR@10': first}


class TorchPath:
    """RecBole's full-sort evaluation in torch on ``device``: sums of the per-user values, batch by batch."""

    def __init__(self, qrels, device: str):
        import torch
        self.torch, self.device = torch, device
        self.indptr = torch.as_tensor(qrels.indptr.astype(np.int64), device=device)
        self.indices = torch.as_tensor(qrels.indices.astype(np.int64), device=device)
        self.items = qrels.shape[1]
        self.reset()

    def reset(self) -> None:
        self.sums = {m: 0.0 for m in MEASURES}
        self.users = 0

    def update(self, scores, offset: int) -> None:
        torch = self.torch
        n = scores.shape[0]
        _, top = torch.topk(scores, DEPTH, dim=1)
        positive = torch.zeros((n, self.items), dtype=torch.float32, device=self.device)
        lo, hi = self.indptr[offset], self.indptr[offset + n]
        rows = torch.repeat_interleave(torch.arange(n, device=self.device), self.indptr[offset + 1:offset + n + 1] -
                                       self.indptr[offset:offset + n])
        positive[rows, self.indices[lo:hi]] = 1.0
        hits = torch.gather(positive, 1, top)
        values = _formulas(hits, positive.sum(1))
        for m, v in values.items():
            self.sums[m] += v.sum()
        self.users += n

    def compute(self) -> dict[str, float]:
        return {m: float(s) / self.users for m, s in self.sums.items()}


def numpy_floor(scores: np.ndarray, qrels) -> dict[str, float]:
    """The same on the host: ``np.argpartition`` of the 20 best, sorted, the hit matrix from the CSR rows."""
    top = np.argpartition(-scores, DEPTH, axis=1)[:, :DEPTH]
    order = np.argsort(-np.take_along_axis(scores, top, axis=1), axis=1)
    top = np.take_along_axis(top, order, axis=1)
    keys = np.repeat(np.arange(scores.shape[0], dtype=np.int64), HELD_OUT) * scores.shape[1] + qrels.indices
    cells = np.arange(scores.shape[0], dtype=np.int64)[:, None] * scores.shape[1] + top
    hits = np.isin(cells, keys).astype(np.float64)
    values = _formulas(hits, np.diff(qrels.indptr).astype(np.float64))
    return {m: float(v.mean()) for m, v in values.items()}


def _nothing() -> None:
    """No device to wait for."""


def best_times(tools: dict[str, Callable[[], dict[str, float]]], repeats: int,
               sync: Callable[[], None] = _nothing) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Each tool's values (its warm-up run) and its best time of ``repeats``, the tools interleaved."""
    values = {name: tool() for name, tool in tools.items()}
    times: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(repeats):
        for name, tool in tools.items():
            sync()
            start = time.perf_counter()
            tool()
            sync()
            times[name].append(time.perf_counter() - start)
    return values, {name: min(t) for name, t in times.items()}


def agree(values: dict[str, dict[str, float]], first: str, tolerance: float = 1e-6) -> bool:
    return all(math.isclose(v[m], values[first][m], abs_tol=tolerance) for v in values.values() for m in MEASURES)


def report(title: str, values: dict[str, dict[str, float]], seconds: dict[str, float], anchor: str) -> None:
    print(title)
    for name, s in seconds.items():
        ratio = '' if name == anchor else f'   {s / seconds[anchor]:7.2f}x the {anchor}'
        shown = ', '.join(f'{m} {values[name][m]:.6f}' for m in MEASURES)
        print(f'  {name:26s} {s * 1000:10.1f} ms{ratio}   ({shown})')
    print('  values agree (1e-6)' if agree(values, anchor) else '  VALUES DIFFER')


def full_matrix(users: int, items: int, device: str, repeats: int) -> dict[str, Any]:
    """irmetrics against the torch path and the numpy floor on one users x items matrix (module docstring);
    ``torch.topk`` alone (no judgments, no measures) is the floor of any torch path."""
    import torch

    import irmetrics as irm
    u, v = embeddings(users, items)
    scores = u @ v.T
    qrels = held_out(users, items)
    evaluator = irm.evaluator(MEASURES, qrels)
    on_cpu = torch.from_numpy(scores)
    path_cpu = TorchPath(qrels, 'cpu')

    def run_path(path, matrix):
        path.reset()
        path.update(matrix, 0)
        found = path.compute()
        first.setdefault('values', found)
        return found

    first: dict[str, dict[str, float]] = {}

    def values_of_first():
        """The values of the first tool (a bare top-k has none of its own; the check then skips it)."""
        return first['values']

    def run_irmetrics(matrix):
        return {str(m): float(x) for m, x in evaluator.calc(matrix).aggregated.items()}

    def ranked_by_torch(matrix):
        from irmetrics.data import array_library
        array_library.TORCH_ON_CPU = True
        try:
            return run_irmetrics(matrix)
        finally:
            array_library.TORCH_ON_CPU = False

    def topk_alone(matrix):
        torch.topk(matrix, DEPTH, dim=1)
        return values_of_first()

    tools: dict[str, Callable[[], dict[str, float]]] = {
        'torch path (CPU)': lambda: run_path(path_cpu, on_cpu),
        'torch.topk alone (CPU)': lambda: topk_alone(on_cpu),
        'numpy floor (argpartition)': lambda: numpy_floor(scores, qrels),
        'irmetrics, torch CPU tensor': lambda: run_irmetrics(on_cpu),
        'irmetrics, numpy array': lambda: run_irmetrics(scores),
        'irmetrics, CPU tensor by torch': lambda: ranked_by_torch(on_cpu),
    }
    sync = _nothing
    if device == 'cuda':
        on_gpu = torch.from_numpy(scores).cuda()
        path_gpu = TorchPath(qrels, 'cuda')
        tools = {'torch path (CUDA)': lambda: run_path(path_gpu, on_gpu),
                 'torch.topk alone (CUDA)': lambda: topk_alone(on_gpu),
                 'irmetrics, CUDA tensor': lambda: run_irmetrics(on_gpu), **tools}
        sync = torch.cuda.synchronize
    values, seconds = best_times(tools, repeats, sync)
    title = (f'{users:,} x {items:,} float32 scores, {HELD_OUT} held out per user, {", ".join(MEASURES)}; best of '
             f'{repeats} ({torch.get_num_threads()} torch threads):')
    report(title, values, seconds, next(iter(tools)))
    return {'values': values, 'seconds': seconds}


def ties_on_device(users: int, items: int, device: str) -> bool:
    """Scores rounded to 0.5 (many ties): irmetrics on the device gives the numpy path's values (the TREC rule),
    per user; the torch path's values differ (topk's order among ties)."""
    import torch

    import irmetrics as irm
    u, v = embeddings(users, items, seed=3)
    scores = np.round(u @ v.T * 2) / 2
    qrels = held_out(users, items, seed=4)
    evaluator = irm.evaluator(MEASURES, qrels)
    on_device = evaluator.calc(torch.from_numpy(scores).to(device))
    on_host = evaluator.calc(scores)
    same = bool(np.allclose(on_device.values, on_host.values, rtol=0, atol=1e-12))
    scores[5, 17] = np.nan
    try:
        evaluator.calc(torch.from_numpy(scores).to(device))
        same = False
        print('  a NaN score on the device was NOT refused')
    except irm.InputError as ex:
        print(f'  a NaN score on the device: {ex}')
    path = TorchPath(qrels, device)
    path.update(torch.from_numpy(scores).to(device), 0)
    differ = {m: round(path.compute()[m] - on_host.aggregated[m], 6) for m in MEASURES}
    print(f'ties (scores rounded to 0.5), {users:,} x {items:,} on {device}: irmetrics on the device '
          f'{"equals" if same else "DIFFERS FROM"} the host path per user; the torch path differs by {differ}')
    return same


def stream(users: int, items: int, batch: int, device: str) -> dict[str, float]:
    """A training loop's evaluation: each batch of users scored on the device (U_b @ V.T), then measured by the
    torch path or by irmetrics' accumulator; the share of each is the loop's time less the scoring's."""
    import torch

    import irmetrics as irm
    u, v = embeddings(users, items)
    qrels = held_out(users, items)
    users_on, items_on = torch.from_numpy(u).to(device), torch.from_numpy(v).to(device)
    sync = torch.cuda.synchronize if device == 'cuda' else _nothing
    evaluator = irm.evaluator(MEASURES, qrels)

    def loop(measure: Callable[[Any, int], None] | None) -> float:
        sync()
        start = time.perf_counter()
        for lo in range(0, users, batch):
            scores = users_on[lo:lo + batch] @ items_on.T
            if measure is not None:
                measure(scores, lo)
        sync()
        return time.perf_counter() - start

    path = TorchPath(qrels, device)
    accumulator = evaluator.accumulator()
    loop(path.update)                                                 # warm-up (kernels, caches)
    accumulator.update(users_on[:batch] @ items_on.T, offset=0)
    times: dict[str, list[float]] = {'scoring only': [], 'torch path': [], 'irmetrics accumulator': []}
    for _ in range(3):
        times['scoring only'].append(loop(None))
        path.reset()
        times['torch path'].append(loop(path.update))
        accumulator.reset()
        times['irmetrics accumulator'].append(loop(lambda s, lo: accumulator.update(s, offset=lo)))
    best = {name: min(t) for name, t in times.items()}
    got = {str(m): float(x) for m, x in accumulator.compute().aggregated.items()}
    expected = path.compute()
    share = {name: best[name] - best['scoring only'] for name in ('torch path', 'irmetrics accumulator')}
    print(f'{users:,} users x {items:,} items in batches of {batch:,} on {device}, best of 3: scoring alone '
          f'{best["scoring only"]:.3f} s; torch path {best["torch path"]:.3f} s (share {share["torch path"]:.3f} s); '
          f'irmetrics {best["irmetrics accumulator"]:.3f} s (share {share["irmetrics accumulator"]:.3f} s, '
          f'{share["irmetrics accumulator"] / share["torch path"]:.2f}x the torch path\'s)')
    print('  values agree (1e-6)' if agree({'a': expected, 'b': got}, 'a') else f'  VALUES DIFFER {expected} {got}')
    return {**best, **{f'share {k}': x for k, x in share.items()}}


def host_peak(users: int, items: int) -> dict[str, float]:
    """Peak host memory (VmHWM) of a CUDA evaluation in this process, against the matrix's bytes."""
    import torch

    import irmetrics as irm
    u, v = embeddings(users, items)
    qrels = held_out(users, items)
    evaluator = irm.evaluator(MEASURES, qrels)
    scores = torch.from_numpy(u).cuda() @ torch.from_numpy(v).cuda().T
    evaluator.calc(scores)                                             # warm-up: the judgments go to the device
    torch.cuda.synchronize()
    before = _resident()
    _reset_peak()
    evaluator.calc(scores)
    peak = _peak()
    out = {'before': before, 'peak': peak, 'matrix': scores.numel() * 4}
    print(f'host memory of a CUDA evaluation of {users:,} x {items:,} ({out["matrix"] / 1e6:,.0f} MB on the '
          f'device): {before / 1e6:,.0f} MB resident before, peak {peak / 1e6:,.0f} MB during '
          f'(+{(peak - before) / 1e6:,.1f} MB)')
    return out


def _status(field: str) -> int:
    with open('/proc/self/status') as status:
        line = next(line for line in status if line.startswith(field))
    return int(line.split()[1]) * 1024


def _resident() -> int:
    return _status('VmRSS:')


def _peak() -> int:
    return _status('VmHWM:')


def _reset_peak() -> None:
    """Start VmHWM again from the current resident size (Linux: write 5 to clear_refs)."""
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')


def device_agreement(device: str, cases: int = 12) -> bool:
    """Random matrices with ties at every rank, masked items (-inf), -0.0 and excluded cells: irmetrics on the device
    gives its host path's values, per user, for measures of the hit matrix and of the TREC engine."""
    import scipy.sparse as sp
    import torch

    import irmetrics as irm
    measures = ['P@5', 'P(relative=True)@7', 'R(rel=2)@4', 'Hits@6', 'Success@3', 'RR@10', 'AP@15',
                "AP(divisor='num_rel_ret')@12", 'DCG@4', 'nDCG@10', "nDCG(dcg='exp-log2')@5", 'Judged@5', 'ERR@5',
                'RBP(p=0.8)@20', 'Coverage(catalogue=400)@10']
    worst = 0.0
    for seed in range(cases):
        rng = np.random.default_rng(seed)
        users, items = int(rng.integers(5, 300)), int(rng.integers(12, 400))
        grades = rng.choice([0] * 10 + [-1, 1, 2, 3], size=(users, items))
        scores = (rng.integers(0, 4, size=(users, items)) / 2).astype(np.float32 if seed % 2 else np.float64)
        scores[rng.random(scores.shape) < 0.15] = -np.inf
        scores[0], scores[1, :3] = -np.inf, -0.0
        train = sp.csr_matrix((rng.random(scores.shape) < 0.1).astype(np.int8))
        evaluator = irm.evaluator(measures, sp.csr_matrix(grades), exclude=train)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', irm.IrmetricsWarning)
            host = evaluator.calc(scores)
            on_device = evaluator.calc(torch.from_numpy(scores).to(device))
        worst = max(worst, float(np.nanmax(np.abs(host.values - on_device.values), initial=0.0)))
        if on_device.query_ids != host.query_ids or dict(on_device.run_values) != dict(host.run_values):
            worst = np.inf
    print(f'agreement on {device}: {cases} random matrices with ties, masked and excluded items; the largest '
          f'difference from the host path per user: {worst:.3g}')
    return worst <= 1e-12
