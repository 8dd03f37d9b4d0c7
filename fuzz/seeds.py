"""Seed inputs for the fuzzing harnesses, written into an empty corpus directory on the first run.

The TREC seeds are small cases of the reader tests' generator (``tests/trec_text_cases.py``: odd
white space, Unicode inside ids, comments, blank lines, hexadecimal scores) and the trec_eval test
files; the measure seeds are every measure name with its parameters, and trec_eval's names.
"""
from __future__ import annotations

import hashlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TESTS = ROOT / 'tests'


def trec_seeds() -> list[bytes]:
    sys.path.insert(0, str(TESTS))
    from trec_text_cases import make_case
    cases = [make_case(seed) for seed in range(12)]
    nist = TESTS / 'fixtures' / 'trec_eval' / 'nist'
    files = [path.read_bytes()[:4000] for path in sorted(nist.glob('*.test'))]
    return [c.qrels[:4000] for c in cases] + [c.run[:4000] for c in cases] + files


def measure_seeds() -> list[bytes]:
    from irmetrics.algebra.measure import REGISTRY
    from irmetrics.dialects.ranx import RANX_NAMES
    from irmetrics.dialects.trec_eval import NICKNAMES, TREC_NAMES
    texts = [repr(d.bare) for d in REGISTRY.definitions()] + list(REGISTRY.aliases())
    texts += ['P(rel=2,judged_only=True)@5', "nDCG(dcg='exp-log2',gains={0:0,1:1,2:3})@10", 'RBP(p=0.95)',
              'IPrec@0.3', 'alpha_nDCG(alpha=0.5)@20', 'SetF(beta=0.5)']
    texts += [t.trec for t in TREC_NAMES] + list(NICKNAMES) + ['P_5,10', 'P.5,10', 'ndcg_cut_10', 'iprec_at_recall.0.1']
    texts += list(RANX_NAMES) + ['ndcg@10', 'precision@5-l2', 'rbp.95', 'map-l3']
    return [t.encode() for t in texts]


def fill(directory: str, seeds: list[bytes]) -> None:
    """Write ``seeds`` into ``directory`` if it does not exist yet (libFuzzer adds its finds there)."""
    path = pathlib.Path(directory)
    if path.exists():
        return
    path.mkdir(parents=True)
    for seed in seeds:
        (path / hashlib.sha1(seed).hexdigest()).write_bytes(seed)


def corpus_directory(argv: list[str]) -> str | None:
    """The first corpus directory on a libFuzzer command line (an argument that is not a flag)."""
    return next((arg for arg in argv[1:] if not arg.startswith('-')), None)
