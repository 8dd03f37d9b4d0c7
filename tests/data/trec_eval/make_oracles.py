#!/usr/bin/env python3
"""Regenerate the stored trec_eval outputs the tests compare irmetrics with.

CI has no network and the project ships no third-party code, so the oracle is trec_eval's output,
produced here by a trec_eval binary built from its public source (github.com/usnistgov/trec_eval,
``make``; never committed) and stored as test data with the command line and version behind it:

    python tests/data/trec_eval/make_oracles.py --trec-eval /path/to/trec_eval \\
        --source "github.com/usnistgov/trec_eval @ <commit> (tag, version)"

Suites (in this directory):

* ``reader_cases.json``: the generated cases of ``tests/trec_text_cases.py`` (odd white space,
  Unicode inside ids, extra fields, comments, blank lines, sizes crossing the readers' thresholds),
  each with the SHA-256 of its inputs and trec_eval's ``-q -c`` output for a set of measures.
* ``command_cases.json.gz``: trec_eval's output (stdout and exit status) for command lines over the
  NIST test files of ``nist/`` (:data:`NIST_COMMANDS`) and over the generated cases of
  ``tests/trec_eval_cases.py`` (each with the SHA-256 of its inputs), which ``irmetrics trec_eval``
  must reproduce byte for byte.  Gzipped JSON: the outputs are large and repetitive.
"""
from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))            # tests/, for the case generators

from trec_eval_cases import make_case as make_command_case  # noqa: E402
from trec_text_cases import make_case  # noqa: E402

READER_SEEDS = range(53)
READER_MEASURES = ['-m', 'map', '-m', 'P.1,5', '-m', 'recip_rank', '-m', 'ndcg', '-m', 'num_ret', '-m', 'num_rel',
                   '-m', 'num_rel_ret', '-m', 'bpref', '-m', 'Rprec']
READER_OPTIONS = ['-q', '-c', *READER_MEASURES]
COMMAND_SEEDS = range(40)

#: Every parameter form trec_eval reads, in one command line.
PARAMETERS = ['-m', 'P.5,7', '-m', 'ndcg.1=0,2=3', '-m', 'utility.2,-1,0,0.001', '-N', '100000',
              '-m', 'iprec_at_recall.0.25', '-m', 'Rprec_mult.0.5,1.5', '-m', '11pt_avg.0.2,0.5,0.8',
              '-m', 'relative_P.3,7', '-m', 'success.2', '-m', 'rbp.p=0.8', '-m', 'rbp_resid.p=0.8',
              '-m', 'unj.3,50', '-m', 'relstring.20', '-m', 'set_F.0.5', '-m', 'G.1=2,2=5', '-m', 'Rndcg.1=1,2=4',
              '-m', 'ndcg_rel.2=3', '-m', 'yaap', '-m', 'map_cut.1,10', '-m', 'ndcg_cut.2,8', '-m', 'recall.3']
TEST, REL_LEVEL, TRUNC = ('qrels.test', 'results.test'), ('qrels.rel_level', 'results.test'), \
    ('qrels.test', 'results.trunc.6col')
