#!/usr/bin/env bash
# On a machine with a CUDA GPU, in one command from the repository root: the tests marked `cuda` (the torch path on
# the GPU against the TREC files' numbers: tests/api/test_cuda.py; CI has no GPU and skips them), then the GPU
# figures of benchmarks/README.md (benchmarks/gpu_figures.sh). Needs torch with CUDA, numpy, scipy, pandas, pyarrow
# and pytest. Fails (exit 1) when no CUDA device is visible, rather than reporting skipped tests as a pass.
set -eu
export PYTHONPATH=. PYTHONUNBUFFERED=1
python3 -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else "no CUDA device visible to torch")'
python3 -m pytest -p no:cacheprovider -o addopts= -m cuda -rs tests
exec "$(dirname "$0")/gpu_figures.sh"
