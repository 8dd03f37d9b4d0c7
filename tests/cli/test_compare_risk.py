"""``irmetrics compare ... --baseline NAME --risk ALPHA``: the risk table (URisk, TRisk, GeoRisk) in every
format, the same numbers as the API, and its errors (one line on stderr, exit status 2)."""
import io
import json
import warnings

import pandas as pd
import pytest
from cli_support import assert_user_error, irmetrics, run_ok
from repo_paths import ROOT

import irmetrics as irm

EXAMPLES = ['examples/qrels.txt', 'examples/run_bm25.txt', 'examples/run_dense.txt']
RISK = ['compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', '--risk', '1']


def api():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return irm.compare('AP', str(ROOT / EXAMPLES[0]), [str(ROOT / p) for p in EXAMPLES[1:]], baseline='run_bm25',
                           risk_weight=1)


def test_table_has_the_risk_block_with_the_apis_numbers():
    out = run_ok(ROOT, *RISK)
    cmp = api()
    lines = out.splitlines()
    head = lines.index('measure  run              URisk     TRisk  TRisk p  GeoRisk')
    assert lines[head + 1].split() == ['AP', '(a)', 'run_bm25', f'{cmp.risk.georisk[0, 0]:.4f}']
    assert lines[head + 2].split() == ['AP', '(b)', 'run_dense', f'{cmp.risk.urisk[0, 0]:+.4f}',
                                       f'{cmp.risk.trisk[0, 0]:.4f}', '*', f'{cmp.risk.pvalue[0, 0]:.3g}',
                                       f'{cmp.risk.georisk[1, 0]:.4f}']
    assert lines[head + 4].startswith('Risk against the baseline (a) run_bm25, risk weight 1.')
    assert out == cmp.render()


@pytest.mark.parametrize('fmt, check', [
    ('markdown', lambda out, cmp: '| measure | run | URisk | TRisk | TRisk p | GeoRisk |' in out
     and f'{cmp.risk.trisk[0, 0]:.4f}\\*' in out),
    ('latex', lambda out, cmp: '\\label{tab:comparison-risk}' in out and 'TRisk $p$' in out),
    ('html', lambda out, cmp: '<h2>Risk against the baseline</h2>' in out),
    ('json', lambda out, cmp: json.loads(out)['risk']['risk_weight'] == 1.0
     and json.loads(out)['rows'][1]['urisk'] == pytest.approx(cmp.risk.urisk[0, 0], abs=1e-15)),
    ('csv', lambda out, cmp: pd.read_csv(io.StringIO(out)).georisk.tolist() == pytest.approx(
        cmp.risk.georisk[:, 0].tolist(), abs=1e-12)),
])
def test_every_format_carries_the_risk_columns(fmt, check):
    out = run_ok(ROOT, *RISK, '-f', fmt)
    assert check(out, api())


@pytest.mark.parametrize('args, fragments', [
    (['compare', *EXAMPLES, '-m', 'AP', '--risk', '1'], ['--risk compares each run with one baseline']),
    (['compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', '--risk', '-1'], ["option 'risk_weight'", '>= 0']),
    (['compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', '--risk', 'x'], ['--risk', "'x'"]),
    (['compare', *EXAMPLES, '-m', 'AP', '--baseline', 'run_bm25', '--risk', '1', '--slices', 'examples/qrels.txt'],
     ['without --ranks or --risk']),
])
def test_errors(args, fragments):
    assert_user_error(irmetrics(*args, cwd=ROOT), *fragments)
