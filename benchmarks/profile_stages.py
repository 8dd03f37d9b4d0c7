#!/usr/bin/env python3
"""Where irmetrics' end-to-end time goes: nested stage timers, in one process.

Runs exactly what ``python -m irmetrics QRELS RUN <9 measures>`` runs
(``irmetrics.cli.run``), with timers wrapped around the reader and core
stages (file load and Arrow CSV parse, id encoding, duplicate detection and
its fingerprints, canonical ordering, the qrels index, the ranked-table join,
each native kernel).  The wrappers are installed from outside (monkeypatching
module attributes); nothing under irmetrics/ is changed.  The wrappers cost a
few microseconds per call and are called a few dozen times per evaluation.

The pipeline runs --warmup times untimed (the VM is slow on the first touch
of memory and of the page cache), then --reps times; each stage's median
inclusive wall time over the reps is printed as a tree, with "(self)" lines
for time not covered by a child timer, and the process CPU time (all threads:
Arrow's CSV reader is multi-threaded), less sensitive than wall time to other
processes competing for the cores.  Warm runs still pay the first touch of
every large array they allocate (big blocks go back to the OS when freed),
as the CLI does.

--memory first does one cold run that attributes each rise of the peak RSS to
the stage running when it happened (the peak is sampled when a stage ends, so
a rise goes to the innermost stage that ended after it).  --cprofile adds a
cProfile listing of one warm run.

    .venv/bin/python benchmarks/profile_stages.py                       # msmarco in benchdata/
    .venv/bin/python benchmarks/profile_stages.py --data /tmp/bench --scale robust --reps 7 --memory
"""
from __future__ import annotations

import argparse
import functools
import inspect
import io
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))      # profile the checkout this script lives in
sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402  (this folder's data generator)

MEASURES = ["AP", "nDCG", "nDCG@10", "P@10", "R@100", "RR", "Rprec", "Bpref", "Success@10"]

_stack: list[str] = []
_times: dict[tuple, float] = defaultdict(float)
_cpu: dict[tuple, float] = defaultdict(float)
_calls: dict[tuple, int] = defaultdict(int)


def _timed(fn, label):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _stack.append(label)
        path = tuple(_stack)
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _times[path] += time.perf_counter() - t0
            _cpu[path] += time.process_time() - c0
            if _peak:
                hwm = _vm_hwm()
                if hwm > _peak[0]:         # this stage (innermost running) raised the peak
                    _peak_raise[path] += hwm - _peak[0]
                    _peak[0] = hwm
            _calls[path] += 1
            _stack.pop()
    return wrapper


_skipped: list[str] = []
_peak: list[int] = []                           # [current high-water mark, KiB] in --memory mode
_peak_raise: dict[tuple, int] = defaultdict(int)


def _vm_hwm() -> int:
    """The process's peak resident set size so far (KiB), from /proc (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def memory_run(qrels: str, run: str) -> None:
    """One run attributing each rise of the peak RSS to the innermost stage running."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")                        # reset VmHWM to the current RSS
    except OSError:
        print("(cannot reset the peak RSS: attribution includes earlier runs)")
    import gc
    gc.collect()
    _peak[:] = [_vm_hwm()]
    _peak_raise.clear()
    start = _peak[0]
    one_run(qrels, run)
    print(f"\npeak RSS {_peak[0] / 1024:.0f} MB (from {start / 1024:.0f} MB before the run); rises of the "
          f"peak by stage (innermost stage running when the new peak was seen):")
    for path, kib in sorted(_peak_raise.items(), key=lambda kv: -kv[1]):
        if kib >= 1024:
            print(f"  {kib / 1024:7.0f} MB  {' > '.join(path)}")
    _peak.clear()


def wrap(owner, attr: str, label: str | None = None) -> None:
    """Replace ``owner.attr`` (function, method or classmethod) by a timed version.

    The code under test changes often: a stage that no longer exists is skipped
    (and listed at the end) rather than an error.
    """
    label = label or attr
    try:
        static = inspect.getattr_static(owner, attr)
    except AttributeError:
        _skipped.append(f"{getattr(owner, '__name__', owner)}.{attr}")
        return
    if isinstance(static, classmethod):
        setattr(owner, attr, classmethod(_timed(static.__func__, label)))
        return
    timed = _timed(static, label)
    setattr(owner, attr, timed)
    for module in list(sys.modules.values()):     # also names bound by 'from x import f'
        if getattr(module, "__name__", "").startswith("irmetrics") and getattr(module, attr, None) is static:
            setattr(module, attr, timed)


