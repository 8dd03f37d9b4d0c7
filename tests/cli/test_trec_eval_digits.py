"""``irmetrics trec_eval``'s values against trec_eval's own, every digit of every double.

trec_eval prints ``%6.4f``, which hides a difference in the last bits of a value until a value falls on a
midpoint between two printed ones: nDCG@2 = 5/32 = 0.15625 prints 0.1562 when computed as trec_eval does
(each gain divided by log2(rank + 1)) and 0.1563 when each gain is multiplied by 1 / log2(rank + 1).  So
the command is compared here at 17 significant digits (``%.17g``: every double reads back exactly) with
a trec_eval built from its public source with that one change (``fixtures/trec_eval/digit_cases.json.gz``,
written by ``fixtures/trec_eval/make_17_digit_cases.py`` on the generated cases of
``trec_eval_digit_cases.py``): the same operations in the same order give the same doubles.

Then the midpoints themselves, computed by hand and printed by the command with trec_eval's 4 decimals:
the bytes stored here are trec_eval 10.0's output for the same files and command line.
"""
import gzip
import json
import warnings
from collections import Counter
from pathlib import Path

import pytest
from cli_support import irmetrics
from repo_paths import FIXTURES
from trec_eval_digit_cases import COMMANDS, make_case

from irmetrics.cli.trec_eval_command import parse_invocation, plan, run
from irmetrics.cli.trec_layout import EVERY_DIGIT
from irmetrics.errors import IrmetricsWarning

DIGITS = json.loads(gzip.decompress((FIXTURES / 'trec_eval' / 'digit_cases.json.gz').read_bytes()))
#: The measures whose arithmetic these cases are built to test, and how many of their printed values
#: (neither counts nor 0 and 1) the comparison must hold at least.
ARITHMETIC = {'ndcg': 500, 'ndcg_cut': 3000, 'ndcg_rel': 500, 'Rndcg': 500, 'dcg': 150, 'ideal_dcg': 150,
              'rbp_resid': 400, 'rbp': 400}


def every_digit(args: list[str], qrels: Path, run_file: Path) -> str:
    """The output of ``irmetrics trec_eval ARGS QRELS RUN`` in this process, values printed ``%.17g``."""
    out: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)            # -c's missing queries: not compared here
        run(parse_invocation([*args, str(qrels), str(run_file)]), out.append, EVERY_DIGIT)
    return ''.join(out)


def test_every_value_is_trec_evals_double(tmp_path):
    """Every line of every command line on every case, compared as text: the measure's name, the query and
    the value's 17 digits.  The failure names, per trec_eval measure, how many values differ of how many."""
    compared, worth, differ = Counter(), Counter(), Counter()
    examples = []
    for case in DIGITS['cases']:
        generated = make_case(case['seed'])
        assert generated.sha256 == case['sha256'], 'the generator changed: run make_17_digit_cases.py'
        assert case['returncode'] == 0
        (tmp_path / 'qrels').write_bytes(generated.qrels)
        (tmp_path / 'run').write_bytes(generated.run)
        ours = every_digit(case['args'], tmp_path / 'qrels', tmp_path / 'run').splitlines()
        theirs = case['stdout'].splitlines()
        measure_of = {ln.name: ln.entry.trec for ln in plan(parse_invocation([*case['args'], 'qrels', 'run']))}
        assert len(ours) == len(theirs), (case['seed'], case['args'], len(ours), len(theirs))
        for mine, expected in zip(ours, theirs, strict=True):
            name, _, value = expected.split('\t')
            measure = measure_of[name.rstrip()]
            compared[measure] += 1
            worth[measure] += any(c in value for c in '.e')         # not a count, 0 or 1
            if mine != expected:
                differ[measure] += 1
                examples.append((case['seed'], ' '.join(case['args']), mine, expected))
    counts = {m: f'{differ[m]} of {n}' for m, n in compared.items()}
    assert not differ, f'values differing, per measure: {counts}; e.g. (ours, trec_eval\'s) {examples[:4]}'
    assert sum(compared.values()) >= 40_000
    assert {m: worth[m] for m in ARITHMETIC if worth[m] < ARITHMETIC[m]} == {}, dict(worth)


