#!/usr/bin/env python3
"""End-to-end speed and memory of irmetrics against reference tools, in one run.

What is measured
    Each tool is a separate process that reads the TREC qrels and run files and
    computes the same 9 measures (AP, nDCG, nDCG@10, P@10, R@100, RR, Rprec,
    Bpref, Success@10), so interpreter start-up, imports, parsing and
    evaluation all count:

      irmetrics    python -m irmetrics -p 12 QRELS RUN <9 measures>
      pytrec_eval  anchors.py pytrec     (pytrec_eval fed by dicts from pyarrow's CSV reader)
      ir_measures  anchors.py irm
      ranx         anchors.py ranx       (only with --ranx: slow, numba JIT)
      trec_eval    anchors.py trec_eval  (only with --trec-eval BIN: the binary built from source)
      floor        anchors.py floor      (only with --floor: reading the files with polars, the lower bound)
      arrow_floor  anchors.py arrow_floor (only with --arrow-floor: reading them with Arrow's CSV reader)

    anchors.py (the reference runners) and synthetic.py (the data) are in this directory.

    Per scale, every tool runs once as a warm-up (page cache, imports, numba
    cache), then N times interleaved (tool A, B, C, A, B, C, ...).  Reported:
    median wall time over the N runs (perf_counter around the child; its
    user+system CPU time is shown too, and kept in the JSON), peak
    resident memory (ru_maxrss of the child from os.wait4, max over the N
    runs), and the ratios irmetrics / tool (below 1 = irmetrics is faster or
    smaller).  Finally irmetrics' aggregates are checked against pytrec_eval's
    (read at full precision from anchors.py --json) to 1e-9.

    Speed goals are checked here, never in timed unit tests.  Compare ratios
    measured in one run on one machine, not absolute times across machines.

How to run (from the repository root, with the project's virtualenv)
    .venv/bin/python benchmarks/run_bench.py                    # small, msmarco; N=3
    .venv/bin/python benchmarks/run_bench.py --scales small msmarco robust large -n 5
    .venv/bin/python benchmarks/run_bench.py --data /tmp/bench --floor --ranx --json out.json

Missing data files DIR/SCALE.qrels / DIR/SCALE.run are generated with synthetic.py
(deterministic) into --data (default: benchdata/ in the repository, git-ignored).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anchors

REPO = Path(__file__).resolve().parent.parent
MEASURES = ["AP", "nDCG", "nDCG@10", "P@10", "R@100", "RR", "Rprec", "Bpref", "Success@10"]
TOLERANCE = 1e-9
ANCHOR_TOOLS = {"pytrec_eval": "pytrec", "ir_measures": "irm", "ranx": "ranx", "trec_eval": "trec_eval",
                "floor": "floor", "arrow_floor": "arrow_floor"}
HERE = Path(__file__).resolve().parent


def measure_process(cmd: list[str], cwd: Path, env: dict | None = None) -> dict:
    """Run ``cmd``; its wall time (s), peak RSS (MB), exit status and stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
                "peak_mb": usage.ru_maxrss / 1024,   # Linux: ru_maxrss in KiB
                "rc": proc.returncode, "stdout": out.read().decode(), "stderr": err.read().decode()}


def parse_values(text: str) -> dict[str, float]:
    """``{measure: value}`` from 'MEASURE<TAB>VALUE' lines (other lines ignored)."""
    vals = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and parts[0] in MEASURES:
            vals[parts[0]] = float(parts[1])
    return vals


def commands(tools: list[str], scale: str, data: Path, tmp: Path, env: dict) -> dict[str, tuple]:
    """tool -> (command, file holding its full-precision values or None)."""
    py = sys.executable
    qrels, run = str(data / f"{scale}.qrels"), str(data / f"{scale}.run")
    cmds = {}
    for tool in tools:
        if tool == "irmetrics":
            cmds[tool] = ([py, "-m", "irmetrics", "-p", "12", qrels, run, *MEASURES], None)
        elif tool == "trec_eval":                  # the binary itself, not through Python
            cmds[tool] = ([env["TREC_EVAL"], *anchors.TREC_EVAL_ARGS, qrels, run], None)
        else:
            jout = tmp / f"{tool}-{scale}.json"
            cmds[tool] = ([py, str(HERE / "anchors.py"), ANCHOR_TOOLS[tool], qrels, run, "--json", str(jout)],
                          jout)
    return cmds


