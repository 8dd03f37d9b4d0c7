"""The plumbing behind the :class:`~irmetrics.Evaluator` (``irmetrics.api.engines``): the evaluator's public
surface is what users call, and the engines it delegates to give the numbers ``calc`` gives, query by query."""
import inspect
import pickle

import numpy as np
from repo_paths import EXAMPLES

import irmetrics as irm
from irmetrics.api.engines import Engines
from irmetrics.api.reading import open_run

QRELS, RUN = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'run_bm25.txt')


def test_the_evaluator_shows_users_what_they_call_and_nothing_of_its_plumbing():
    public = {name for name, _ in inspect.getmembers(irm.Evaluator) if not name.startswith('_')}
    assert public == {'calc', 'calc_aggregate', 'iter_calc', 'calc_queries', 'combine', 'accumulator', 'query_ids'}


def test_missing_queries_score_their_missing_value_and_counts_are_computed():
    ev = irm.evaluator(['P@5', 'NumRel', 'NumQ'], QRELS)
    assert isinstance(ev.engines, Engines)
    missing = ev.engines.missing(np.array([0, 2, 3, 4, 5, 6, 7, 8, 9]))      # only the second query lacks
    assert missing.codes.tolist() == [1]
    whole = ev.calc(RUN)
    num_rel = whole.values[1, 1]
    assert missing.values.tolist() == [[0.0, num_rel, 1.0]]


def test_codes_of_finds_qrels_queries_and_marks_the_others():
    ev = irm.evaluator(['P@5'], QRELS)
    assert ev.engines.codes_of(['402', 'nope', '401']).tolist() == [1, -1, 0]


def test_values_of_a_subset_are_the_rows_of_the_whole_run():
    ev = irm.evaluator(['AP', 'nDCG@10', 'P@5'], QRELS)
    run = irm.read_trec_run(RUN)
    codes = np.array([1, 4, 7])
    subset = ev.engines.values_of(ev.measures[1:], codes, run)
    assert subset.tolist() == ev.calc(run).values[codes, 1:].tolist()


def test_a_pickled_evaluator_leaves_its_prepared_engines_behind_and_gives_the_same_numbers():
    ev = irm.evaluator(['AP', 'Coverage(catalogue=100)@5'], QRELS)
    want = ev.calc(RUN)
    copy = pickle.loads(pickle.dumps(ev))
    assert copy.engines._plan is None and ev.engines._plan is not None
    got = copy.calc(open_run(copy, RUN))
    assert got.values.tolist() == want.values.tolist() and got.run_values == want.run_values
