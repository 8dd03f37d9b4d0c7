#!/usr/bin/env python3
"""End-to-end speed of irmetrics' C/W/L and diversity families against cwl_eval and pyndeval.

What is measured
    Each tool is a separate process that reads the TREC qrels and run files and
    computes the same measures, so interpreter start-up, imports, parsing and
    evaluation all count:

    C/W/L family, on MS MARCO-shaped data with graded labels (11 measures:
    BPM, SDCG, NERR8-11, INST, INSQ at max_rel=3, and cwl_eval's P@10, RR and AP):
      irmetrics          python -m irmetrics -p 12 QRELS RUN <measures>
      cwl_eval           cwl_eval through ir_measures (its readers, its cwl_eval provider)

    Diversity family, on a 50-query x 1,000-document run with subtopic qrels (ndeval's 21
    default measures: alpha-(n)DCG, (n)ERR-IA and P-IA at 5/10/20, NRBP, nNRBP, MAP-IA, strec):
      irmetrics          python -m irmetrics -p 12 QRELS RUN <measures>
      pyndeval           pyndeval fed by a plain Python reader
      ir_measures        ir_measures' pyndeval provider (its readers)

    Every tool but cwl_eval (minutes per run) runs once as a warm-up, then all run N
    times interleaved; the median wall time and the median CPU time (user + system of
    the child) are reported with the ratios tool / irmetrics (above 1: irmetrics is
    faster).  On a busy machine the CPU-time ratio is the steadier one.
    Values are then checked on the benchmark data, in process: the native engine
    against irmetrics' own cwl_eval and pyndeval providers, which feed those tools
    the canonical ranking (the tools themselves keep file order for score ties,
    so the timed children's values may differ slightly where scores tie).

Data (deterministic; written under --data, default benchdata/cwl_diversity)
    msmarco_graded.qrels  the judgments of synthetic.py's msmarco scale (6,980 queries), each
                          given a grade 1-3, plus ~8 judged documents per query from its
                          top 100 with grades 0-3 (0 most often)
    msmarco_graded.run    synthetic.py's msmarco run (1,000 documents per query; ~5% tied scores),
                          cut to the first --cwl-queries queries (cwl_eval needs ~57 ms of CPU
                          a query: ~7 minutes for all 6,980; 0 uses msmarco.run itself)
    diversity.qrels       50 queries, 3-8 subtopics each; ~500 judged documents per query,
                          one line per (subtopic, document), relevant with a probability
                          falling with the rank; grades 0-2
    diversity.run         50 queries x 1,000 documents, ~5% tied scores

Measured on the project's 2-core machine (idle):
    C/W/L, all 6,980 queries (-n 1): irmetrics 1.37 s wall / 1.68 s CPU, cwl_eval 399 s / 396 s:
        291x (wall), 236x (CPU); on the default 500 queries: 44x / 37x.
    Diversity (-n 5): irmetrics 0.32 s / 0.42 s, pyndeval 0.27 s / 0.27 s (0.8x / 0.6x),
        ir_measures' pyndeval route 0.76 s / 0.86 s (2.4x / 2.0x).  At this size every tool is
        dominated by start-up, imports and parsing the 177,000-line qrels; ndeval's own work (C)
        is ~0.16 s in process against irmetrics' ~0.05 s (index, join and all 21 measures).

How to run (from the repository root, with the project's virtualenv)
    .venv/bin/python benchmarks/bench_cwl_diversity.py                       # 500 MS MARCO queries, N=3
    .venv/bin/python benchmarks/bench_cwl_diversity.py --cwl-queries 0 -n 1  # all 6,980 (cwl_eval: ~25 min)
    .venv/bin/python benchmarks/bench_cwl_diversity.py --family diversity -n 5

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import synthetic

REPO = Path(__file__).resolve().parent.parent
CWL_MEASURES = ['BPM(max_rel=3)@10', 'SDCG(max_rel=3)@10', 'NERR8(max_rel=3)@10', 'NERR9(max_rel=3)@10',
                'NERR10(max_rel=3)', 'NERR11(max_rel=3)', 'INST(max_rel=3)', 'INSQ(max_rel=3)',
                'P(rel=2)@10', 'RR(rel=2)@1000', "AP(rel=2,divisor='num_rel_ret')@1000"]
#: The same measures in ir_measures' spelling for its cwl_eval provider (whose RR and AP are these).
CWL_IR_MEASURES = CWL_MEASURES[:9] + ['RR(rel=2)', 'AP(rel=2)']
DIVERSITY_MEASURES = [f'{m}@{k}' for m in ('ERR_IA', 'nERR_IA', 'alpha_DCG', 'alpha_nDCG') for k in (5, 10, 20)] \
    + ['NRBP', 'nNRBP', 'AP_IA'] + [f'{m}@{k}' for m in ('P_IA', 'StRecall') for k in (5, 10, 20)]
#: Tools not warmed up (their runs take minutes, so a cold file cache is noise).
SLOW_TOOLS = {'cwl_eval'}
NDEVAL_NAMES = {'ERR_IA': 'ERR-IA', 'nERR_IA': 'nERR-IA', 'alpha_DCG': 'alpha-DCG', 'alpha_nDCG': 'alpha-nDCG',
                'NRBP': 'NRBP', 'nNRBP': 'nNRBP', 'AP_IA': 'MAP-IA', 'P_IA': 'P-IA', 'StRecall': 'strec'}


# --- data -------------------------------------------------------------------------------------
def msmarco_graded(data: Path, source: Path, n_queries: int) -> tuple[Path, Path]:
    """Graded qrels for synthetic.py's msmarco run, cut to its first n_queries queries (0: all, the run as is)."""
    suffix = f'_{n_queries}' if n_queries else ''
    qrels_path = data / f'msmarco_graded{suffix}.qrels'
    run_path = data / f'msmarco_graded{suffix}.run' if n_queries else source / 'msmarco.run'
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    synthetic.ensure('msmarco', source)
    import numpy as np
    rng = np.random.default_rng(20240604)
    data.mkdir(parents=True, exist_ok=True)
    queries, top = [], {}
    with open(source / 'msmarco.run', encoding='utf-8') as f, \
            open(run_path if n_queries else '/dev/null', 'w', encoding='utf-8') as out:
        for line in f:
            q, _, doc, rank = line.split(maxsplit=4)[:4]
            if q not in top:
                if n_queries and len(queries) == n_queries:
                    break
                queries.append(q)
                top[q] = []
            if int(rank) <= 100:
                top[q].append(doc)
            out.write(line)
    judged: dict[str, dict[str, int]] = {q: {} for q in queries}
    with open(source / 'msmarco.qrels', encoding='utf-8') as f:
        for line in f:
            q, _, doc, _ = line.split()
            if q in judged:
                judged[q][doc] = int(rng.choice([1, 2, 3], p=[0.4, 0.4, 0.2]))
    for q in queries:
        for i in rng.choice(len(top[q]), size=min(8, len(top[q])), replace=False):
            judged[q].setdefault(top[q][i], int(rng.choice([0, 1, 2, 3], p=[0.6, 0.25, 0.1, 0.05])))
    with open(qrels_path, 'w', encoding='utf-8') as out:
        for q in queries:
            for doc, grade in judged[q].items():
                out.write(f'{q} 0 {doc} {grade}\n')
    return qrels_path, run_path