def install(large: bool) -> None:
    import importlib

    def mod(name):
        try:
            return importlib.import_module(name)
        except ImportError:
            _skipped.append(name)
            return None

    cli, api, qrels_mod, run_mod, dups, reader, ranking, numpy_ids = (mod(f"irmetrics.{m}") for m in (
        "cli", "api.evaluator", "data.qrels", "data.run", "data.duplicates", "data.trec.reader", "data.ranking",
        "data.ids.numpy_ids"))
    native, kernels, table = (mod(f"irmetrics.providers.{m}") for m in ("native", "native.kernels",
                                                                       "native.table"))
    wrap(cli, "run", "cli.run")
    wrap(cli, "resolve_measures")
    wrap(reader, "read_trec_qrels")
    wrap(reader, "read_trec_run")
    wrap(reader, "load", "load (read / mmap)")
    wrap(reader, "parse")
    wrap(reader.small, "split", "small split (str.split)")
    wrap(reader, "canonical", "canonical form")
    wrap(reader, "is_single_spaced", "single-spacing check")
    wrap(qrels_mod.Qrels, "from_columns", "Qrels.from_columns")
    wrap(run_mod.Run, "from_columns", "Run.from_columns")
    wrap(dups.Duplicates, "find", "Duplicates.find")
    wrap(run_mod, "canonical_order")
    wrap(ranking, "_order_ties_by_doc_desc", "order ties by doc desc")
    wrap(dups, "mix", "ids.mix")
    layouts = [numpy_ids.NumpyIds]
    if large:       # Arrow layout: imported lazily by irmetrics, only when inputs are large
        trec_arrow, arrow_ids = mod("irmetrics.data.trec.arrow"), mod("irmetrics.data.ids.arrow_ids")
        wrap(trec_arrow, "split", "arrow split")
        wrap(trec_arrow, "_read", "arrow csv read")
        wrap(trec_arrow, "_integers", "integer column")
        wrap(trec_arrow, "_numbers", "numbers as text")
        layouts.append(arrow_ids.ArrowIds)
    for layout in layouts:
        for name in ("encode", "_lookup", "take", "fingerprint", "order_within_groups", "_less", "to_list"):
            wrap(layout, name, f"ids.{name.strip('_')} ({layout.layout})")
    wrap(api.Evaluator, "__init__", "Evaluator()")
    wrap(api.Evaluator, "calc", "Evaluator.calc")
    wrap(native.NativePrepared, "evaluate", "native evaluate")
    wrap(table.QrelsIndex, "__init__", "QrelsIndex()")
    wrap(table.RankedTable, "__init__", "RankedTable()")
    wrap(table.RankedTable, "_positions", "_positions (inverse perm)")
    for name in list(kernels.KERNELS):
        kernels.KERNELS[name] = _timed(kernels.KERNELS[name], f"kernel {getattr(name, 'name', name)}")


def one_run(qrels: str, run: str) -> float:
    import irmetrics.cli as cli
    args = cli.build_parser().parse_args([qrels, run, *MEASURES, "-p", "12"])
    _times.clear()
    _cpu.clear()
    _calls.clear()
    cli.run(args, out=io.StringIO())
    return _times[("cli.run",)]


def print_tree(samples: list[dict], cpu_samples: list[dict], calls: dict) -> None:
    paths = sorted({p for s in samples for p in s})
    med = {p: statistics.median(s.get(p, 0.0) for s in samples) for p in paths}
    cpu = {p: statistics.median(s.get(p, 0.0) for s in cpu_samples) for p in paths}
    print(f"{'stage':<44} {'wall':>12} {'share':>6} {'cpu (all threads)':>18}")
    top = med[("cli.run",)]

    def children(p):
        return [c for c in paths if len(c) == len(p) + 1 and c[:len(p)] == p]

    def show(p, depth):
        kids = sorted(children(p), key=lambda c: -med[c])
        n = calls.get(p, 1)
        print(f"{'  ' * depth}{p[-1]:<{44 - 2 * depth}} {1000 * med[p]:9.1f} ms {100 * med[p] / top:5.1f}%"
              f" {1000 * cpu[p]:12.1f} ms" + (f"  ({n} calls)" if n > 1 else ""))
        if kids:
            rest = med[p] - sum(med[c] for c in kids)
            cpu_rest = cpu[p] - sum(cpu[c] for c in kids)
            for c in kids:
                show(c, depth + 1)
            if rest > 0.0005:
                print(f"{'  ' * (depth + 1)}{'(self)':<{42 - 2 * depth}} {1000 * rest:9.1f} ms "
                      f"{100 * rest / top:5.1f}% {1000 * cpu_rest:12.1f} ms")

    show(("cli.run",), 0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / "benchdata")
    ap.add_argument("--scale", default="msmarco")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--memory", action="store_true",
                    help="first attribute the peak RSS to stages (one extra, cold run; Linux /proc)")
    ap.add_argument("--cprofile", action="store_true", help="also print cProfile of one warm run")
    args = ap.parse_args(argv)
    qrels_path, run_path = synthetic.ensure(args.scale, args.data)
    qrels, run = str(qrels_path), str(run_path)

    t0 = time.perf_counter()
    import irmetrics  # noqa: F401
    import irmetrics.cli  # noqa: F401
    t_import = time.perf_counter() - t0
    heavy = [m for m in ("numpy", "pyarrow", "pyarrow.csv", "pandas", "polars") if m in sys.modules]
    print(f"import irmetrics: {t_import:.3f} s (loaded: {', '.join(heavy)}) from {irmetrics.__file__}")

    install(large=run_path.stat().st_size > 10_000_000)
    if args.memory:            # first, in a fresh process: later runs start from a larger RSS
        memory_run(qrels, run)
        print()
    for _ in range(args.warmup):
        one_run(qrels, run)
    samples, cpu_samples, totals = [], [], []
    for _ in range(args.reps):
        totals.append(one_run(qrels, run))
        samples.append(dict(_times))
        cpu_samples.append(dict(_cpu))
    calls = dict(_calls)
    print(f"{args.scale}: cli.run median {statistics.median(totals):.3f} s "
          f"(runs: {', '.join(f'{t:.3f}' for t in totals)}), medians of {args.reps} warm runs:\n")
    print_tree(samples, cpu_samples, calls)

    if _skipped:
        print(f"\n(stages not found in this version, not timed: {', '.join(_skipped)})")
    if args.cprofile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        one_run(qrels, run)
        prof.disable()
        print()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
