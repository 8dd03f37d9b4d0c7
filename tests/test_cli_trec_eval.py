"""``irmetrics --trec-eval`` against trec_eval's own output, line for line.

The conformance cases ship trec_eval 10 outputs (``trec_eval*.out``) with the arguments that made
them (``trec_eval_oracle`` in expected.json: ``-q -m all_trec``, some with ``-l2`` or ``-c``).  The
CLI is run on the same files with trec_eval's ``all_trec`` measures (with ``rel=2`` under ``-l2``)
and every line it prints under a trec_eval name must be byte-identical to trec_eval's line, name
padding and ``%6.4f`` included.  Known divergences are asserted, not skipped:

* ``iprec_at_recall``: irmetrics rounds the recall level as trec_eval 9 (``int(p * R + 0.9)``, what
  pytrec_eval computes), trec_eval 10 uses ``lround(p * R)``.  A line may differ only for a query
  whose R makes the two roundings differ (and the ``all`` line of such a measure).
* ``num_rel`` under ``-c``: trec_eval's summary counts the qrels lines with a grade > 0 whatever
  ``-l`` says; irmetrics sums the per-query NumRel(rel=...) values.  They agree at ``-l1`` (the case
  shipped); the ``-l2`` difference is asserted on the model below.
"""
import json
import math
from pathlib import Path

import pytest
from cli_support import irmetrics

import irmetrics as irm
from irmetrics.core.params import NOT_PROVIDED
from irmetrics.core.trec_names import parse_trec_measure

CASES = Path(__file__).resolve().parent / 'data' / 'conformance'


def oracles():
    out = []
    for case in sorted(CASES.iterdir()):
        spec = case / 'expected.json'
        if not spec.exists():
            continue
        for run, entries in json.loads(spec.read_text()).get('trec_eval_oracle', {}).items():
            for entry in entries:
                out.append(pytest.param(case, run, entry['file'], entry['args'].split(),
                                        id=f'{case.name}-{entry["file"]}'))
    return out


ORACLES = oracles()


def measure_args(trec_args: list[str]) -> list[str]:
    """trec_eval's all_trec as irmetrics measure strings; -l2 sets rel=2 where trec_eval's -l applies."""
    rel = int(trec_args[trec_args.index('-l2')][2:]) if '-l2' in trec_args else 1
    out = []
    for m in parse_trec_measure('all_trec'):
        if rel != 1 and 'rel' in {p.name for p in m.definition.params} and m['rel'] is not NOT_PROVIDED:
            m = m(rel=rel)
        out.append(repr(m))
    return out


def lines_by_key(text: str) -> dict[tuple[str, str], str]:
    out = {}
    for line in text.splitlines():
        name, qid, _value = line.split('\t')
        out[(name.rstrip(), qid)] = line
    return out


def rounding_differs(name: str, num_rel: int) -> bool:
    """Whether trec_eval 9 and 10 pick different cutoffs for iprec_at_recall_<p> at R = num_rel."""
    p = float(name.rsplit('_', 1)[1])
    return int(p * num_rel + 0.9) != math.floor(p * num_rel + 0.5)


def evaluate(case: Path, run: str, trec_args: list[str]) -> str:
    proc = irmetrics('--trec-eval', '-q', str(case / 'qrels'), str(case / run), *measure_args(trec_args))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize('case, run, out_file, trec_args', ORACLES)
def test_trec_eval_output_matches(case, run, out_file, trec_args):
    ours_text = evaluate(case, run, trec_args)
    ours, ref = lines_by_key(ours_text), lines_by_key((case / out_file).read_text())
    if '-c' not in trec_args:
        # Without -c trec_eval evaluates only the queries of the run; that is every qrels query here,
        # so irmetrics' rule (the qrels' queries) gives the same lines.
        qrels, run_ = irm.read_trec_qrels(str(case / 'qrels')), irm.read_trec_run(str(case / run))
        assert {q.query_id for q in qrels} <= {d.query_id for d in run_}
    only_ours = [k for k in ours if k not in ref]
    assert not only_ours, f'lines trec_eval does not print: {only_ours[:5]}'

    qids = list(dict.fromkeys(line.split('\t')[1] for line in ours_text.splitlines()))
    per_query = [q for q in qids if q != 'all']
    assert per_query == sorted(per_query, key=str.encode) and qids[-1] == 'all'

    differing = {k for k in ours if ours[k] != ref[k]}
    iprec = {k for k in differing if k[0].startswith('iprec_at_recall_')}
    assert differing == iprec, f'lines that differ: {sorted(differing - iprec)[:5]}'
    explained = {name for (name, qid) in iprec if qid != 'all'
                 and rounding_differs(name, int(ours[('num_rel', qid)].split('\t')[2]))}
    for name, qid in iprec:
        assert name in explained, f'{name} for {qid} differs where trec_eval 9 and 10 round alike'
    assert len(ours) > 100


def test_divergence_iprec_rounding_is_trec_eval_9s():
    """Topic 302 (R = 77) at recall 0.6: trec_eval 9 needs 47 relevant documents, trec_eval 10 needs 46."""
    case = CASES / 'trec_eval_302'
    ours = lines_by_key(evaluate(case, 'run', []))
    ref = lines_by_key((case / 'trec_eval.out').read_text())
    key = ('iprec_at_recall_0.60', '302')
    assert ours[key].endswith('\t0.1420') and ref[key].endswith('\t0.1528')
    assert int(0.6 * 77 + 0.9) == 47 and round(0.6 * 77) == 46
    # pytrec_eval, which embeds trec_eval 9, agrees with irmetrics
    pytest.importorskip('pytrec_eval')
    value = irm.calc_aggregate(['IPrec@0.6'], str(case / 'qrels'), str(case / 'run'), provider='pytrec_eval')
    assert f'{next(iter(value.values())):.4f}' == '0.1420'


def test_num_rel_under_c_agrees_at_level_1():
    """trec_eval_trunc was made with -c; topic 302 is missing from the run and still counts its 77."""
    case = CASES / 'trec_eval_trunc'
    ours = lines_by_key(evaluate(case, 'run', ['-c']))
    ref = lines_by_key((case / 'trec_eval.out').read_text())
    assert ours[('num_rel', 'all')] == ref[('num_rel', 'all')] == 'num_rel               \tall\t561'
    assert ours[('num_rel', '302')] == ref[('num_rel', '302')]
    assert ours[('num_q', 'all')] == ref[('num_q', 'all')]


def test_divergence_num_rel_under_c_with_a_relevance_level():
    """trec_eval -c -l2 would print the number of qrels lines graded > 0 as num_rel; irmetrics prints
    the sum of the per-query NumRel(rel=2), consistent with its per-query lines."""
    case = CASES / 'trec_eval_rel_level'
    qrels = irm.read_trec_qrels(str(case / 'qrels'))
    trec_eval_c_l2 = sum(1 for q in qrels if q.relevance > 0)
    proc = irmetrics('--trec-eval', '-q', str(case / 'qrels'), str(case / 'run'), 'NumRel(rel=2)')
    lines = lines_by_key(proc.stdout)
    per_query = sum(int(line.split('\t')[2]) for (name, qid), line in lines.items() if qid != 'all')
    total = int(lines[('num_rel', 'all')].split('\t')[2])
    assert total == per_query == sum(1 for q in qrels if q.relevance >= 2)
    assert total != trec_eval_c_l2
