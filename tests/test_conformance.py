"""The shared conformance corpus (../shared/conformance), restricted to the trec_eval families.

Its checker compares per-query values and aggregates with reference outputs of pytrec_eval and
trec_eval on trec_eval's own test files and graded qrels.  It lives next to the repository
(CI checks it out at the same relative path).
"""
import pathlib
import re
import subprocess
import sys

import pytest

CHECKER = pathlib.Path(__file__).resolve().parents[2] / 'shared' / 'conformance' / 'check.py'
TREC_EVAL_FAMILIES = 'AP|Bpref|infAP|IPrec|nDCG|NumQ|NumRel|NumRet|P|R|Rprec|RR|SetAP|SetF|SetP|SetR|Success'


@pytest.mark.skipif(not CHECKER.is_file(), reason=f'{CHECKER} not found: ../shared is not next to the repository')
def test_trec_eval_families_conform():
    done = subprocess.run([sys.executable, str(CHECKER), '--module', 'irmetrics', '--family', TREC_EVAL_FAMILIES],
                          capture_output=True, text=True, timeout=600, cwd=CHECKER.parent)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ''
    summary = re.fullmatch(r'conformance: (\d+) passed, (\d+) failed, (\d+) unsupported of (\d+)', last)
    assert summary, f'unexpected checker output:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}'
    passed, failed, unsupported, total = map(int, summary.groups())
    assert (failed, unsupported) == (0, 0), done.stdout[-5000:]
    assert passed == total > 0
    assert done.returncode == 0