def bench_scale(scale: str, tools: list[str], n: int, data: Path, tmp: Path, env: dict) -> dict:
    cmds = commands(tools, scale, data, tmp, env)
    load_before = os.getloadavg()[0]
    runs: dict[str, list[dict]] = {t: [] for t in tools}
    for rep in range(n + 1):                       # rep 0 is the warm-up
        for tool in tools:
            r = measure_process(cmds[tool][0], REPO, env)
            if r["rc"] != 0:
                raise SystemExit(f"{tool} failed on {scale} (exit {r['rc']}):\n{r['stderr'][-2000:]}")
            print(f"  {scale:8} {'warm-up' if rep == 0 else f'run {rep}':8} {tool:12} "
                  f"{r['wall_s']:8.3f} s {r['peak_mb']:8.0f} MB", file=sys.stderr, flush=True)
            if rep:
                runs[tool].append(r)
    res = {"tools": {}, "load_avg_before": load_before, "load_avg_after": os.getloadavg()[0]}
    for tool in tools:
        rs = runs[tool]
        jfile = cmds[tool][1]
        if tool == "trec_eval":
            values = anchors.trec_eval_values(rs[-1]["stdout"])
        else:
            values = json.loads(jfile.read_text())["values"] if jfile else parse_values(rs[-1]["stdout"])
        res["tools"][tool] = {
            "median_s": statistics.median(r["wall_s"] for r in rs),
            "times_s": [r["wall_s"] for r in rs],
            "median_cpu_s": statistics.median(r["cpu_s"] for r in rs),
            "peak_mb": max(r["peak_mb"] for r in rs),
            "values": values,
        }
    t = res["tools"]
    irm = t["irmetrics"]
    res["ratios"] = {tool: {"time": irm["median_s"] / t[tool]["median_s"],
                            "memory": irm["peak_mb"] / t[tool]["peak_mb"]}
                     for tool in tools if tool != "irmetrics"}
    if "pytrec_eval" in t:
        ref = t["pytrec_eval"]["values"]
        diffs = {m: abs(irm["values"].get(m, float("nan")) - ref[m]) for m in MEASURES}
        res["check_vs_pytrec_eval"] = {"max_abs_diff": max(diffs.values()), "tolerance": TOLERANCE,
                                       "ok": all(d <= TOLERANCE for d in diffs.values()),
                                       "diffs": diffs}
    return res


def table(scale: str, res: dict) -> str:
    rows = [f"### {scale}", "",
            "| tool | median wall s | (cpu s) | peak MB | irmetrics/tool time | irmetrics/tool memory |",
            "|---|---:|---:|---:|---:|---:|"]
    for tool, r in res["tools"].items():
        ratio = res["ratios"].get(tool)
        rt = f"{ratio['time']:.2f}" if ratio else "1"
        rm = f"{ratio['memory']:.2f}" if ratio else "1"
        rows.append(f"| {tool} | {r['median_s']:.3f} | {r['median_cpu_s']:.2f} | {r['peak_mb']:.0f} | {rt} | {rm} |")
    rows.append("")
    for tool, ratio in res["ratios"].items():
        if tool in ("pytrec_eval", "ir_measures", "trec_eval", "ranx"):
            rows.append(f"irmetrics is {1 / ratio['time']:.2f}x as fast as {tool} and uses {ratio['memory']:.2f}x "
                        f"its peak memory.")
    if "floor" in res["ratios"]:
        rows.append(f"irmetrics takes {res['ratios']['floor']['time']:.2f}x the parse-only floor's time.")
    if "arrow_floor" in res["ratios"]:
        rows.append(f"irmetrics takes {res['ratios']['arrow_floor']['time']:.2f}x the time of Arrow's read of the "
                    "files.")
    c = res.get("check_vs_pytrec_eval", {"ok": True, "diffs": {}})
    if "tolerance" in c:
        rows.append(f"Aggregates equal pytrec_eval's to {c['tolerance']:g}: "
                    f"{'OK' if c['ok'] else 'MISMATCH'} (max |diff| {c['max_abs_diff']:.2e})")
    busy = max(res["load_avg_before"], res["load_avg_after"])
    if busy > 0.5:
        rows.append(f"WARNING: load average {busy:.2f} during this scale: other processes were running, "
                    f"times are unreliable")
    if not c["ok"]:
        rows += [f"  {m}: |diff| {d:.3e}" for m, d in c["diffs"].items() if not d <= TOLERANCE]
    return "\n".join(rows)


