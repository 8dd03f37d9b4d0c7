"""Input edge cases (docs/conventions.md, "Reading TREC files"), each read as trec_eval reads it."""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics import P

QRELS = 'q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n'
RUN = 'q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.9 r\nq1 Q0 c 3 0.1 r\n'
EXPECTED = {'AP': (1 / 2 + 2 / 3) / 2, 'P@1': 0.0, 'RR': 0.5}


def evaluate(qrels, run) -> dict:
    return {str(m): v for m, v in irm.calc_aggregate(list(EXPECTED), qrels, run).items()}


@pytest.mark.parametrize('qrels, run', [
    (QRELS.replace('\n', '\r\n'), RUN.replace('\n', '\r\n')),                       # CRLF line endings
    (QRELS.rstrip('\n'), RUN.rstrip('\n')),                                         # no final newline
    (QRELS.replace(' ', '\t'), RUN.replace(' ', ' \t  ')),                          # tabs, runs of spaces
    ('\ufeff' + QRELS, '\ufeff' + RUN),                                             # UTF-8 byte-order marks
    (QRELS, RUN.replace(' 1 0.5', ' 9 5e-1').replace(' 2 0.9', ' 1 +0.9')              # strtod's notations
     .replace(' 3 0.1', ' 0 0x1.999999999999ap-4')),
])
def test_edge_cases_read_like_the_plain_file(layout, qrels, run):
    got = evaluate(qrels, run)
    assert got == pytest.approx(EXPECTED, abs=1e-12)


def test_ranks_that_contradict_the_scores_are_ignored(layout):
    # the rank column says c, a, b; the scores say b, a, c: trec_eval (and irmetrics) rank by score
    contradicting = RUN.replace(' a 1 ', ' a 2 ').replace(' b 2 ', ' b 3 ').replace(' c 3 ', ' c 1 ')
    assert evaluate(QRELS, contradicting) == evaluate(QRELS, RUN)


def test_one_query_with_100000_documents(tmp_path):
    n = 100_000
    run = tmp_path / 'run'
    run.write_text(''.join(f'q1 Q0 d{i} {i + 1} {n - i} r\n' for i in range(n)))
    qrels = {'q1': {'d0': 1, f'd{n - 1}': 1, 'never': 1}}
    got = irm.calc_aggregate(['AP', 'P@1', 'NumRet', 'R@100000'], qrels, run)
    assert got[irm.parse_measure('NumRet')] == n and got[P@1] == 1.0
    assert got[irm.parse_measure('AP')] == pytest.approx((1 + 2 / n) / 3, abs=1e-12)
    assert got[irm.parse_measure('R@100000')] == pytest.approx(2 / 3, abs=1e-12)


@pytest.mark.slow
def test_a_million_queries_of_one_document(tmp_path):
    n = 1_000_000
    run = tmp_path / 'run'
    run.write_text(''.join(f'q{i} Q0 d{i} 1 1.0 r\n' for i in range(n)))
    relevant = np.arange(0, n, 3)
    qrels = tmp_path / 'qrels'
    qrels.write_text(''.join(f'q{i} 0 d{i} {1 if i % 3 == 0 else 0}\n' for i in range(n)))
    results = irm.calc(['P@1', 'NumQ'], qrels, run)
    assert results.aggregated == {P@1: pytest.approx(len(relevant) / n, abs=1e-12),
                                  irm.parse_measure('NumQ'): n}
    assert results.values[:6, 0].tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
