"""What every report of a comparison carries: its formats, the warnings raised while it was made, and why a
comparison whose p-value is at most alpha is not marked significant."""
import csv
import io
import json
import warnings

import pandas as pd
import pytest
from repo_paths import ROOT

import irmetrics as irm
from irmetrics.errors import IrmetricsWarning, recorded_warnings, warn
from irmetrics.rendering.formats import FORMATS

QRELS = {f'q{i}': {'r': 1} for i in range(4)}


def ranked(rank):
    """A run with the relevant document at ``rank`` (1-based)."""
    return {**{f'n{j}': 100.0 - j for j in range(rank - 1)}, 'r': 100.0 - rank + 1}


#: Run b finds the relevant document first on each of the 4 queries, run a at ranks 4, 5, 3, 5: the t-test's
#: p-value is 0.0003, yet the exact randomisation test on 4 differences cannot go below 2^-3 = 0.125.
RUNS = {'a': {f'q{i}': ranked(r) for i, r in enumerate((4, 5, 3, 5))}, 'b': {f'q{i}': ranked(1) for i in range(4)}}


def test_a_small_p_value_that_is_not_significant_says_why():
    cmp = irm.compare('AP', QRELS, RUNS, baseline='a')
    assert cmp.p_adjusted['t'][0, 0] < 0.001 and not cmp.significant['t'][0, 0]
    row = cmp.to_dataframe().iloc[1]
    assert row.note == 'not significant: 4 queries with a difference, fewer than the 6 any test needs to reach ' \
                       'alpha = 0.05'
    assert pd.isna(cmp.to_dataframe().iloc[0].note)                           # the baseline: no comparison
    text = str(cmp)
    assert '1 comparison with a p-value at most alpha after correction is not marked: it rests on fewer than 6 ' \
           'queries with a difference' in ' '.join(text.split())
    assert 'not significant: 4 queries with a difference' in cmp.render('html')
    assert 'is not marked' in cmp.render('latex') and 'is not marked' in cmp.render('markdown')
    plain = irm.compare('AP', QRELS, {**RUNS, 'c': RUNS['a']}, baseline='a')
    assert plain.to_dataframe().note.tolist()[1:] == ['not significant: 4 queries with a difference, fewer than '
                                                      'the 6 any test needs to reach alpha = 0.05', '']


def test_every_report_carries_the_warnings_and_they_are_still_issued():
    runs = {'a': RUNS['a'], 'b': {q: v for q, v in RUNS['b'].items() if q != 'q3'}}          # q3 missing from b
    with pytest.warns(IrmetricsWarning) as issued:
        cmp = irm.compare('AP', QRELS, runs, baseline='a')
    assert len(cmp.warnings) == 2 and set(cmp.warnings) <= {str(w.message) for w in issued}
    assert 'of the 4 qrels queries are not in the run' in cmp.warnings[0]
    assert 'rest on fewer than 6 queries with a difference' in cmp.warnings[1]
    for fmt in ('table', 'markdown', 'html'):
        assert all(' '.join(w.split()[:6]) in ' '.join(cmp.render(fmt).split()) for w in cmp.warnings), fmt
    assert cmp.render('latex').startswith('% Warning: ')
    assert json.loads(cmp.render('json'))['warnings'] == list(cmp.warnings) == cmp.to_dict()['warnings']
    assert cmp.to_dataframe().attrs['warnings'] == list(cmp.warnings)
    examples = ROOT / 'examples'
    quiet = irm.compare('AP', examples / 'qrels.txt', [examples / 'run_bm25.txt', examples / 'run_dense.txt'])
    assert quiet.warnings == () and 'Warning' not in str(quiet) and '% Warning' not in quiet.render('latex')


def test_recorded_warnings_collects_each_message_once_and_issues_them_under_the_callers_filters():
    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter('always')
        with recorded_warnings() as seen:
            warn('first')
            warn('first')
            warnings.warn('not ours', RuntimeWarning, stacklevel=1)
            assert seen == []                                            # filled when the block ends
    assert seen == ['first'] and [str(w.message) for w in outside] == ['first', 'first', 'not ours']
    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter('ignore')
        with recorded_warnings() as seen:
            warn('second')
    assert seen == ['second'] and outside == []
    with pytest.raises(KeyError), recorded_warnings() as seen:
        warn('third')
        raise KeyError('the block fails')
    assert seen == ['third']