def diversity(data: Path) -> tuple[Path, Path]:
    """50 queries x 1,000 documents with subtopic qrels."""
    qrels_path, run_path = data / 'diversity.qrels', data / 'diversity.run'
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    import numpy as np
    rng = np.random.default_rng(20240605)
    data.mkdir(parents=True, exist_ok=True)
    k = 1000
    with open(qrels_path, 'w', encoding='utf-8') as fq, open(run_path, 'w', encoding='utf-8') as fr:
        for q in range(1, 51):
            docs = [f'clueweb09-en{d // 100000:04d}-{d % 100000:05d}' for d in rng.choice(10 ** 7, size=k + 300,
                                                                                         replace=False)]
            gaps = np.where(rng.random(k) < 0.05, 0, 1 + rng.geometric(0.02, size=k))
            gaps[0] = 0
            scores = 5000 - np.cumsum(gaps)
            for i in range(k):
                fr.write(f'{q} Q0 {docs[i]} {i + 1} {scores[i] / 100:.2f} bench\n')
            ranks = np.arange(k + 300)
            p_judge = np.where(ranks < 200, 0.9, np.where(ranks < k, 0.15, 1.0))
            subtopics = int(rng.integers(3, 9))
            p_rel = 0.03 + 0.15 * np.exp(-np.minimum(ranks, 400) / 100.0)
            for i in np.flatnonzero(rng.random(k + 300) < p_judge):
                for s in range(1, subtopics + 1):
                    grade = int(rng.random() < p_rel[i]) * (1 + int(rng.random() < 0.2))
                    fq.write(f'{q} {s} {docs[i]} {grade}\n')
    return qrels_path, run_path


# --- the timed children -----------------------------------------------------------------------
def child(tool: str, family: str, qrels: str, run: str) -> dict:
    """Compute the family's measures with ``tool``; return {measure: aggregate}."""
    if tool == 'cwl_eval':
        import logging

        import ir_measures
        logging.getLogger('ir_measures').disabled = True
        measures = [ir_measures.parse_measure(m) for m in CWL_IR_MEASURES]
        result = ir_measures.cwl_eval.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels),
                                                      ir_measures.read_trec_run(run))
        return {mine: float(result[m]) for mine, m in zip(CWL_MEASURES, measures, strict=True)}
    if tool == 'ir_measures':
        import ir_measures
        measures = [ir_measures.parse_measure(m) for m in DIVERSITY_MEASURES]
        result = ir_measures.pyndeval.calc_aggregate(measures, ir_measures.read_trec_qrels(qrels),
                                                      ir_measures.read_trec_run(run))
        return {str(m): float(result[m]) for m in measures}
    if tool == 'pyndeval':
        import pyndeval
        with open(qrels, encoding='utf-8') as f:
            lines = [(q, s, d, int(g)) for q, s, d, g in (line.split() for line in f)]
        with open(run, encoding='utf-8') as f:
            ranked = [(q, d, float(s)) for q, _, d, _, s, _ in (line.split() for line in f)]
        names = [NDEVAL_NAMES[m.split('@')[0]] + (f"@{m.split('@')[1]}" if '@' in m else '')
                 for m in DIVERSITY_MEASURES]
        per_query = list(pyndeval.ndeval_iter(lines, ranked, names))
        return {m: statistics.fmean(r[n] for r in per_query) for m, n in zip(DIVERSITY_MEASURES, names, strict=True)}
    raise ValueError(tool)


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall time, user + system CPU time of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f'{" ".join(cmd[:4])} ... failed:\n{done.stderr[-2000:]}')
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, done.stdout


