#!/usr/bin/env bash
# The many-core figures of benchmarks/README.md ("Where irmetrics stands"): run from the repository root on a machine with 16 cores
# (or any count) that has numpy, pandas, pyarrow, pytrec_eval and ir_measures (irmetrics runs from the folder):
#   bash benchmarks/cores_figures.sh TREC_EVAL_BINARY
# On all cores: small and robust against every tool and the trec_eval binary; msmarco and large against pytrec_eval and
# Arrow's read of the files; then msmarco on two of the same cores (taskset), for the gain from the cores; then the
# C tool's start (bench_trec_eval_files.py). Each part's output goes to $OUT (default /tmp) and to the terminal.
# SCALES_SMALL / SCALES_LARGE choose other scales (e.g. to try the script on a small machine).
set -u
te=$1
export PYTHONPATH=.${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
out=${OUT:-/tmp}
data=${DATA:-/tmp/irmetrics-bench}
small=${SCALES_SMALL:-small robust}
large=${SCALES_LARGE:-msmarco large}
echo "cores: $(nproc)"; python3 -c 'import numpy, pyarrow; print("numpy", numpy.__version__, "pyarrow", pyarrow.__version__)'
for s in $small $large; do python3 benchmarks/synthetic.py "$s" "$data" & done; wait
timeout 110 python3 benchmarks/run_bench.py --data "$data" --scales $small --arrow-floor --trec-eval "$te" -n 3 \
  --json "$out/all_cores_small.json" 2>&1 | tee "$out/all_cores_small.md"
timeout 160 python3 benchmarks/run_bench.py --data "$data" --scales $large --tools irmetrics pytrec_eval --arrow-floor \
  -n 2 --json "$out/all_cores_large.json" 2>&1 | tee "$out/all_cores_large.md"
timeout 80 taskset -c 0,1 python3 benchmarks/run_bench.py --data "$data" --scales ${large%% *} --tools irmetrics \
  pytrec_eval -n 2 --json "$out/two_cores.json" 2>&1 | tee "$out/two_cores.md"
timeout 60 python3 benchmarks/bench_trec_eval_files.py "$te" --scales $small -n 5 --data "$data" 2>&1 \
  | tee "$out/trec_eval_files.md"
