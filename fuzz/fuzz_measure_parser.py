"""Coverage-guided fuzzing of the measure parsers with atheris: ``parse_measure`` (irmetrics' and ranx's
names), ``parse_measures`` (lists) and ``parse_trec_measure`` (trec_eval's names) on arbitrary text.

irmetrics' own errors are the expected answer to bad input.  A finding is anything else: another
exception type, a crash, a hang, or a measure that does not round-trip (``parse_measure(repr(m)) == m``,
and a trec_eval name printed for a measure reads back as that measure).  See README.md beside this file.
"""
from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=['irmetrics']):
    import irmetrics as irm
    from irmetrics.core.parse import parse_measures
    from irmetrics.core.trec_names import INVOCATION_PARAMS, trec_output_name

from seeds import corpus_directory, fill, measure_seeds


def check_round_trip(measure: irm.Measure) -> None:
    again = irm.parse_measure(repr(measure))
    if again != measure or hash(again) != hash(measure):
        raise AssertionError(f'{measure!r} reads back as {again!r}')
    name = trec_output_name(measure)
    settings = any(p in measure.params for p in INVOCATION_PARAMS)      # trec_eval's names leave them out
    if name is not None and not settings and measure not in irm.parse_trec_measure(name):
        raise AssertionError(f'{measure!r} prints as trec_eval name {name!r}, which reads back as '
                             f'{irm.parse_trec_measure(name)!r}')


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
        check_round_trip(measure)


def main() -> None:
    directory = corpus_directory(sys.argv)
    if directory:
        fill(directory, [bytes([parser]) + seed for seed in measure_seeds() for parser in (0, 2)])
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == '__main__':
    main()