def commands(family: str, qrels: Path, run: Path) -> dict[str, list[str]]:
    measures = CWL_MEASURES if family == 'cwl' else DIVERSITY_MEASURES
    tools = ['cwl_eval'] if family == 'cwl' else ['pyndeval', 'ir_measures']
    cmds = {'irmetrics': [sys.executable, '-m', 'irmetrics', '-p', '12', str(qrels), str(run), *measures]}
    for tool in tools:
        cmds[tool] = [sys.executable, __file__, '--child', tool, '--family', family, str(qrels), str(run)]
    return cmds


def check_values(family: str, qrels: Path, run: Path, limit: int) -> float:
    """Max |native - reference provider| per query, on the first ``limit`` queries of the run."""
    sys.path.insert(0, str(REPO))
    import irmetrics as irm
    q, r = irm.read_trec_qrels(str(qrels)), irm.read_trec_run(str(run))
    keep = set(r.query_ids.to_list()[:limit])
    q = irm.to_qrels([x for x in q if x.query_id in keep])
    r = irm.to_run([x for x in r if x.query_id in keep])
    measures = CWL_MEASURES if family == 'cwl' else DIVERSITY_MEASURES
    native = irm.calc(measures, q, r)
    reference = irm.calc(measures, q, r, provider='cwl_eval' if family == 'cwl' else 'pyndeval')
    return max(abs(a.value - b.value) for a, b in zip(native.iter_metrics(), reference.iter_metrics(), strict=True))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--family', choices=['cwl', 'diversity', 'both'], default='both')
    p.add_argument('-n', type=int, default=3, help='timed repetitions per tool (after one warm-up)')
    p.add_argument('--cwl-queries', type=int, default=500, help='MS MARCO queries for the C/W/L run (0: all)')
    p.add_argument('--data', type=Path, default=REPO / 'benchdata' / 'cwl_diversity')
    p.add_argument('--source', type=Path, default=REPO / 'benchdata', help="synthetic.py's msmarco files")
    p.add_argument('--json', type=Path, help='write the timings here')
    p.add_argument('--child', help=argparse.SUPPRESS)
    p.add_argument('files', nargs='*', help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.family, *args.files)))
        return
    report = {}
    for family in (['cwl', 'diversity'] if args.family == 'both' else [args.family]):
        qrels, run = (msmarco_graded(args.data, args.source, args.cwl_queries)
                      if family == 'cwl' else diversity(args.data))
        cmds = commands(family, qrels, run)
        times: dict[str, list[float]] = {tool: [] for tool in cmds}
        cpu: dict[str, list[float]] = {tool: [] for tool in cmds}
        values = {}
        for repetition in range(args.n + 1):
            for tool, cmd in cmds.items():
                if not repetition and tool in SLOW_TOOLS:
                    continue                        # minutes per run: a warm-up would change nothing
                elapsed, used, out = timed(cmd)
                if repetition:
                    times[tool].append(elapsed)
                    cpu[tool].append(used)
                values[tool] = out
        median = {tool: statistics.median(ts) for tool, ts in times.items()}
        median_cpu = {tool: statistics.median(ts) for tool, ts in cpu.items()}
        print(f'\n{family}: {qrels.name} / {run.name}, median of {args.n} (wall time; CPU time)')
        for tool in cmds:
            ratio = '' if tool == 'irmetrics' else (f'   {median[tool] / median["irmetrics"]:7.1f}x irmetrics\' wall, '
                                                    f'{median_cpu[tool] / median_cpu["irmetrics"]:5.1f}x its CPU')
            print(f'  {tool:12s} {median[tool]:9.2f} s {median_cpu[tool]:9.2f} s{ratio}')
        diff = check_values(family, qrels, run, 200)
        print(f'  values: native vs {"cwl_eval" if family == "cwl" else "pyndeval"} provider on 200 queries, '
              f'max |difference| {diff:.2e}')
        report[family] = {'median_wall_s': median, 'median_cpu_s': median_cpu,
                          'wall_ratios': {t: median[t] / median['irmetrics'] for t in median},
                          'cpu_ratios': {t: median_cpu[t] / median_cpu['irmetrics'] for t in median_cpu},
                          'max_abs_difference': diff, 'outputs': values}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == '__main__':
    main()