T302 = ('qrels-302.test', 'results-302.test')
#: (qrels, run, arguments) over the NIST files; a run of '-' is read from standard input.
NIST_COMMANDS = [
    (*TEST, ['-q', '-m', 'all_trec']), (*TEST, ['-q', '-c', '-m', 'all_trec']), (*TEST, ['-m', 'all_trec']),
    (*TEST, []), (*TEST, ['-q']), (*TEST, ['-q', '-J', '-m', 'all_trec']),
    (*TEST, ['-q', '-M', '100', '-m', 'all_trec']), (*TEST, ['-q', '-M10000', '-m', 'all_trec']),
    (*TEST, ['-q', '-l5', '-m', 'all_trec']), (*TEST, ['-n', '-m', 'all_trec']), (*TEST, ['-qn', '-m', 'all_trec']),
    (*TEST, ['-q', *PARAMETERS]), (*TEST, ['-q', '-m', 'set']), (*TEST, ['-m', 'P.5', '-m', 'P.10', '-m', 'official']),
    (*TEST, ['--query_eval_wanted', '--measure=official', '--measure', 'set', '--level_for_rel=2']),
    (*TEST, ['--query', '--meas', 'relstring', '-m', 'runid', '--Judged_docs_only']),
    (*TEST, ['-q', '-m', 'dcg', '-m', 'ideal_dcg', '-m', 'yaap', '-m', 'binG', '-m', 'G']),
    (TEST[0], '-', ['-q', '-m', 'official']),
    (*REL_LEVEL, ['-q', '-m', 'all_trec']), (*REL_LEVEL, ['-q', '-l2', '-m', 'all_trec']),
    (*REL_LEVEL, ['-q', '-c', '-l', '2', '-m', 'all_trec']), (*REL_LEVEL, ['-q', '-l3', '-J', '-m', 'all_trec']),
    (*REL_LEVEL, ['-q', '-l5', '-m', 'all_trec']), (*REL_LEVEL, ['-q', *PARAMETERS]),
    (*REL_LEVEL, ['-q', '-J', '-M', '20', *PARAMETERS]),
    (*T302, ['-q', '-m', 'all_trec']), (*T302, ['-q', '-J', '-m', 'all_trec']),
    (*TRUNC, ['-q', '-c', '-m', 'all_trec']), (*TRUNC, ['-q', '-m', 'all_trec']),
    (*TRUNC, ['-qcJ', '-m', 'all_trec']), (*TRUNC, ['-q', '-c', '-M', '0', '-m', 'all_trec']),
    (*TRUNC, ['-c', '-q', *PARAMETERS]), (*TRUNC, ['-c', '-q', '-l2', '-m', 'official', '-m', 'num_rel']),
]


def version(binary: str) -> str:
    out = subprocess.run([binary, '-v'], capture_output=True, text=True)
    return (out.stdout + out.stderr).strip()


def _run(binary: str, args: list[str], qrels: Path, run: Path, stdin: bytes | None = None) -> dict:
    done = subprocess.run([binary, *args, str(qrels), '-' if stdin is not None else str(run)],
                          input=stdin, capture_output=True)
    return {'args': args, 'returncode': done.returncode, 'stdout': done.stdout.decode('utf-8', 'surrogateescape')}


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


def command_cases(binary: str) -> dict:
    nist = HERE / 'nist'
    out: dict = {'trec_eval': version(binary), 'nist': [], 'generated': []}
    for qrels, run, args in NIST_COMMANDS:
        stdin = (nist / TEST[1]).read_bytes() if run == '-' else None
        out['nist'].append({'qrels': qrels, 'run': run, **_run(binary, args, nist / qrels, nist / run, stdin)})
    with tempfile.TemporaryDirectory() as tmp:
        qrels_path, run_path = Path(tmp) / 'qrels', Path(tmp) / 'run'
        for seed in COMMAND_SEEDS:
            case = make_command_case(seed)
            qrels_path.write_bytes(case.qrels)
            run_path.write_bytes(case.run)
            for args in case.commands:
                out['generated'].append({'seed': seed, 'sha256': case.sha256,
                                         **_run(binary, list(args), qrels_path, run_path)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--trec-eval', required=True, help='path of a trec_eval binary built from source')
    parser.add_argument('--source', default='', help='where the binary was built from, e.g. '
                        '"github.com/usnistgov/trec_eval @ <commit>"')
    args = parser.parse_args()
    suite = reader_cases(args.trec_eval)
    suite['trec_eval_source'] = args.source
    (HERE / 'reader_cases.json').write_text(json.dumps(suite, indent=1, ensure_ascii=False) + '\n')
    suite = command_cases(args.trec_eval)
    suite['trec_eval_source'] = args.source
    text = json.dumps(suite, indent=1, ensure_ascii=False) + '\n'
    (HERE / 'command_cases.json.gz').write_bytes(gzip.compress(text.encode('utf-8'), mtime=0))
    print(f'wrote {HERE / "reader_cases.json"} and {HERE / "command_cases.json.gz"}')


if __name__ == '__main__':
    main()
