"""Property tests of every input path with valid inputs: generated qrels and runs give the same
numbers whether they come as TREC text (bytes, str, a path, .gz, .bz2, .xz), a DataFrame, a dict of dicts
or records (named tuples, plain tuples), through both reader paths and id layouts, and as the plain
reference reader (``reference_reader.py``) reads their text.  The text is spelt any way trec_eval reads
alike (``input_strategies.py``).
"""
import pathlib
import tempfile
import warnings

import numpy as np
import pandas as pd
import reference_reader
from hypothesis import given
from hypothesis import strategies as st
from input_strategies import COMPRESSIONS, collections, qrels_fields, qrels_rows, rows, run_fields, run_rows
from reader_paths import PATHS, forced

import irmetrics as irm
from irmetrics.errors import IrmetricsWarning

MEASURES = ['AP', 'P@1', 'P@5', 'RR', 'nDCG', 'nDCG@10', 'NumRet', 'NumRel', 'NumRet(rel=1)', 'Bpref', 'Rprec']
KINDS = {'qrels': (irm.Qrel, ('query_id', 'doc_id', 'relevance'), qrels_rows, reference_reader.read_qrels),
         'run': (irm.ScoredDoc, ('query_id', 'doc_id', 'score'), run_rows, reference_reader.read_run)}


def evaluated(qrels, run) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)        # queries missing from the run, blank lines
        return {(m.query_id, repr(m.measure)): m.value for m in irm.calc(MEASURES, qrels, run).per_query}


def sources(kind: str, data: dict, text: bytes, directory: pathlib.Path) -> list[tuple[str, object]]:
    """(name, source) of every way to give the qrels or run ``data``, whose TREC text is ``text``."""
    record, columns, flat, reference = KINDS[kind]
    out: list[tuple[str, object]] = [('bytes', text), ('str', text.decode() + ('' if b'\n' in text else '\n'))]
    for suffix, compress in COMPRESSIONS.items():
        path = directory / (kind + suffix)
        path.write_bytes(compress(text))
        out.append((suffix or 'path', path))
    out.append(('str path', str(directory / kind)))
    out += [('DataFrame', pd.DataFrame(flat(data), columns=list(columns))), ('dict', data),
            ('named tuples', [record(*row) for row in flat(data)]), ('tuples', flat(data)),
            ('reference reader', reference(text))]
    return out


@given(collections(), st.data())
def test_every_input_path_gives_the_same_numbers(case, data):
    qrels, run = case
    qrels_text = data.draw(rows(data.draw(qrels_fields(qrels)))).text()
    run_text = data.draw(rows(data.draw(run_fields(run)))).text()
    expected = evaluated(qrels, run)
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        pairs = list(zip(sources('qrels', qrels, qrels_text, directory), sources('run', run, run_text, directory),
                         strict=True))
        for path in PATHS:
            with forced(path):
                for (name, qrels_source), (_, run_source) in pairs:
                    assert evaluated(qrels_source, run_source) == expected, (path, name)


@given(collections(), st.sampled_from(PATHS))
def test_numbers_and_ids_of_other_python_types_read_the_same(case, path):
    """Grades as integral floats, scores as numpy floats or their text, ids as UTF-8 bytes or numpy
    strings: what they say, as the Python types do."""
    qrels, run = case
    expected = evaluated(qrels, run)
    qrels_as = [(q.encode(), np.str_(d), float(g)) for q, d, g in qrels_rows(qrels)]
    run_as = [(np.str_(q), d.encode(), np.float64(s)) for q, d, s in run_rows(run)]
    run_as_text = [(q, d, repr(s)) for q, d, s in run_rows(run)]
    qrels_frame = pd.DataFrame(qrels_as, columns=['query_id', 'doc_id', 'relevance'])
    with forced(path):
        for qrels_source, run_source in ((qrels_as, run_as), (qrels_frame, run_as_text)):
            assert evaluated(qrels_source, run_source) == expected
