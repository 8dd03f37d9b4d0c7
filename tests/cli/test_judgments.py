"""The judgments' commands (kappa, pool, qrels-stats, judged, unjudged) print what the Python API computes,
in every format, and fail in one line with status 2."""
import csv
import io
import json

import pytest
from cli_support import irmetrics
from repo_paths import ROOT

import irmetrics as irm

EXAMPLES = ROOT / 'examples'
QRELS, BM25, DENSE = (str(EXAMPLES / name) for name in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))
#: a second qrels: the examples' first 60 judgments, every third grade moved by one
SECOND = ''.join(f'{q} 0 {d} {int(g) + (1 if i % 3 == 0 else 0)}\n'
                 for i, (q, _, d, g) in enumerate(line.split() for line in (EXAMPLES / 'qrels.txt').read_text()
                                                  .splitlines()[:60]))


@pytest.fixture
def second(tmp_path):
    path = tmp_path / 'second.txt'
    path.write_text(SECOND)
    return str(path)


def json_of(*args):
    proc = irmetrics(*args, '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_kappa_prints_every_statistic(second):
    rows = json_of('kappa', QRELS, second, '--rel', '2')
    expected = [irm.cohen_kappa(QRELS, second, rel=2), irm.cohen_kappa(QRELS, second, weights='linear'),
                irm.cohen_kappa(QRELS, second, weights='quadratic'),
                *(irm.krippendorff_alpha(QRELS, second, level=level) for level in ('nominal', 'ordinal', 'interval'))]
    assert rows == [{'statistic': r.method, 'value': r.statistic} for r in expected]
    table = irmetrics('kappa', QRELS, second).stdout
    assert '60 pairs judged by both, 340 by ' in table and 'grades (rows: ' in table
    by_query = list(csv.DictReader(io.StringIO(irmetrics('kappa', QRELS, second, '-q', '-f', 'csv').stdout)))
    frame = irm.cohen_kappa(QRELS, second).to_dataframe()
    assert [r['query'] for r in by_query] == frame.index.tolist()
    assert [int(r['both']) for r in by_query] == frame['both'].tolist()


def test_pool_writes_the_pairs_to_judge(tmp_path):
    out = tmp_path / 'to_judge.txt'
    proc = irmetrics('pool', BM25, DENSE, '--depth', '10', '--qrels', QRELS, '-o', str(out))
    assert proc.returncode == 0, proc.stderr
    result = irm.pool(QRELS, [BM25, DENSE], depth=10)
    assert proc.stdout.splitlines()[-2:] == ['pool of depth 10: 181 documents for 10 queries; 130 judged already, '
                                             '51 to judge', f'the pairs to judge written to {out}']
    assert [(q.query_id, q.doc_id) for q in irm.read_trec_qrels(str(out))] == \
        [(q.query_id, q.doc_id) for q in result.qrels]
    rows = json_of('pool', BM25, DENSE, '--depth', '10')
    assert rows == [{'run': name, 'top 10': int(r.sum()), 'unique': int(u.sum())}
                    for name, r, u in zip(result.runs, result.retrieved, result.unique, strict=True)]
    per_query = irmetrics('pool', BM25, DENSE, '-k', '10', '--qrels', QRELS, '-q', '-f', 'tsv').stdout.splitlines()
    assert per_query[0].split('\t') == ['query', 'pool', 'judged', 'to_judge', 'unique run_bm25', 'unique run_dense']
    assert len(per_query) == 11


def test_qrels_stats_and_judged():
    rows = json_of('qrels-stats', QRELS, '-q')
    stats = irm.qrels_stats(QRELS)
    assert [r['query'] for r in rows] == [*stats.query_ids, 'all']
    assert rows[-1]['judged'] == 400 and rows[-1]['relevant'] == stats.total['relevant']
    assert [r['grade 2'] for r in rows[:-1]] == stats.counts[:, 2].tolist()
    coverage = json_of('judged', QRELS, BM25, DENSE, '-k', '5', '-k', '20')
    expected = irm.judgment_coverage(QRELS, [BM25, DENSE], cutoffs=[5, 20]).to_dict()
    assert {r['run']: {k: v for k, v in r.items() if k != 'run'} for r in coverage} == expected


def test_unjudged_prints_both_values_and_whether_they_bound():
    rows = json_of('unjudged', QRELS, DENSE, '-m', 'P@10 nDCG@10', '--grade', '1')
    result = irm.unjudged_bounds(['P@10', 'nDCG@10'], QRELS, DENSE, grade=1)
    assert rows == [{'measure': m, **{k: v for k, v in values.items()}, 'unjudged': int(n)}
                    for (m, values), n in zip(result.to_dict().items(), result.unjudged.sum(axis=0), strict=True)]
    markdown = irmetrics('unjudged', QRELS, DENSE, '-m', 'P@10', '-f', 'markdown').stdout
    assert markdown.splitlines()[0] == '| measure | nonrelevant | relevant | bounds | unjudged |'
    assert '| P@10 | 0.7100 | 0.9200 | yes | 21 |' in markdown


@pytest.mark.parametrize('args, message', [
    (['kappa', 'a.txt', 'b.txt'], 'no (query, document) pair in common'),
    (['pool', 'c.run', '--depth', '0'], "invalid value 0 for option 'depth'"),
    (['unjudged', 'a.txt', 'c.run', '-m', 'alpha_nDCG@5'], 'cannot be bounded'),
    (['kappa', 'a.txt', 'b.txt', '--rel', 'x'], "argument --rel: 'x' is not a number"),
    (['qrels-stats', 'a.txt', '--rel', 'inf'], "argument --rel: 'inf' is not a finite number"),
    (['pool', 'a.txt'], 'the following arguments are required: --depth'),
])
def test_errors_are_one_line_with_status_2(tmp_path, args, message):
    (tmp_path / 'a.txt').write_text('q1 0 d1 1\n')
    (tmp_path / 'b.txt').write_text('q2 0 d1 1\n')
    (tmp_path / 'c.run').write_text('q1 Q0 d1 1 2.0 c\n')
    proc = irmetrics(*args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ''
    assert len(proc.stderr.splitlines()) == 1 and message in proc.stderr, proc.stderr
