"""Coverage-guided fuzzing of the TREC readers with atheris: ``read_trec_qrels`` and ``read_trec_run`` on
arbitrary bytes, through the small path (Python's string methods, numpy ids) and the large path (Arrow's
CSV reader, Arrow ids), and the two paths against each other.

irmetrics' own errors are the expected answer to bad input.  A finding is anything else: another
exception type, a crash, a hang, or the two paths disagreeing (one reads what the other refuses, or they
read other rows).  See README.md beside this file for how to run it.
"""
from __future__ import annotations

import sys
import warnings
from collections.abc import Callable

import atheris

with atheris.instrument_imports(include=['irmetrics']):
    import irmetrics as irm

import pyarrow as pa
from seeds import TESTS, corpus_directory, fill, trec_seeds

sys.path.insert(0, str(TESTS))
from reader_paths import forced  # noqa: E402  (the tests' helper that forces a reader path)


def outcome(read: Callable[..., object], data: bytes, duplicates: str) -> tuple[str, object]:
    """('rows', the records read) or, for irmetrics' own errors, ('error', (its type, whether it names a
    line)): in a file with several faults the paths may report different ones first."""
    try:
        return 'rows', [tuple(row) for row in read(data, duplicates=duplicates)]
    except irm.InputError as ex:
        return 'error', (type(ex).__name__, ex.line is not None)


CHOICES = [(irm.read_trec_qrels, policy) for policy in ('error', 'max')] + \
          [(irm.read_trec_run, policy) for policy in ('error', 'first', 'last', 'max')]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    read, duplicates = CHOICES[data[0] % len(CHOICES)]           # the first byte: which reader, which policy
    text = data[1:]
    with forced('python'):
        small = outcome(read, text, duplicates)
    with forced('arrow'):
        large = outcome(read, text, duplicates)
    if small != large:
        raise AssertionError(f'the reader paths disagree on {text!r}: small {small!r}, large {large!r}')


def main() -> None:
    warnings.simplefilter('ignore')                  # warnings (blank lines skipped, ...) are answers too
    pa.set_cpu_count(1)                              # one process, one core
    pa.set_io_thread_count(1)
    directory = corpus_directory(sys.argv)
    if directory:
        fill(directory, [bytes([kind]) + seed for seed in trec_seeds() for kind in (0, 2)])
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == '__main__':
    main()