def compile_package(checkout: Path) -> None:
    """Byte-compile irmetrics, as installing it does: with PYTHONDONTWRITEBYTECODE set (or an editable install
    that never ran), every child would otherwise compile the package's source again, a cost the installed
    reference tools do not pay."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "irmetrics")], check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


def ensure_data(scale: str, data: Path) -> None:
    """Write the scale's files if missing, in a child process: numpy and pyarrow in this process would
    count in every child's peak memory (a forked child starts with its parent's pages)."""
    subprocess.run([sys.executable, "-c", f"import synthetic; synthetic.ensure({scale!r}, __import__('pathlib')"
                    f".Path({str(data)!r}))"], cwd=HERE, check=True)


def source_version() -> str:
    """The commit of the irmetrics being measured ('+dirty' if irmetrics/ has local changes)."""
    try:
        git = ["git", "-C", str(REPO)]
        head = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(git + ["status", "--porcelain", "irmetrics"], capture_output=True,
                               text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", nargs="+", default=["small", "msmarco"],
                    choices=["small", "robust", "msmarco", "large"])
    ap.add_argument("-n", "--runs", type=int, default=3, help="timed runs per tool after a warm-up (default 3)")
    ap.add_argument("--data", type=Path, default=REPO / "benchdata",
                    help="directory of SCALE.qrels/SCALE.run, generated if missing (default: benchdata/)")
    ap.add_argument("--trec-eval", type=Path, help="also time this trec_eval binary (built from source)")
    ap.add_argument("--ranx", action="store_true", help="also time ranx (slow)")
    ap.add_argument("--floor", action="store_true", help="also time the parse-only floor (polars)")
    ap.add_argument("--arrow-floor", action="store_true", help="also time reading the files with Arrow's CSV reader")
    ap.add_argument("--tools", nargs="+", default=["irmetrics", "pytrec_eval", "ir_measures"],
                    choices=["irmetrics", "pytrec_eval", "ir_measures"],
                    help="the tools timed besides those the other options add (default: all three)")
    ap.add_argument("--json", type=Path, help="write all results to this JSON file")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    data = args.data.resolve()
    tools = (list(args.tools) + ["ranx"] * args.ranx
             + ["trec_eval"] * bool(args.trec_eval) + ["floor"] * args.floor + ["arrow_floor"] * args.arrow_floor)
    env = dict(os.environ, **({"TREC_EVAL": str(args.trec_eval.resolve())} if args.trec_eval else {}))
    out = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                       "python": platform.python_version()},
           "irmetrics_version": source_version(),
           "config": {"runs": args.runs, "data": str(data), "tools": tools, "measures": MEASURES},
           "scales": {}}
    print(f"irmetrics {out['irmetrics_version']}, {os.cpu_count()} CPUs, {args.runs} runs after a warm-up\n")
    compile_package(REPO)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            ensure_data(scale, data)
            res = bench_scale(scale, tools, args.runs, data, Path(tmp), env)
            out["scales"][scale] = res
            ok &= res.get("check_vs_pytrec_eval", {"ok": True})["ok"]
            print(table(scale, res) + "\n", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
