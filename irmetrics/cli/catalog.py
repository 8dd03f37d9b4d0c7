"""What irmetrics knows about its measures and providers, as text and as Markdown.

Everything here is read from the measure definitions (:mod:`irmetrics.measures`), the alias
registry, the trec_eval name table and the providers' declared patterns, so ``irmetrics
measures``, ``irmetrics providers`` and the generated ``docs/measures.md`` can never drift from
the code.  Nothing depends on which optional engines are installed except the ``installed``
column of ``irmetrics providers``.
"""
from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from typing import Any

from ..algebra.measure import COMPUTED, REGISTRY, Measure, MeasureDef
from ..algebra.params import NOT_PROVIDED, REQUIRED, Param
from ..errors import MeasureError, UnknownMeasureError
from ..measures.prefs import JUDGMENT_GROUP_MEASURES, PREFERENCE_MEASURES
from ..providers.base import ANY, PROVIDERS, Provider
from ..rendering.text import text_table, wrapped_table

TIES = 'score descending (compared as doubles), ties by document id descending (byte-wise), as trec_eval'
WIDTH = 100


#: What the catalogue says of a measure that is not computed per query (MeasureDef.scope).
_SCOPES = {
    'run': 'Computed from the whole run at once: one value per run, not a mean over queries.',
}


# --- facts about one measure family ---------------------------------------------------------
def definitions() -> list[MeasureDef]:
    """Every registered measure family, in alphabetical order."""
    return sorted(REGISTRY.definitions(), key=lambda d: (d.name.lower(), d.name))


def param_default(param: Param) -> str:
    if param.default is REQUIRED:
        return 'required'
    if param.default is NOT_PROVIDED:
        return 'not set'
    return param.constraint.repr_value(param.default)


def param_brief(defn: MeasureDef, param: Param) -> str:
    """``@cutoff``, ``@cutoff (required)``, ``rel=1``, ``gains``: a parameter in one word or two."""
    name = f'@{param.name}' if param.name == defn.at_param else param.name
    if param.default is REQUIRED:
        return f'{name} (required)'
    if param.default is NOT_PROVIDED:
        return name
    return f'{name}={param.constraint.repr_value(param.default)}'


def aliases_of(defn: MeasureDef) -> list[str]:
    """Alias names, with the preset parameters of those that have some: ``NumRelRet = NumRet(rel=1)``."""
    out = []
    for name, measure in REGISTRY.aliases().items():
        if measure.definition is defn:
            out.append(name if not measure.params else f'{name} = {measure!r}')
    return out


def trec_names_of(defn: MeasureDef) -> list[str]:
    """trec_eval names computing this family: ``map``, ``map_cut.<cutoff list>``, ``gm_map (agg='gmean')``."""
    from ..dialects.trec_eval import TREC_NAMES
    out = []
    for entry in TREC_NAMES:
        if entry.measure is not None and entry.measure.definition is defn:
            preset = ', '.join(f'{k}={v!r}' for k, v in entry.preset.items() if k != 'rel')
            syntax = entry.form.syntax()
            label = entry.trec + (f'.{syntax}' if syntax else '')
            out.append(label + (f' ({preset})' if preset else ''))
    return out


@dataclass(frozen=True)
class Support:
    """A provider that computes a measure family, and which parameters it accepts (None: all)."""

    provider: Provider
    params: tuple[str, ...] | None

    def describe(self) -> str:
        if self.params is None:
            return self.provider.name
        if not self.params:
            return f'{self.provider.name} (default parameters only)'
        return f'{self.provider.name} (parameters {", ".join(self.params)})'


def providers_of(defn: MeasureDef) -> list[Support]:
    """The providers declaring a pattern for this family, with the parameters they accept."""
    out = []
    all_params = {p.name for p in defn.params}
    for provider in PROVIDERS:
        patterns = [p for p in provider.patterns if p.name == defn.name]
        if not patterns:
            continue
        accepted = set().union(*(p.accepted for p in patterns))
        full = accepted >= all_params and all(p.accepted.get(k) is ANY for p in patterns for k in p.accepted)
        out.append(Support(provider, None if full else tuple(sorted(accepted & all_params))))
    return out


#: The order of a ranking for the preference measures (form_prefs_counts.c).
PREFERENCE_TIES = 'score descending (compared as doubles), ties by document id ascending (byte-wise), as trec_eval ' \
    'orders a ranking for preferences'