def test_the_stored_cases_are_those_of_the_generator():
    """Each seed with each command line of ``COMMANDS``, once; and the bounds of rbp's and rbp_resid's
    persistence among them, with values other than 0."""
    made = Counter((case['seed'], tuple(case['args'])) for case in DIGITS['cases'])
    seeds = {seed for seed, _ in made}
    assert made == Counter({(seed, command): 1 for seed in seeds for command in COMMANDS})
    assert len(seeds) >= 20
    assert '%.17g' in DIGITS['trec_eval_source']
    printed = ''.join(case['stdout'] for case in DIGITS['cases'])
    for name in ('rbp_resid_p=0', 'rbp_resid_p=1', 'rbp_p=0'):
        values = [line.split('\t')[2] for line in printed.splitlines() if line.startswith(f'{name} ')]
        assert len(values) >= 50 and len(set(values)) >= 2, (name, Counter(values))


# --- midpoints, by hand ----------------------------------------------------------------------------------
def test_ndcg_at_a_midpoint_prints_trec_evals_digit(tmp_path):
    """Grades 5, 5, 32 and 32; the run ranks the two grade-5 documents.  DCG@2 = 5 + 5 / log2 3 and the
    ideal 32 + 32 / log2 3: nDCG@2 = 5/32 = 0.15625 exactly when each gain is divided by its log2 (as
    m_ndcg_cut.c does), which printf rounds to the even 0.1562; a product with 1 / log2 3 gives a double
    above 0.15625, printed 0.1563."""
    (tmp_path / 'qrels').write_text('1 0 a 5\n1 0 b 5\n1 0 c 32\n1 0 d 32\n')
    (tmp_path / 'run').write_text('1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n')
    proc = irmetrics('trec_eval', '-q', '-m', 'ndcg_cut.2', 'qrels', 'run', cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, '')
    # trec_eval 10.0's stdout, byte for byte
    assert proc.stdout == 'ndcg_cut_2            \t1\t0.1562\nndcg_cut_2            \tall\t0.1562\n'
    assert every_digit(['-m', 'ndcg_cut.2'], tmp_path / 'qrels', tmp_path / 'run') == \
        'ndcg_cut_2            \tall\t0.15625\n'


def test_rbp_resid_mean_at_a_midpoint_prints_trec_evals_digit(tmp_path):
    """Four queries, p = 0.9: q1 and q2 retrieve only judged documents (0), q3 an unjudged document then
    two judged ones (0.9^3 + 0.1 = 0.829), q4 one unjudged document (0.9 + 0.1 * 1 = 1).  The mean is
    1.829 / 4 = 0.45725: m_rbp_resid.c's order (p^n + (1 - p) * the sum of the unjudged ranks' powers)
    gives the double 0.45725000000000005, printed 0.4573 as trec_eval prints it; 1 - the judged ranks'
    weights gives one below the midpoint, printed 0.4572."""
    (tmp_path / 'qrels').write_text('q1 0 a 1\nq2 0 a 1\nq3 0 b 1\nq3 0 c 0\nq4 0 d 1\n')
    (tmp_path / 'run').write_text('q1 Q0 a 1 1 r\nq2 Q0 a 1 1 r\nq3 Q0 x 1 3 r\nq3 Q0 b 2 2 r\nq3 Q0 c 3 1 r\n'
                                  'q4 Q0 y 1 1 r\n')
    proc = irmetrics('trec_eval', '-q', '-m', 'rbp_resid', 'qrels', 'run', cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, '')
    # trec_eval 10.0's stdout, byte for byte
    assert proc.stdout == ''.join(f'rbp_resid             \t{q}\t{v}\n' for q, v in
                                  [('q1', '0.0000'), ('q2', '0.0000'), ('q3', '0.8290'), ('q4', '1.0000'),
                                   ('all', '0.4573')])
    assert every_digit(['-m', 'rbp_resid'], tmp_path / 'qrels', tmp_path / 'run') == \
        'rbp_resid             \tall\t0.45725000000000005\n'


