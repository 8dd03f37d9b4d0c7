"""Renderers of a :class:`~.comparison.Comparison`: text, Markdown, LaTeX, HTML and JSON.

Every table has the runs as rows and the measures as columns, with each run's mean.  Runs are
lettered (a), (b), ...; a letter after a value marks a run significantly better than the run of
that letter on that measure ("better": a higher mean difference, or lower for measures where lower
is better), by the table's test after its correction.  A legend (a caption in LaTeX) states the
test, the correction and alpha.  With several tests there is one table per test.  The tables are built here
as :class:`~irmetrics.rendering.records.Table` s of :class:`~irmetrics.rendering.records.Cell` s (a value, bold
where best, its letters as marks) that the records renderers print in each format.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from . import corrections, risk_report, small_samples
from .base import (
    Cell,
    ComparisonError,
    OptionError,
    Table,
    checked_format,
    checked_places,
    figure_svg,
    format_value,
    html_escape,
    html_page,
    html_table,
    json_number,
    latex_escape,
    number,
    render_document,
    render_records,
)
from .vocabulary import SELF_CORRECTING, TESTS, ComparisonView, letter


def markers(cmp: ComparisonView, test: str) -> list[list[list[str]]]:
    """``markers[run][measure]``: the letters of the runs this run is significantly better than."""
    out: list[list[list[str]]] = [[[] for _ in cmp.measures] for _ in cmp.runs]
    for k, (b, o) in enumerate(cmp.pairs):
        for j, m in enumerate(cmp.measures):
            direction = cmp.delta[k, j] * (1 if m.definition.higher_is_better else -1)
            if cmp.significant[test][k, j] and direction != 0:
                winner, loser = (o, b) if direction > 0 else (b, o)
                out[winner][j].append(letter(loser))
    for row in out:
        for cell in row:
            cell.sort(key=lambda s: (len(s), s))
    return out


def best(cmp: ComparisonView, places: int) -> np.ndarray:
    """(runs, measures): the run shows the best value of the measure (as printed, so ties share it)."""
    shown = np.round(cmp.mean, places)
    signs = np.array([1.0 if m.definition.higher_is_better else -1.0 for m in cmp.measures])
    top = np.nanmax(shown * signs, axis=0) * signs
    return cast(np.ndarray, shown == top)


def _count(n: int, what: str, plural: str | None = None) -> str:
    return f'{n:,} {what}' if n == 1 else f'{n:,} {plural or what + "s"}'


def _queries(cmp: ComparisonView) -> str:
    return _count(len(cmp.query_ids), *cmp.unit)


def test_text(cmp: ComparisonView, test: str) -> str:
    """The test as the legend names it, with its resampling when it has one."""
    s = cmp.settings
    if test == 'randomization':
        how = (f'exact: all {_count(cmp.enumerated[test], "sign flip")}' if test in cmp.enumerated
               else f'{s.n_resamples:,} random sign flips, seed {s.seed}')
    elif test == 'bootstrap':
        how = f'{s.n_resamples:,} resamples, seed {s.seed}'
    elif test == 'tukey':
        how = ('exact: every relabelling' if test in cmp.enumerated else
               f'{s.n_resamples:,} random relabellings of the {len(cmp.runs)} runs, seed {s.seed}')
    else:
        how = ''
    return f'{TESTS[test]} (two-sided{", " + how if how else ""})'


def correction_text(cmp: ComparisonView, test: str) -> str:
    s = cmp.settings
    if test in SELF_CORRECTING:
        return 'the test controls the family-wise error over all pairs of runs (no further correction)'
    if s.correction is None:
        return 'p-values not corrected for multiple comparisons'
    family = _count(cmp.family_size, 'comparison') + (f' in {s.slices} query slices' if s.slices > 1 else '')
    where = f'within each measure ({family})' if s.correction_scope == 'measure' else f'over all {family}'
    return f'p-values {corrections.NAMES[s.correction]}-corrected {where}'


def legend(cmp: ComparisonView, test: str) -> list[str]:
    """The sentences under a table."""
    s = cmp.settings
    lines = ['A letter after a value: significantly better than the run of that letter on that measure.',
             f'Test: {test_text(cmp, test)}, alpha = {s.alpha:g}; {correction_text(cmp, test)}.']
    named = ', '.join(f'({letter(cmp.runs.index(b))}) {b}' for b in cmp.baselines)
    base = (f'Baseline{"s" if len(cmp.baselines) > 1 else ""}: {named}' + (
            ' (compared with every other run and with each other)' if len(cmp.baselines) > 1 else '')
            if cmp.baselines else 'Every pair of runs compared')
    lines.append(f'{base}; means over {_queries(cmp)}.')
    held_back = int(unreachable(cmp, test).sum())
    if held_back:
        lines.append(f'{_count(held_back, "comparison")} with a p-value at most alpha after correction '
                     f'{"is" if held_back == 1 else "are"} not marked: {"it rests" if held_back == 1 else "they rest"} '
                     f'on fewer than {small_samples.exact_fewest(s.alpha)} {cmp.unit[1]} with a difference, too few '
                     f'for any test to reach alpha (the note column of to_dataframe() names them).')
    return lines


def unreachable(cmp: ComparisonView, test: str) -> np.ndarray:
    """(comparisons, measures): p-value at most alpha after correction, yet not significant, because the
    queries with a difference are too few for the exact randomisation test to reach alpha
    (:mod:`.small_samples`)."""
    return cast(np.ndarray, (cmp.p_adjusted[test] <= cmp.settings.alpha) & ~cmp.significant[test])


def warning_lines(cmp: ComparisonView) -> list[str]:
    """The warnings raised while the comparison was made, one sentence each."""
    return [f'Warning: {message}' for message in cmp.warnings]


def _cells(cmp: ComparisonView, test: str, places: int, shown: Sequence[str]) -> list[list[Cell]]:
    """``cells[run][measure]``: the mean (bold where it is the best of the measure), the letters of the runs it is
    significantly better than and what ``shown`` asks (:func:`extras`)."""
    marks, top = markers(cmp, test), best(cmp, places)
    return [[Cell(format_value(m, cmp.mean[r, j], places), bool(top[r, j]), tuple(marks[r][j]),
                  after=extras(cmp, test, r, j, shown, places)) for j, m in enumerate(cmp.measures)]
            for r in range(len(cmp.runs))]


#: What a table's cells may show beside each mean and its letters (``show``): the difference from the
#: baseline and the p-value after correction.
SHOWN = ('delta', 'p')


def check_show(cmp: ComparisonView, show: Sequence[str]) -> tuple[str, ...]:
    """``show`` (one item or several) as a tuple of :data:`SHOWN` items; they need a baseline (without one a run
    has several differences: the HTML report's detail, ``to_dataframe`` and CSV give them all)."""
    shown = tuple(dict.fromkeys((show,) if isinstance(show, str) else show))
    unknown = [item for item in shown if item not in SHOWN]
    if unknown:
        raise OptionError(f'show: cannot show {unknown[0]!r}: show one or both of {", ".join(SHOWN)}')
    if shown and len(cmp.baselines) != 1:
        raise ComparisonError('showing delta or p in the table needs one baseline (each run has one difference then); '
                              'otherwise the HTML report, to_dataframe() and -f csv give every pair')
    return shown


def extras(cmp: ComparisonView, test: str, r: int, j: int, shown: Sequence[str], places: int) -> str:
    """The difference from the baseline and the corrected p-value of run r on measure j, as ``show``
    asks ('' for the baseline itself)."""
    k = next((k for k, (_, o) in enumerate(cmp.pairs) if o == r), None)
    if k is None or not shown:
        return ''
    parts = [number(cmp.delta[k, j], places, sign='+') if item == 'delta' else f'p={cmp.p_adjusted[test][k, j]:.3g}'
             for item in shown]
    return ' (' + ', '.join(parts) + ')'


def shown_note(shown: Sequence[str]) -> list[str]:
    """The legend's line for what the parentheses hold (none when nothing is shown)."""
    what = {'delta': 'the difference from the baseline', 'p': 'the p-value after correction'}
    return [f'In parentheses: {" and ".join(what[item] for item in shown)}.'] if shown else []


# --- the formats people read -----------------------------------------------------------------------
def _caption(cmp: ComparisonView, test: str, shown: Sequence[str]) -> str:
    """The LaTeX caption of a test's table: what the other formats' legend says."""
    s = cmp.settings
    caption = (f'Mean over {_queries(cmp)}; the best value of each measure in bold. A superscript letter '
               f'marks a run significantly better than the run of that letter: '
               f'{latex_escape(test_text(cmp, test))}, $\\alpha = {s.alpha:g}$; '
               f'{latex_escape(correction_text(cmp, test))}.')
    if cmp.baselines:
        caption += (f' Baseline{"s" if len(cmp.baselines) > 1 else ""}: '
                    + ', '.join(f'({letter(cmp.runs.index(b))})' for b in cmp.baselines) + '.')
    return caption + ''.join(' ' + latex_escape(line) for line in legend(cmp, test)[3:] + shown_note(shown))


def means_table(cmp: ComparisonView, test: str, places: int, shown: Sequence[str], fmt: str,
                label: str = 'tab:comparison') -> Table:
    """A test's table of means in ``fmt``, one of the formats people read: runs as rows, lettered, measures as
    columns; LaTeX a float with the letters in a column of their own and the legend as its caption."""
    cells = _cells(cmp, test, places, shown)
    measures = [str(m) for m in cmp.measures]
    if fmt == 'latex':
        return Table(['', 'Run', *measures], [[letter(r), run, *cells[r]] for r, run in enumerate(cmp.runs)], 2,
                     caption=_caption(cmp, test, shown),
                     label=f'{label}{"" if len(cmp.tests) == 1 else "-" + test}')
    bold = [] if fmt == 'table' else ['Bold: the best value of each measure.']
    return Table(['run', *measures], [[f'({letter(r)}) {run}', *cells[r]] for r, run in enumerate(cmp.runs)],
                 notes=legend(cmp, test) + bold + shown_note(shown), heading=TESTS[test])


def tables(cmp: ComparisonView, places: int, shown: Sequence[str], fmt: str,
           label: str = 'tab:comparison') -> list[Table]:
    """The tables ``fmt`` shows: each test's means, then the risk table of a comparison made with ``risk_weight``."""
    out = [means_table(cmp, test, places, shown, fmt, label) for test in cmp.tests]
    return out + ([] if cmp.risk is None else [risk_report.table(cmp, places, label)])


def render_text(cmp: ComparisonView, places: int = 4, show: Sequence[str] = ()) -> str:
    """Each test's aligned table with its legend under a rule, the risk table, the warnings."""
    return render_document(tables(cmp, places, check_show(cmp, show), 'table'), 'table', places, warning_lines(cmp))


def render_markdown(cmp: ComparisonView, places: int = 4, show: Sequence[str] = ()) -> str:
    """Each test's table with its legend, the risk table, the warnings quoted."""
    shown = check_show(cmp, show)
    return render_document(tables(cmp, places, shown, 'markdown'), 'markdown', places, warning_lines(cmp))


def render_latex(cmp: ComparisonView, places: int = 4, label: str = 'tab:comparison', show: Sequence[str] = ()) -> str:
    """One booktabs ``table`` per test; the warnings as comments above them (for the author, not the reader)."""
    shown = check_show(cmp, show)
    return render_document(tables(cmp, places, shown, 'latex', label), 'latex', places, warning_lines(cmp))


# --- HTML ---------------------------------------------------------------------------------------
def _number(value: float, places: int) -> str:
    """A number of the detail table, a missing one (no interval) empty."""
    return number(value, places, missing='')


def render_html(cmp: ComparisonView, places: int = 4, show: Sequence[str] = ()) -> str:
    """The page: each test's table of means with letters, every comparison (each pair once) in a table
    that fits the page (each value with its interval in one cell, the p-values in one), and the plots
    in a grid, or a note saying why they are not there."""
    esc = html_escape
    parts = [f'<h1>Comparison of {len(cmp.runs)} runs</h1>', html_summary(cmp, places, show),
             '<h2>Every comparison</h2>']
    level = f'{cmp.settings.ci:.0%}'
    detail_header = ['run', 'against', 'measure', f'mean<br>[{level} CI]', f'delta<br>[{level} CI]',
                     'effect size', 'wins / ties / losses', 'test', 'p-value<br>(adjusted)', 'significant', 'note']
    detail = []
    paired = [row for row in cmp.rows() if row['baseline'] is not None]
    order = {name: i for i, name in enumerate(cmp.runs)}                  # each pair's measures together
    for row in sorted(paired, key=lambda row: (cmp.tests.index(row['test']), order[row['run']],
                                               order[row['baseline']])):
        detail.append([esc(row['run']), esc(row['baseline']), esc(row['measure']),
                       f'{_number(row["mean"], places)}<br><small>[{_number(row["ci_low"], places)}, '
                       f'{_number(row["ci_high"], places)}]</small>',
                       f'{number(row["delta"], places, sign="+")}<br><small>[{_number(row["delta_ci_low"], places)}, '
                       f'{_number(row["delta_ci_high"], places)}]</small>',
                       number(row['effect_size'], 2), f'{row["wins"]} / {row["ties"]} / {row["losses"]}',
                       esc(row['test']), f'{row["p_value"]:.4g}<br><small>({row["p_adjusted"]:.4g})</small>',
                       '<span class="yes">yes</span>' if row['significant'] else 'no', esc(row['note'])])
    parts.append(html_table(detail_header, detail, esc(
        f'delta: mean per-{cmp.unit[0]} difference run - against over the paired {cmp.unit[1]}, with its {level} '
        f'confidence interval ({cmp.settings.ci_method}, kept within the range the measure allows); effect '
        f'size: delta / standard deviation of the differences (paired Cohen\'s d); each pair of runs once.'),
        {3, 4, 5, 6, 8}))
    figures = _figures(cmp)
    parts.append('<h2>Plots</h2>' + (f'<div class="plots">{"".join(f"<figure>{svg}</figure>" for svg in figures)}'
                                     f'</div>' if figures else
                                     '<p class="legend">The plots are left out: matplotlib is not installed '
                                     '(pip install "irmetrics[plot]" adds it).</p>'))
    return html_page(f'irmetrics comparison: {", ".join(cmp.runs)}', parts)


def html_summary(cmp: ComparisonView, places: int = 4, show: Sequence[str] = ()) -> str:
    """The warnings, each test's table of means, runs as rows, letters as superscripts, with its legend, and the
    risk table of a comparison made with ``risk_weight`` (what a notebook shows of a comparison)."""
    return render_document(tables(cmp, places, check_show(cmp, show), 'html'), 'html', places, warning_lines(cmp))


def _figures(cmp: ComparisonView) -> list[str]:
    """Inline SVG of each measure's distribution and, against a baseline, its per-query deltas;
    none when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return []
    out = []
    for m in cmp.measures:
        out.append(figure_svg(cmp.plot_distribution(m)))
        for b in cmp.baselines:
            out.append(figure_svg(cmp.plot_deltas(m, baseline=b)))
    return out


# --- JSON, and the formats programs read ------------------------------------------------------------
def to_dict(cmp: ComparisonView, places: int | None = None) -> dict[str, Any]:
    """The settings, the warnings and every row of ``to_dataframe`` (NaN as None)."""
    s = cmp.settings
    return {'runs': list(cmp.runs), 'measures': [str(m) for m in cmp.measures], 'queries': len(cmp.query_ids),
            'baseline': cmp.baseline if len(cmp.baselines) < 2 else list(cmp.baselines),
            'tests': list(s.tests), 'correction': s.correction,
            'correction_scope': s.correction_scope, 'alpha': s.alpha, 'ci': s.ci, 'ci_method': s.ci_method,
            'n_resamples': s.n_resamples, 'seed': s.seed,
            'exact': {test: test in cmp.enumerated for test in s.tests if test in ('randomization', 'tukey')},
            'fewest_queries': cmp.fewest_queries,
            **({} if cmp.risk is None else {'risk': {'risk_weight': cmp.risk.risk_weight,
                                                     'trisk_fewest_queries': cmp.risk.fewest_queries}}),
            'warnings': list(cmp.warnings),
            'rows': [{k: json_number(v, places) for k, v in row.items()} for row in cmp.rows()]}


def delimited(frame: Any, fmt: str, places: int | None) -> str:
    """A comparison's frame as CSV or TSV, every digit unless ``places`` is given, by the records renderer
    (:func:`~irmetrics.rendering.records.render_records`: text cells as
    :func:`~irmetrics.rendering.formats.text_cell` writes them, TSV escaping a tab or newline in a name as the
    evaluation's TSV does); a missing value (None, NaN) empty and a boolean ``True``/``False``, as pandas
    writes and reads them."""
    import pandas as pd

    def cell(value: Any) -> Any:
        if value is None or value is pd.NA or (isinstance(value, float) and value != value):
            return None
        return str(value) if isinstance(value, bool) else value

    rows = [[cell(v) for v in row] for row in frame.astype(object).itertuples(index=False, name=None)]
    return render_records([str(c) for c in frame.columns], rows, fmt, -1 if places is None else places)


def render(cmp: ComparisonView, fmt: str, places: int | None = None, show: Sequence[str] = (),
           label: str = 'tab:comparison') -> str:
    """The comparison in ``fmt`` (:data:`~irmetrics.rendering.formats.FORMATS`).  The formats people read
    (4 decimals by default) show the means with their letters and legends, ``show`` adding the differences or
    p-values, and the warnings; the formats programs read hold every column already (``show`` adds nothing
    to them), every digit by default, and JSON the settings and the warnings too."""
    checked_format(fmt)
    places = checked_places(places)
    shown = check_show(cmp, show)
    if fmt in ('json', 'jsonl'):
        doc = to_dict(cmp, places)
        return (json.dumps(doc, indent=2) + '\n' if fmt == 'json' else
                ''.join(json.dumps(row) + '\n' for row in doc['rows']))
    if fmt in ('csv', 'tsv'):
        return delimited(cmp.to_dataframe(), fmt, places)
    places = 4 if places is None or places < 0 else places
    if fmt == 'table':
        return render_text(cmp, places, shown)
    if fmt == 'markdown':
        return render_markdown(cmp, places, shown)
    if fmt == 'latex':
        return render_latex(cmp, places, label, shown)
    return render_html(cmp, places, shown)