def conventions_of(defn: MeasureDef) -> list[str]:
    """The conventions (DESIGN.md's table) as they apply to this family, one sentence each."""
    names = {p.name for p in defn.params}
    if defn in PREFERENCE_MEASURES:
        return [f'Ranking: {PREFERENCE_TIES}; the rank column of a run is ignored.',
                'Judgments: preferences (irmetrics.read_trec_prefs; trec_eval -R prefs or -R qrels_prefs).',
                'A query of the judgments missing from the run is evaluated on an empty ranking (trec_eval -c); '
                'queries only in the run are ignored.',
                'Aggregate: the sum over queries.' if defn.aggregate == 'sum' else 'Aggregate: the mean over queries.',
                f'Range: {"unbounded values" if defn.bounds is None else "values in [0, 1]"}; higher is better.']
    out = [f'Ranking: {TIES}; the rank column of a run is ignored.']
    if 'rel' in names:
        default = defn.param('rel').default
        if default is NOT_PROVIDED:
            out.append('Relevant: see the rel parameter.')
        else:
            out.append(f'Relevant: grade >= rel (default {default}); negative grades are judged non-relevant.')
    if defn.missing_value is COMPUTED:
        out.append('A query of the qrels missing from the run is evaluated as an empty ranking '
                   '(trec_eval -c).')
    else:
        out.append(f'A query of the qrels missing from the run scores {defn.missing_value:g}; '
                   'queries only in the run are ignored.')
    if defn.skips_undefined:
        out.append('Queries on which the measure is undefined are left out of the per-query results '
                   'and of the mean.')
    if defn.scope != 'query':
        out.append(_SCOPES[defn.scope])
    elif defn.aggregate == 'sum':
        out.append('Aggregate: the sum over queries.')
    elif defn.has_param('agg'):
        out.append("Aggregate: the mean over queries; with agg='gmean' the geometric mean, each value floored "
                   'at 1e-5.')
    else:
        out.append('Aggregate: the mean over queries.')
    bounds = f'values in [{defn.bounds[0]:g}, {defn.bounds[1]:g}]' if defn.bounds else 'unbounded values'
    out.append(f'Range: {bounds}; {"higher" if defn.higher_is_better else "lower"} is better.')
    return out


def find_definition(name: str) -> MeasureDef:
    """The definition for a family name, an alias, a measure string (``nDCG@10``, ``BPM(T=2)``) or a
    trec_eval name (``ndcg_cut``)."""
    import re

    from ..dialects import parse_measure
    from ..dialects.trec_eval import parse_trec_measure
    if name in REGISTRY:
        return REGISTRY.lookup(name).definition
    for parse in (parse_measure, parse_trec_measure):
        try:
            found = parse(name)
        except MeasureError:
            continue
        return (found if isinstance(found, Measure) else found[0]).definition
    head = re.match(r'[^\W\d]\w*', name)            # a family name with incomplete parameters
    if head and head.group() in REGISTRY:
        return REGISTRY.lookup(head.group()).definition
    raise UnknownMeasureError(f'unknown measure {name!r}{REGISTRY.suggest(name)}')


# --- text for the terminal -------------------------------------------------------------------
def measures_table() -> str:
    rows = []
    for defn in definitions():
        rows.append([defn.name, ', '.join(param_brief(defn, p) for p in defn.params) or '-',
                     ', '.join(aliases_of(defn)) or '-',
                     ', '.join(s.provider.name for s in providers_of(defn)) or '-'])
    return fitted_table(['measure', 'parameters', 'aliases', 'providers'], rows)


def labelled(label: str, text: str, indent: int = 14) -> str:
    """``label`` then ``text`` wrapped in a column ``indent`` characters in."""
    body = _fill(text, WIDTH, initial_indent=' ' * indent, subsequent_indent=' ' * indent)
    return label.ljust(indent) + body[indent:] if len(label) < indent else f'{label}\n{body}'


def measure_text(defn: MeasureDef) -> str:
    """One measure's page for ``irmetrics measures NAME`` (like ``trec_eval -h -m NAME``)."""
    lines = [f'{defn.name}: {defn.summary}', '', labelled('formula', defn.formula), '', 'parameters']
    if not defn.params:
        lines.append('  (none)')
    for p in defn.params:
        head = f'  {param_brief(defn, p)}'
        lines.append(head)
        default = param_default(p) if p.default is REQUIRED else (
            'optional' if p.default is NOT_PROVIDED else f'default {param_default(p)}')
        lines.append(_fill(f'{p.doc} ({p.constraint.description}; {default})', WIDTH,
                                   initial_indent=' ' * 6, subsequent_indent=' ' * 6))
    lines.append('')
    lines.append(labelled('aliases', ', '.join(aliases_of(defn)) or '-'))
    lines.append(labelled('trec_eval', ', '.join(trec_names_of(defn)) or '-'))
    lines.append(labelled('providers', '; '.join(s.describe() for s in providers_of(defn)) or '-'))
    lines.append(labelled('tied docs', ties_of(defn)))
    lines += ['', 'conventions']
    for sentence in conventions_of(defn) + ([defn.notes] if defn.notes else []):
        lines.append(_fill(sentence, WIDTH, initial_indent='  - ', subsequent_indent='    '))
    if defn.citation:
        lines += ['', labelled('citation', defn.citation)]
    return '\n'.join(lines) + '\n'


#: What each :data:`~irmetrics.algebra.measure.TIE_ORDERS` value means for a user.
_TIES = {
    'irrelevant': "the value does not depend on the order of tied documents (ties='expected' gives the same)",
    'expected': "ties='expected' gives the exact expectation over every order of tied documents; irmetrics ties "
                'also gives the lowest and highest value over them',
    'monotone': "no closed form of the expectation over tie orders is known (ties='expected' is refused); "
                'irmetrics ties gives the lowest and highest value over them',
    'unknown': "ties='expected' is refused and the lowest and highest value over tie orders are not known",
}