def test_a_discount_where_numpys_log2_is_not_the_c_librarys(tmp_path):
    """One relevant document (grade 5) at rank 1620 of 1,700: its discount log2(1621) is the C library's, as
    trec_eval's (numpy's vectorised log2 is a bit below it on processors with AVX-512), in every measure
    that discounts it; the lines are the 17-digit trec_eval's."""
    (tmp_path / 'qrels').write_text('q 0 d1619 5\nq 0 d0 0\n')
    (tmp_path / 'run').write_text(''.join(f'q Q0 d{i} {i + 1} {2000 - i} r\n' for i in range(1700)))
    args = ['-m', 'ndcg', '-m', 'dcg', '-m', 'ndcg_cut.1700', '-m', 'G', '-m', 'binG', '-m', 'yaap', '-m', 'ndcg_rel',
            '-m', 'Rndcg']
    expected = [('binG', '0.093785154408073973'), ('G', '0.093785154408073973'), ('dcg', '0.46892577204036989'),
                ('ndcg', '0.093785154408073973'), ('ndcg_rel', '0.093785154408073973'),
                ('Rndcg', '0.046892577204036986'), ('ndcg_cut_1700', '0.093785154408073973'),
                ('yaap', '-0.69222139743565303')]
    assert every_digit(args, tmp_path / 'qrels', tmp_path / 'run') == \
        ''.join(f'{name:<22}\tall\t{value}\n' for name, value in expected)


# --- rbp_resid and rbp at p = 0 and p = 1 --------------------------------------------------------------
#: The four queries above and q5, which ranks a judged document (grade 1 of the query's 2) above an unjudged one.
BOUNDS_QRELS = 'q1 0 a 1\nq2 0 a 1\nq3 0 b 1\nq3 0 c 0\nq4 0 d 1\nq5 0 e 2\nq5 0 f 1\n'
BOUNDS_RUN = ('q1 Q0 a 1 1 r\nq2 Q0 a 1 1 r\nq3 Q0 x 1 3 r\nq3 Q0 b 2 2 r\nq3 Q0 c 3 1 r\nq4 Q0 y 1 1 r\n'
              'q5 Q0 f 1 2 r\nq5 Q0 z 2 1 r\n')


@pytest.mark.parametrize('measure, expected', [
    # p^n + (1 - p) * the sum of p^i over the unjudged ranks i: at p = 0, 1 where the first document is
    # unjudged (q3, q4), else 0; at p = 1, 1 where some document is (q3, q4, q5)
    ('rbp_resid.p=0', '0.0000 0.0000 1.0000 1.0000 0.0000 0.4000'),
    ('rbp_resid.p=1', '0.0000 0.0000 1.0000 1.0000 1.0000 0.6000'),
    # (1 - p) * the sum of gain_i * p^i: at p = 0 the first document's gain (q5's f: 1 of 2), at p = 1 0
    ('rbp.p=0', '1.0000 1.0000 0.0000 0.0000 0.5000 0.5000'),
    ('rbp.p=1', '0.0000 0.0000 0.0000 0.0000 0.0000 0.0000'),
    ('rbp.p=0,1=3,2=1', '1.0000 1.0000 0.0000 0.0000 1.0000 0.6000'),
])
@pytest.mark.parametrize('judged_only', [False, True])
def test_persistence_0_and_1_print_what_trec_eval_prints(tmp_path, measure, expected, judged_only):
    """trec_eval's loops (m_rbp_resid.c, m_rbp.c) are defined at p = 0 and p = 1, where irmetrics' RBP and
    RBPResidual, whose p lies strictly between, refuse them: the command prints trec_eval 10.0's lines
    (its output is stored here).  Under -J no document is unjudged: rbp_resid is 0, and rbp at p = 0 the
    first judged document's gain."""
    (tmp_path / 'qrels').write_text(BOUNDS_QRELS)
    (tmp_path / 'run').write_text(BOUNDS_RUN)
    args = ['trec_eval', '-q', *(['-J'] if judged_only else []), '-m', measure, 'qrels', 'run']
    proc = irmetrics(*args, cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, '')
    if judged_only:
        expected = {'rbp_resid.p=0': '0.0000 0.0000 0.0000 0.0000 0.0000 0.0000',
                    'rbp_resid.p=1': '0.0000 0.0000 0.0000 0.0000 0.0000 0.0000',
                    'rbp.p=0': '1.0000 1.0000 1.0000 0.0000 0.5000 0.7000',
                    'rbp.p=0,1=3,2=1': '1.0000 1.0000 1.0000 0.0000 1.0000 0.8000'}.get(measure, expected)
    name = measure.replace('.', '_')
    queries = ['q1', 'q2', 'q3', 'q4', 'q5', 'all']
    assert proc.stdout == ''.join(f'{name:<22}\t{q}\t{v}\n' for q, v in zip(queries, expected.split(), strict=True))
