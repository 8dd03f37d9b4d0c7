"""Coverage-guided fuzzing of the measure parsers with atheris: ``parse_measure`` (irmetrics' and ranx's
names), ``parse_measures`` (lists) and ``parse_trec_measure`` (trec_eval's names) on arbitrary text.

irmetrics' own errors are the expected answer to bad input.  A finding is anything else: another
exception type, a crash, a hang, or a measure that does not round-trip (``parse_measure(repr(m)) == m``,
and a trec_eval name printed for a measure reads back as that measure: ``check_round_trips`` of the
tests).  See README.md beside this file.
"""
from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=['irmetrics']):
    import irmetrics as irm
    from irmetrics.dialects import parse_measures

from seeds import TESTS, corpus_directory, fill, measure_seeds

sys.path.insert(0, str(TESTS))
from measure_strategies import check_round_trips  # noqa: E402  (the tests' round-trip check)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    parser = data[0] % 3                                  # the first byte: which parser
    text = data[1:].decode('utf-8', 'surrogateescape')   # bytes that are not UTF-8 become lone surrogates
    try:
        if parser == 0:
            measures = [irm.parse_measure(text)]
        elif parser == 1:
            measures = parse_measures(text)
        else:
            measures = irm.parse_trec_measure(text)
    except irm.IrmetricsError:
        return
    for measure in measures:
        check_round_trips(measure)


def main() -> None:
    directory = corpus_directory(sys.argv)
    if directory:
        fill(directory, [bytes([parser]) + seed for seed in measure_seeds() for parser in (0, 2)])
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == '__main__':
    main()
