"""RAG measures: hand-computed cases, the nuggetizer's definitions reproduced on generated files, the support
measures against a per-answer reference, bad input, the comparison, the command line."""
import gzip
import json
import random
import statistics

import numpy as np
import pytest
from cli_support import assert_user_error, irmetrics
from repo_paths import ROOT

from irmetrics import InputError, MeasureError, rag

EXAMPLE = ROOT / 'examples' / 'rag'
NUGGETS, ASSIGNMENTS, ANSWERS = (str(EXAMPLE / f) for f in ('nuggets.jsonl', 'assignments.jsonl', 'answers.jsonl'))
EVERY = 'all vital strict_all strict_vital support_precision support_recall'


def test_the_shipped_example_by_hand():
    results = rag.calc(EVERY, NUGGETS, ASSIGNMENTS, ANSWERS)
    # bm25_llm t1: support, partial, not (vital, vital, okay); t2: partial (vital), support, not;
    # t3: support, not (vital, vital), support, partial.  answers: t1 F | P N | -, t2 P | F, t3 F F | -
    expected = {'bm25_llm': [[1.5 / 3, 1.5 / 2, 1 / 3, 1 / 2, 1.5 / 3, 1.5 / 3],
                             [1.5 / 3, 0.5, 1 / 3, 0.0, 0.75, 0.75],
                             [2.5 / 4, 1 / 2, 2 / 4, 1 / 2, 1.0, 0.5]],
                'dense_llm': [[2.5 / 3, 1.0, 2 / 3, 1.0, 1.0, 1.0],
                              [2 / 3, 1.0, 2 / 3, 1.0, 1 / 3 * 2, 1.0],
                              [2.5 / 4, 1.5 / 2, 2 / 4, 1 / 2, 2.5 / 3, 2.5 / 3]]}
    for run, rows in expected.items():
        assert results[run].query_ids == ['t1', 't2', 't3']
        np.testing.assert_allclose(results[run].values, rows, rtol=0, atol=1e-15)
        assert results[run].aggregated['vital'] == pytest.approx(np.mean(np.array(rows)[:, 1]), abs=1e-15)


def test_a_topic_without_vital_nuggets_scores_0_on_the_vital_scores():
    nuggets = [{'qid': 'q', 'nuggets': [{'text': 'a', 'importance': 'okay'}, {'text': 'b', 'importance': 'okay'}]}]
    assigned = [{'qid': 'q', 'run_id': 'r', 'nuggets': [{'text': 'a', 'importance': 'okay', 'assignment': 'support'},
                {'text': 'b', 'importance': 'okay', 'assignment': 'partial_support'}]}]
    values = rag.calc(['all', 'strict_all', 'vital', 'strict_vital'], nuggets, assigned)['r'].values
    assert values.tolist() == [[0.75, 0.5, 0.0, 0.0]]


def _nuggetizer_scores(record):
    """The nuggetizer's published definitions (calculate_nugget_scores), written out plainly."""
    vital = [n for n in record['nuggets'] if n['importance'] == 'vital']
    def score(ns, partial):
        full = sum(1 for n in ns if n['assignment'] == 'support')
        got = full + (sum(0.5 for n in ns if n['assignment'] == 'partial_support') if partial else 0)
        return got / len(ns) if ns else 0.0
    return {'all': score(record['nuggets'], True), 'vital': score(vital, True),
            'strict_all': score(record['nuggets'], False), 'strict_vital': score(vital, False)}


def _generated(tmp_path, topics=300, runs=4, seed=7):
    rng = random.Random(seed)
    nuggets, assigned, answers = [], [], []
    for t in range(topics):
        ns = [{'text': f'fact {t}.{i}', 'importance': rng.choice(['vital', 'okay', 'okay'])}
              for i in range(rng.randint(1, 12))]
        nuggets.append({'qid': f'T{t}', 'query': 'q', 'nuggets': ns})
        for r in range(runs):
            assigned.append({'qid': f'T{t}', 'run_id': f'run{r}', 'answer_text': '', 'nuggets': [
                {**n, 'assignment': rng.choice(['support', 'partial_support', 'not_support'])} for n in ns]})
            sentences = []
            for _ in range(rng.randint(0, 5)):
                k = rng.randint(0, 3)
                sentences.append({'text': 's', 'citations': list(range(k)),
                                  'support': [rng.choice(['full_support', 'partial_support', 'no_support'])
                                              for _ in range(k)]})
            answers.append({'run_id': f'run{r}', 'topic_id': f'T{t}', 'topic': 'q', 'response_length': 1,
                            'answer': sentences})
    paths = []
    for name, rows in (('nuggets.jsonl.gz', nuggets), ('assignments.jsonl', assigned), ('answers.jsonl', answers)):
        text = ''.join(json.dumps(r) + '\n' for r in rows)
        path = tmp_path / name
        path.write_bytes(gzip.compress(text.encode()) if name.endswith('.gz') else text.encode())
        paths.append(str(path))
    return paths, assigned, answers