@pytest.mark.parametrize('fmt', FORMATS)
def test_a_comparison_renders_in_every_format(fmt):
    cmp = irm.compare('AP RR', QRELS, RUNS, baseline='a')
    text = cmp.render(fmt)
    assert text.endswith('\n') and '0.' in text
    shown = cmp.render(fmt, show=('delta', 'p'))
    if fmt in ('csv', 'tsv', 'json', 'jsonl'):
        assert shown == text                                   # every column there already
    else:
        assert '(+0.' in shown and '(+0.' not in text


def test_unknown_formats_and_show_items_are_option_errors():
    cmp = irm.compare('AP', QRELS, RUNS, baseline='a')
    with pytest.raises(irm.OptionError, match="unknown format 'xlsx': one of table, tsv, csv"):
        cmp.render('xlsx')
    with pytest.raises(irm.OptionError, match="cannot show 'effect'"):
        cmp.render(show='effect')
    assert cmp.render(show='p') == cmp.render(show=['p'])


def test_sliced_comparisons_render_in_every_format():
    qrels = {f'q{i}': {'r': 1} for i in range(8)}
    runs = {'a': {f'q{i}': ranked(2 + i % 3) for i in range(8)}, 'b': {f'q{i}': ranked(1) for i in range(8)}}
    slices = {f'q{i}': 'short' if i < 4 else 'long' for i in range(8)}
    sliced = irm.compare_slices('AP', qrels, runs, slices=slices, baseline='a')
    assert str(sliced) == sliced.render() and sliced.render().startswith("Slice 'short' (4 queries)\nrun")
    document = json.loads(sliced.render('json'))
    assert list(document['slices']) == ['short', 'long'] == list(sliced.to_dict()['slices'])
    assert document['slices']['short']['rows'][1]['note'].startswith('not significant: 4 queries')
    lines = [json.loads(line) for line in sliced.render('jsonl').splitlines()]
    assert [line['slice'] for line in lines] == ['short', 'short', 'long', 'long']
    assert sliced.render('csv').splitlines()[0].startswith('slice,run,measure,mean')
    assert sliced.render('tsv').splitlines()[2].startswith('short\tb\tAP\t')
    latex = sliced.render('latex', label='tab:s')
    assert latex.count(r'\begin{table}') == 2 and r'\label{tab:s-long}' in latex
    assert r"\caption{Slice 'short' (4 queries). Mean over 4 queries" in latex
    page = sliced.render('html')
    assert page.count('<!DOCTYPE html>') == 1 and "<h2>Slice &#x27;long&#x27; (4 queries)</h2>" in page
    assert '(+0.' in sliced.render('markdown', show='delta')


def test_csv_and_tsv_write_run_names_and_query_ids_that_start_as_formulas_as_text():
    """A run named =HYPERLINK(...) or @SUM(A1) and a query id -1+2 are text in a spreadsheet that opens the
    CSV or TSV of a comparison or of per-query values (a single quote first); the values, negative
    differences included, stay numbers; to_dataframe keeps the names as they are."""
    qrels = {'-1+2': {'d1': 1, 'd2': 1}, '401': {'d1': 1}}
    runs = {'=HYPERLINK("http://evil")': {'-1+2': {'d1': 2.0, 'd2': 1.0}, '401': {'d1': 1.0}},
            '@SUM(A1)': {'-1+2': {'d3': 2.0, 'd2': 1.0}, '401': {'d2': 2.0, 'd1': 1.0}}}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        cmp = irm.compare(['AP'], qrels, runs)
        per_query = irm.evaluator(['AP'], qrels).calc(runs['@SUM(A1)'])
    rows = list(csv.reader(io.StringIO(cmp.render('csv'))))
    assert [row[0] for row in rows[1:]] == ['\'=HYPERLINK("http://evil")', "'@SUM(A1)"]
    assert rows[2][rows[0].index('baseline')] == '\'=HYPERLINK("http://evil")'
    assert rows[2][rows[0].index('delta')] == '-0.625'     # (0.25 + 0.5) / 2 - 1: a negative number stays a number
    tsv = list(csv.reader(io.StringIO(cmp.render('tsv')), delimiter='\t'))
    assert [row[0] for row in tsv[1:]] == ['\'=HYPERLINK("http://evil")', "'@SUM(A1)"]
    assert list(cmp.to_dataframe()['run']) == list(runs)
    by_query = list(csv.reader(io.StringIO(per_query.render('csv', by_query=True))))
    assert by_query[1][:2] == ["'-1+2", 'AP'] and by_query[2][:2] == ['401', 'AP']
    assert per_query.render('tsv', by_query=True).splitlines()[0].startswith("'-1+2\tAP\t")
