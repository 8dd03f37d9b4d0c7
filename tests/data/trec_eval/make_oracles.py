#!/usr/bin/env python3
"""Regenerate the stored trec_eval outputs the tests compare irmetrics with.

CI has no network and the project ships no third-party code, so the oracle is trec_eval's output,
produced here by a trec_eval binary built from its public source (github.com/usnistgov/trec_eval,
``make``; never committed) and stored as test data with the command line and version behind it:

    python tests/data/trec_eval/make_oracles.py --trec-eval /path/to/trec_eval

Suites (one JSON file each, in this directory):

* ``reader_cases.json``: the generated cases of ``tests/trec_text_cases.py`` (odd white space,
  Unicode inside ids, extra fields, comments, blank lines, sizes crossing the readers' thresholds),
  each with the SHA-256 of its inputs and trec_eval's ``-q -c`` output for a set of measures.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))            # tests/, for trec_text_cases

from trec_text_cases import make_case  # noqa: E402

READER_SEEDS = range(53)
READER_MEASURES = ['-m', 'map', '-m', 'P.1,5', '-m', 'recip_rank', '-m', 'ndcg', '-m', 'num_ret', '-m', 'num_rel',
                   '-m', 'num_rel_ret', '-m', 'bpref', '-m', 'Rprec']
READER_OPTIONS = ['-q', '-c', *READER_MEASURES]


def version(binary: str) -> str:
    out = subprocess.run([binary, '-v'], capture_output=True, text=True)
    return (out.stdout + out.stderr).strip()


def reader_cases(binary: str) -> dict:
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        qrels, run = Path(tmp) / 'qrels', Path(tmp) / 'run'
        for seed in READER_SEEDS:
            case = make_case(seed)
            qrels.write_bytes(case.qrels)
            run.write_bytes(case.run)
            done = subprocess.run([binary, *READER_OPTIONS, str(qrels), str(run)], capture_output=True)
            cases.append({'seed': seed, 'size': case.size, 'sha256': case.sha256, 'returncode': done.returncode,
                          'stdout': done.stdout.decode('utf-8', 'surrogateescape')})
    return {'trec_eval': version(binary), 'options': READER_OPTIONS, 'cases': cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--trec-eval', required=True, help='path of a trec_eval binary built from source')
    parser.add_argument('--source', default='', help='where the binary was built from, e.g. '
                        '"github.com/usnistgov/trec_eval @ <commit>"')
    args = parser.parse_args()
    out = HERE / 'reader_cases.json'
    suite = reader_cases(args.trec_eval)
    suite['trec_eval_source'] = args.source
    out.write_text(json.dumps(suite, indent=1, ensure_ascii=False) + '\n')
    print(f'wrote {out}')


if __name__ == '__main__':
    main()