def test_the_nuggetizer_definitions_reproduced_on_generated_files(tmp_path):
    (nuggets, assignments, _), assigned, _ = _generated(tmp_path)
    results = rag.calc('all vital strict_all strict_vital', nuggets, assignments)
    compared = 0
    for run, result in results.items():
        records = [r for r in assigned if r['run_id'] == run]
        reference = [_nuggetizer_scores(r) for r in records]
        for j, m in enumerate(['all', 'vital', 'strict_all', 'strict_vital']):
            assert result.values[:, j].tolist() == [s[m] for s in reference]          # the same doubles
            assert result.aggregated[m] == pytest.approx(statistics.mean(s[m] for s in reference), abs=1e-12)
            compared += len(reference) + 1
    assert compared == 4 * 4 * 301


def _support_reference(answer):
    weight = {'full_support': 1.0, 'partial_support': 0.5, 'no_support': 0.0}
    pairs = [weight[s] for sentence in answer['answer'] for s in sentence['support']]
    best = [max((weight[s] for s in sentence['support']), default=0.0) for sentence in answer['answer']]
    return (sum(pairs) / len(pairs) if pairs else 0.0), (sum(best) / len(best) if best else 0.0)


def test_the_support_measures_against_a_reference_per_answer(tmp_path):
    (nuggets, _, answers), _, given = _generated(tmp_path)
    results = rag.calc('support_precision support_recall', nuggets, answers=answers)
    for run, result in results.items():
        reference = np.array([_support_reference(a) for a in given if a['run_id'] == run])
        np.testing.assert_allclose(result.values, reference, rtol=0, atol=1e-12)


def test_dicts_dataframes_and_files_give_the_same_values(tmp_path):
    import pandas as pd
    (nuggets, assignments, _), assigned, _ = _generated(tmp_path, topics=20, runs=2)
    from_files = rag.evaluate('all vital', nuggets, assignments).values
    with gzip.open(nuggets, 'rt') as f:
        from_dicts = rag.evaluate('all vital', [json.loads(line) for line in f], assigned).values
    from_frame = rag.evaluate('all vital', nuggets, pd.DataFrame(assigned)).values
    assert from_files.tolist() == from_dicts.tolist() == from_frame.tolist()


def test_compare_pairs_the_runs_over_the_topics():
    comparison = rag.compare('all vital', NUGGETS, ASSIGNMENTS, baseline='bm25_llm')
    assert comparison.runs == ('bm25_llm', 'dense_llm') and comparison.query_ids == ('t1', 't2', 't3')
    assert comparison.delta[0].tolist() == pytest.approx([0.7083333333333334 - 0.5416666666666666,
                                                          0.9166666666666666 - 0.5833333333333334], abs=1e-15)
    assert (comparison.wins[0, 1], comparison.ties[0, 1], comparison.losses[0, 1]) == (3, 0, 0)


def _lines(tmp_path, name, rows):
    path = tmp_path / name
    path.write_text(''.join((r if isinstance(r, str) else json.dumps(r)) + '\n' for r in rows))
    return str(path)


GOOD = [{'qid': 'q1', 'nuggets': [{'text': 'a', 'importance': 'vital'}, {'text': 'b', 'importance': 'okay'}]},
        {'qid': 'q2', 'nuggets': [{'text': 'c', 'importance': 'vital'}]}]


def _assignment(qid='q1', run='r', labels=(('a', 'vital', 'support'), ('b', 'okay', 'not_support'))):
    return {'qid': qid, 'run_id': run, 'nuggets': [{'text': t, 'importance': i, 'assignment': a}
                                                   for t, i, a in labels]}