def ties_of(defn: MeasureDef) -> str:
    """How the family's values depend on the order of tied documents, in a sentence."""
    return _TIES[defn.tie_order]


def providers_table() -> str:
    rows = []
    for provider in PROVIDERS:
        families = sorted({p.name for p in provider.patterns}, key=str.lower)
        rows.append([provider.name, 'yes' if provider.is_available() else 'no', provider.install,
                     provider.description, str(len(families))])
    return fitted_table(['provider', 'installed', 'install', 'description', 'measures'], rows, numeric_from=4)


def fitted_table(header: list[str], rows: list[list[str]], numeric_from: int | None = None) -> str:
    """The table wrapped to the terminal's width (COLUMNS, or the terminal's own); whole lines when
    the output goes to a file or a pipe, for grep."""
    width = shutil.get_terminal_size((0, 0)).columns
    return wrapped_table(header, rows, width, numeric_from) if width else text_table(header, rows, numeric_from)


# --- Markdown for docs/measures.md ------------------------------------------------------------
def _anchor(name: str) -> str:
    """The anchor GitHub gives the heading ``## name``: lower case, letters, digits, '-' and '_' kept."""
    return ''.join(c for c in name.lower().replace(' ', '-') if c.isalnum() or c in '-_')


def measures_markdown() -> str:
    """The measure reference, generated from the definitions (see :mod:`irmetrics.docs`)."""
    defs = definitions()
    out = ['# Measure reference', '',
           '<!-- Generated from the measure definitions by `python -m irmetrics.docs`; do not edit by hand. -->',
           '',
           'Every measure irmetrics knows, with its formula, parameters and defaults, aliases, trec_eval '
           'names, citation and the providers (engines) that compute it. `irmetrics measures NAME` prints '
           'the same entry in a terminal. Parameters are given in call syntax, the one marked `@` also '
           'with `@`: `nDCG(dcg=\'exp-log2\')@10`, `P(rel=2)@5`. The conventions that hold for every measure '
           '(ranking, missing queries, duplicates) are explained in [conventions.md](conventions.md).', '',
           '| measure | summary |', '|---|---|']
    out += [f'| [{d.name}](#{_anchor(d.name)}) | {_md_cell(d.summary)} |' for d in defs]
    out += ['', '## Providers', '', '| provider | install | description |', '|---|---|---|']
    out += [f'| `{p.name}` | {_md_cell(p.install)} | {_md_cell(p.description)} |' for p in PROVIDERS]
    for d in defs:
        out += _measure_entry(d)
    out += ['', '# Measures of preference judgments and judgment groups', '',
            "These measures read other judgments than qrels: trec_eval's preference judgments "
            '(`irmetrics.read_trec_prefs`, `trec_eval -R prefs` or `-R qrels_prefs`) or several sets of qrels '
            'per query (`irmetrics.read_trec_qrels_jg`, `-R qrels_jg`). `irmetrics.calc` computes them when '
            'given such judgments and refuses them with qrels; see [cli.md](cli.md#preferences-and-judgment-groups).']
    for d in PREFERENCE_MEASURES + JUDGMENT_GROUP_MEASURES:
        out += _measure_entry(d)
    return '\n'.join(out) + '\n'


def _measure_entry(d: MeasureDef) -> list[str]:
    """The lines of one measure's section of the measure reference: formula, parameters, names, providers."""
    out = ['', f'## {d.name}', '', d.summary, '', '```text', _fill(d.formula, WIDTH), '```', '']
    out += _parameter_rows(d) if d.params else ['No parameters.']
    out.append('')
    out.append(f'- **Aliases:** {", ".join(f"`{a}`" for a in aliases_of(d)) or "none"}')
    out.append(f'- **trec_eval:** {", ".join(f"`{t}`" for t in trec_names_of(d)) or "none"}')
    out.append(f'- **Providers:** {"; ".join(s.describe() for s in providers_of(d)) or "none"}')
    out.append(f'- **Tied documents:** {ties_of(d)}')
    if d.citation:
        out.append(f'- **Citation:** {d.citation}')
    out += ['', '**Conventions**', '']
    out += [f'- {c}' for c in conventions_of(d) + ([d.notes] if d.notes else [])]
    return out


def _parameter_rows(d: MeasureDef) -> list[str]:
    """The Markdown table of ``d``'s parameters: name (``@`` for the at-parameter), type, default, meaning."""
    out = ['| parameter | type | default | meaning |', '|---|---|---|---|']
    for p in d.params:
        name = f'`@{p.name}`' if p.name == d.at_param else f'`{p.name}`'
        default = param_default(p)
        default = default if p.default is REQUIRED or p.default is NOT_PROVIDED else f'`{default}`'
        out.append(f'| {name} | {_md_cell(p.constraint.description)} | {default} | {_md_cell(p.doc)} |')
    return out


def _fill(text: str, width: int, **kwargs: Any) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False, **kwargs)


def _md_cell(text: str) -> str:
    return text.replace('|', '\\|').replace('\n', ' ')
