#!/usr/bin/env bash
# The GPU figures of benchmarks/README.md ("bench_recommender.py full and stream"): run from the repository root on a
# machine with one CUDA GPU and 16 cores that has torch, numpy, scipy, pandas and pyarrow (irmetrics runs from the
# folder). Writes each part's output to $OUT (default /tmp) as well as to the terminal.
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
echo "cores: $(nproc)"; python3 -c 'import torch, numpy; print("torch", torch.__version__, "numpy", numpy.__version__)'
timeout 240 python3 benchmarks/bench_recommender.py full --users 20000 --items 20000 --device cuda -n 3 2>&1 | tee "$out/full.txt"
timeout 200 python3 benchmarks/bench_recommender.py stream --users 200000 --items 50000 --batch 10000 --device cuda 2>&1 \
  | tee "$out/stream.txt"