@pytest.mark.parametrize('nuggets, assigned, line, problem', [
    (['{"qid": "q1", "nuggets": [', GOOD[1]], [], 1, 'malformed JSON'),
    ([GOOD[0], {'qid': 'q2', 'nuggets': [{'text': 'c', 'importance': 'crucial'}]}], [], 2,
     "unknown importance 'crucial'"),
    ([GOOD[0], {'qid': 'q2', 'nuggets': []}], [], 2, "topic 'q2' has no nuggets"),
    ([GOOD[0], GOOD[0]], [], 2, "topic 'q1' has two nugget records"),
    ([{'qid': 'q1', 'nuggets': [{'text': 'a', 'importance': 'vital'}] * 2}], [], 1, "the nugget 'q1\\x1fa' is given"),
    (GOOD, [_assignment(labels=(('a', 'vital', 'supported'), ('b', 'okay', 'support')))], 1,
     "unknown assignment 'supported'"),
    (GOOD, [_assignment(), _assignment(run='s', labels=(('a', 'vital', 'support'), ('z', 'okay', 'support')))], 2,
     "the nugget 'z' is not one of topic 'q1'"),
    (GOOD, [_assignment(qid='q9')], 1, "topic 'q9' (qid) has no nuggets"),
    (GOOD, [_assignment(), _assignment()], 2, "a second assignment record of run 'r' for topic 'q1'"),
    (GOOD, [_assignment(labels=(('a', 'vital', 'support'),))], 1, 'assigns 1 of the 2 nuggets'),
    (GOOD, [_assignment(labels=(('a', 'vital', 'support'), ('a', 'vital', 'support')))], 1, "'a' is assigned twice"),
    (GOOD, [_assignment(labels=(('a', 'okay', 'support'), ('b', 'okay', 'support')))], 1,
     "'okay' here but 'vital' in the nuggets"),
    (GOOD, [{'qid': 'q1', 'nuggets': []}], 1, "has no 'run_id'"),
])
def test_each_bad_record_is_one_error_naming_file_and_line(tmp_path, nuggets, assigned, line, problem):
    n, a = _lines(tmp_path, 'n.jsonl', nuggets), _lines(tmp_path, 'a.jsonl', assigned or [_assignment()])
    with pytest.raises(InputError) as ex:
        rag.calc('all', n, a)
    where = n if not assigned else a
    assert str(ex.value).startswith(f'{where}:{line}: ') and problem in str(ex.value)


def test_bad_answers_and_measures(tmp_path):
    n = _lines(tmp_path, 'n.jsonl', GOOD)
    bad = {'run_id': 'r', 'topic_id': 'q1', 'answer': [{'text': 's', 'citations': [0, 1], 'support': ['full_support']}]}
    with pytest.raises(InputError, match=r'answers.jsonl:1: sentence 1 of the answer has 2 citations but 1 support'):
        rag.calc('support_precision', n, answers=_lines(tmp_path, 'answers.jsonl', [bad]))
    with pytest.raises(InputError, match='support_recall needs the answers'):
        rag.calc('support_recall', n, _lines(tmp_path, 'a.jsonl', [_assignment()]))
    with pytest.raises(MeasureError, match="unknown measure 'nDCG'"):
        rag.calc('nDCG', n, _lines(tmp_path, 'a.jsonl', [_assignment()]))


def test_a_run_without_a_topic_scores_0_there_with_a_warning(tmp_path):
    n, a = _lines(tmp_path, 'n.jsonl', GOOD), _lines(tmp_path, 'a.jsonl', [_assignment()])
    with pytest.warns(UserWarning, match=r"run 'r' has no assignments for 1 of the 2 topics \('q2'\)"):
        values = rag.calc('all', n, a)['r'].values
    assert values.tolist() == [[0.5], [0.0]]


def test_the_command_line():
    done = irmetrics('rag', NUGGETS, ASSIGNMENTS, ANSWERS, '-m', 'vital support_recall', '-f', 'tsv')
    assert done.returncode == 0 and done.stdout.splitlines() == [
        'bm25_llm\tvital\t0.5833', 'bm25_llm\tsupport_recall\t0.5833',
        'dense_llm\tvital\t0.9167', 'dense_llm\tsupport_recall\t0.9444']
    compared = irmetrics('rag', NUGGETS, ASSIGNMENTS, '-m', 'all', '--compare', '-f', 'csv')
    assert compared.returncode == 0 and 'dense_llm,all,0.708333' in compared.stdout
    bad = irmetrics('rag', NUGGETS, ASSIGNMENTS, '-m', 'support_precision')
    assert bad.returncode == 2 and 'support_precision needs the answers' in bad.stderr


def test_a_rag_measure_given_to_the_evaluation_of_rankings_says_where_it_is_computed():
    qrels, run = str(ROOT / 'examples' / 'qrels.txt'), str(ROOT / 'examples' / 'run_bm25.txt')
    assert_user_error(irmetrics(qrels, run, '-m', 'AP vital'), "'vital' is a measure of RAG answers",
                      'irmetrics rag NUGGETS ASSIGNMENTS [ANSWERS] -m vital')
    assert_user_error(irmetrics(qrels, run, '-m', 'Foo'), "unknown measure 'Foo'")
