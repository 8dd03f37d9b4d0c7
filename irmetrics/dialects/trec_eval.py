"""trec_eval's measure names, translated both ways by one table.

``parse_trec_measure('P.5,10')`` gives ``[P@5, P@10]``; ``to_trec_name(AP@10)`` gives ``('map_cut', 10)``;
``trec_lines(trec_entry('utility'), '2,-1,0,0.01', settings)`` gives the line trec_eval prints for
``-m utility.2,-1,0,0.01`` and the measure behind it.  The table lists trec_eval 10's measures in the order
trec_eval prints them (its ``measures.c``); each entry says which irmetrics measure a name is, how
trec_eval reads the parameters after the ``.`` (:class:`Form`) and which settings of an invocation
apply to it.  Those settings are not part of a name: trec_eval's relevance level ``-l``, judged-only flag
``-J`` and collection size ``-N``, and trec_eval 10's rounding of recall levels, correspond to the
parameters ``rel``, ``judged_only``, ``num_docs`` and ``rounding`` (:class:`Settings`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from ..algebra.measure import Measure
from ..algebra.params import integer_literal
from ..errors import MeasureError, UnknownMeasureError
from ..measures import (
    AP,
    DCG,
    IDCG,
    RBP,
    RR,
    YAAP,
    Bpref,
    G,
    IPrec,
    IPrecAvg,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    RBPResidual,
    RnDCG,
    Rprec,
    SetAP,
    SetF,
    SetP,
    SetR,
    Success,
    Unjudged,
    Utility,
    infAP,
    nDCG,
    nDCGRel,
)
from ..measures.prefs import APAvgJG, NumPrefs, PAvgJG, PrefsAvgJG, PrefsAvgJGRnonrel, PrefsPair, PrefsSimp, RprecAvgJG

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = tuple(i / 10 for i in range(11))
#: Parameters that are settings of a trec_eval invocation; in a preset only their presence counts.
INVOCATION_PARAMS = ('rel', 'judged_only', 'num_docs', 'rounding', 'gains')
# ASCII digits only, as C's atof and atol read them: Python's \d (and int, float) also take other
# scripts' digits ('２'), which trec_eval never reads as numbers
#: The greatest C long (x86-64): where trec_eval's atol stops a larger number.
LONG_MAX = 2 ** 63 - 1
_NUMBER = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?', re.ASCII)
_UNSIGNED = re.compile(r'\+?(\d+\.?\d*|\.\d+)', re.ASCII)      # a '+' as atol and atof allow
_GRADE = re.compile(r'[+-]?\d+', re.ASCII)


class Settings(NamedTuple):
    """The settings of one trec_eval invocation that become measure parameters.

    ``rel`` is ``-l``, ``judged_only`` ``-J``, ``num_docs`` ``-N``; ``rounding`` is how recall levels
    round (None: each measure's own default; ``irmetrics trec_eval`` uses ``'trec_eval_10'``).
    """

    rel: int = 1
    judged_only: bool = False
    num_docs: int = 0
    rounding: str | None = None

    def params(self, names: Sequence[str]) -> dict[str, Any]:
        """The parameters among ``names`` that these settings set (those not at trec_eval's defaults)."""
        given = {'rel': self.rel if self.rel != 1 else None, 'judged_only': self.judged_only or None,
                 'num_docs': self.num_docs or None, 'rounding': self.rounding}
        return {n: given[n] for n in names if given[n] is not None}


#: trec_eval's defaults (no -l, -J, -N).
DEFAULT_SETTINGS = Settings()


# --- how trec_eval reads the parameters after a name's '.' ------------------------------------------
class Form:
    """How trec_eval reads a measure's parameters (``P.5,10``) and names the lines it prints."""

    params: tuple[str, ...] = ()

    def lines(self, entry: TrecName, text: str | None) -> list[tuple[str, dict[str, Any]]]:
        """(printed name, parameters) of each line ``-m entry.trec[.text]`` prints."""
        return [(entry.trec, {})]

    def name(self, entry: TrecName, measure: Measure) -> str:
        """The name trec_eval prints for ``measure`` (found to be this entry's)."""
        return entry.trec

    def value(self, measure: Measure) -> Any:
        """The value of the parameter trec_eval's list sets (None when it sets none or several)."""
        return None

    def syntax(self) -> str:
        """How the parameters are written after the '.', for the documentation ('' when none)."""
        return ''


class Cutoffs(Form):
    """A list of positive integers, one line each, sorted (``P.5,10``: ``P_5``, ``P_10``)."""

    def __init__(self, param: str, defaults: tuple[Any, ...]):
        self.param, self.defaults = param, defaults

    @property
    def params(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.param,)

    def lines(self, entry: TrecName, text: str | None) -> list[tuple[str, dict[str, Any]]]:
        values = self.defaults if text is None else sorted(_list(entry, text, _UNSIGNED, self._parse))
        _no_repeats(entry, values)
        return [(self._label(entry, v), {self.param: v}) for v in values]

    @staticmethod
    def _parse(item: str) -> int | float:
        # a cutoff such as 5.5 stays a float, so that validation refuses it with a MeasureError; one
        # beyond a C long is LONG_MAX, as trec_eval's atol reads it
        digits = item.removeprefix('+')
        return min(integer_literal(digits), LONG_MAX) if digits.isdigit() else float(digits)

    def _label(self, entry: TrecName, value: Any) -> str:
        return f'{entry.trec}_{value}'

    def name(self, entry: TrecName, measure: Measure) -> str:
        return self._label(entry, measure[self.param])

    def value(self, measure: Measure) -> Any:
        return measure[self.param]

    def syntax(self) -> str:
        return f'<{self.param} list>'


class Levels(Cutoffs):
    """A list of numbers, one line each, sorted, named with two decimals (``iprec_at_recall_0.25``)."""

    @staticmethod
    def _parse(item: str) -> int | float:
        return float(item)

    def _label(self, entry: TrecName, value: Any) -> str:
        return f'{entry.trec}_{value:.2f}'              # trec_eval's "%s_%3.2f"


class Values(Form):
    """A list of numbers for one line, named with the list as given (``utility_2,-1,0,0.01``);
    ``as_tuple``: every number goes into one list parameter (11pt_avg's levels)."""

    def __init__(self, names: tuple[str, ...], as_tuple: bool = False):
        self.names, self.as_tuple = names, as_tuple

    @property
    def params(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.names

    def lines(self, entry: TrecName, text: str | None) -> list[tuple[str, dict[str, Any]]]:
        if text is None:
            return [(entry.trec, {})]
        numbers = _list(entry, text, _NUMBER, float)
        if self.as_tuple:
            return [(f'{entry.trec}_{text}', {self.names[0]: tuple(numbers)})]
        if len(numbers) != len(self.names):
            raise MeasureError(f'trec_eval measure {entry.trec!r} takes {len(self.names)} parameter(s) '
                               f'({", ".join(self.names)}), not {len(numbers)}: {text!r}')
        return [(f'{entry.trec}_{text}', dict(zip(self.names, numbers, strict=True)))]

    def name(self, entry: TrecName, measure: Measure) -> str:
        given = [n for n in self.names if n in measure.params]
        if not given:
            return entry.trec
        values = measure[self.names[0]] if self.as_tuple else [measure[n] for n in self.names]
        return f'{entry.trec}_' + ','.join(_number(v) for v in values)

    def value(self, measure: Measure) -> Any:
        return measure[self.names[0]] if len(self.names) == 1 else None

    def syntax(self) -> str:
        return f'<{self.names[0]} list>' if self.as_tuple else ','.join(f'<{n}>' for n in self.names)


class Pairs(Form):
    """``name=value`` pairs for one line: integer names give a grade its gain, other names are the
    parameters listed (``rbp.p=0.8,2=3``); named with the pairs as given."""

    def __init__(self, named: tuple[str, ...] = (), gains: bool = True):
        self.named, self.gains = named, gains

    @property
    def params(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.named + (('gains',) if self.gains else ())

    def lines(self, entry: TrecName, text: str | None) -> list[tuple[str, dict[str, Any]]]:
        if text is None:
            return [(entry.trec, {})]
        params: dict[str, Any] = {}
        gains: dict[int, float] = {}
        for item in text.split(','):
            key, sep, number = item.partition('=')
            key, number = key.strip(), number.strip()
            if not sep or not _NUMBER.fullmatch(number):
                raise MeasureError(f'invalid parameter {item!r} in trec_eval measure {entry.trec!r}: '
                                   f'expected name=number')
            if self.gains and _GRADE.fullmatch(key):
                grade = integer_literal(key)
                if grade in gains:
                    raise MeasureError(f'grade {key} given twice in trec_eval measure {entry.trec!r}')
                gains[grade] = float(number)
            elif key in self.named and key not in params:
                params[key] = float(number)
            else:
                accepted = ', '.join((['<grade>'] if self.gains else []) + list(self.named))
                raise MeasureError(f'trec_eval measure {entry.trec!r} has no parameter {key!r} '
                                   f'(parameters: {accepted})')
        if gains:
            params['gains'] = gains
        return [(f'{entry.trec}_{text}', params)]

    def syntax(self) -> str:
        return ','.join([f'{n}=<{n}>' for n in self.named] + (['<grade>=<gain>,...'] if self.gains else []))

    def name(self, entry: TrecName, measure: Measure) -> str:
        trec_default = {k: entry.preset.get(k, measure.definition.param(k).default) for k in self.named}
        parts = [f'{k}={_number(measure[k])}' for k in self.named if measure[k] != trec_default[k]]
        gains = measure['gains'] if self.gains and isinstance(measure['gains'], tuple) else ()
        parts += [f'{g}={_number(v)}' for g, v in gains]
        return f'{entry.trec}_' + ','.join(parts) if parts else entry.trec


def _number(value: float) -> str:
    """A number as it reads back exactly, without a trailing '.0' (0.5, 2, 0.1234567, 1e-07)."""
    text = repr(float(value))
    return text[:-2] if text.endswith('.0') else text


def _list(entry: TrecName, text: str, pattern: re.Pattern[str], convert: Callable[[str], Any]) -> list[Any]:
    items = [item.strip() for item in text.split(',')]
    for item in items:
        if not pattern.fullmatch(item):
            raise MeasureError(f'invalid parameter {item!r} in trec_eval measure {entry.trec!r}')
    return [convert(item) for item in items]


def _no_repeats(entry: TrecName, values: Sequence[Any]) -> None:
    repeated = sorted(v for v, times in Counter(values).items() if times > 1)     # counted once: linear
    if repeated:
        raise MeasureError(f'trec_eval measure {entry.trec!r}: parameter {repeated[0]!r} given twice '
                           f'(trec_eval refuses duplicate cutoffs)')


class TrecName(NamedTuple):
    """A trec_eval measure: its name, the irmetrics measure it is, how trec_eval reads its parameters
    (``form``), the parameters the name fixes (``preset``) and the invocation settings it takes.

    ``measure`` is None for the two lines that are not measures (``runid``, ``relstring``); ``lines``
    says whether trec_eval prints the measure per query and in the summary (``'both'``), only in the
    summary (``'summary'``) or only per query (``'query'``); ``unsupported`` says why irmetrics does
    not compute it; ``judgments`` which judgments it reads (trec_eval's ``-R``: ``'qrels'``, ``'prefs'``
    for prefs and qrels_prefs, ``'qrels_jg'``; ``'any'`` for runid and num_q).
    """

    trec: str
    measure: Measure | None
    form: Form = Form()
    preset: Mapping[str, Any] = MappingProxyType({})
    settings: tuple[str, ...] = ()
    lines: str = 'both'
    unsupported: str = ''
    judgments: str = 'qrels'


_L, _J, _LJ = ('rel',), ('judged_only',), ('rel', 'judged_only')
_GAINS = Pairs()
_PREF_NAMES = (('prefs_num_prefs_poss', NumPrefs), ('prefs_num_prefs_ful', NumPrefs(what='fulfilled')),
               ('prefs_num_prefs_ful_ret', NumPrefs(what='fulfilled_ret')), ('prefs_simp', PrefsSimp),
               ('prefs_pair', PrefsPair), ('prefs_avgjg', PrefsAvgJG), ('prefs_avgjg_Rnonrel', PrefsAvgJGRnonrel),
               ('prefs_simp_ret', PrefsSimp(pairs='ret')), ('prefs_pair_ret', PrefsPair(pairs='ret')),
               ('prefs_avgjg_ret', PrefsAvgJG(pairs='ret')),
               ('prefs_avgjg_Rnonrel_ret', PrefsAvgJGRnonrel(pairs='ret')),
               ('prefs_simp_imp', PrefsSimp(pairs='imp')), ('prefs_pair_imp', PrefsPair(pairs='imp')),
               ('prefs_avgjg_imp', PrefsAvgJG(pairs='imp')))

TREC_NAMES = (
    TrecName('runid', None, lines='summary', judgments='any'),
    TrecName('num_q', NumQ, lines='summary', judgments='any'),
    TrecName('num_ret', NumRet, settings=_J),
    TrecName('num_rel', NumRel, settings=_L),
    TrecName('num_rel_ret', NumRet, preset={'rel': 1}, settings=_L),
    TrecName('map', AP, settings=_LJ),
    TrecName('gm_map', AP, preset={'agg': 'gmean'}, settings=_LJ, lines='summary'),
    TrecName('Rprec', Rprec, settings=_LJ),
    TrecName('bpref', Bpref, settings=_L),
    TrecName('recip_rank', RR, settings=_LJ),
    TrecName('iprec_at_recall', IPrec, Levels('recall', _RECALL_LEVELS), settings=_LJ + ('rounding',)),
    TrecName('P', P, Cutoffs('cutoff', _CUTOFFS), settings=_LJ),
    TrecName('relstring', None, Values(('depth',)), settings=_J, lines='query'),
    TrecName('recall', R, Cutoffs('cutoff', _CUTOFFS), settings=_LJ),
    TrecName('infAP', infAP, settings=_LJ),
    TrecName('gm_bpref', Bpref, preset={'agg': 'gmean'}, settings=_L, lines='summary'),
    TrecName('Rprec_mult', Rprec, Levels('mult', tuple(i / 5 for i in range(1, 11))), settings=_LJ),
    TrecName('utility', Utility, Values(('rel_ret', 'nonrel_ret', 'rel_unret', 'nonrel_unret')),
             settings=_LJ + ('num_docs',)),
    TrecName('11pt_avg', IPrecAvg, Values(('levels',), as_tuple=True), settings=_LJ + ('rounding',)),
    TrecName('binG', G, preset={'rel': 1}, settings=_LJ),
    TrecName('G', G, _GAINS, settings=_J),
    TrecName('dcg', DCG, _GAINS, settings=_J),
    TrecName('ideal_dcg', IDCG, _GAINS),
    TrecName('ndcg', nDCG, _GAINS, settings=_J),
    TrecName('ndcg_rel', nDCGRel, _GAINS, settings=_J),
    TrecName('Rndcg', RnDCG, _GAINS, settings=_LJ),
    TrecName('ndcg_cut', nDCG, Cutoffs('cutoff', _CUTOFFS), settings=_J),
    TrecName('map_cut', AP, Cutoffs('cutoff', _CUTOFFS), settings=_LJ),
    TrecName('relative_P', P, Cutoffs('cutoff', _CUTOFFS), preset={'relative': True}, settings=_LJ),
    TrecName('success', Success, Cutoffs('cutoff', (1, 5, 10)), settings=_LJ),
    TrecName('set_P', SetP, settings=_LJ),
    TrecName('set_relative_P', SetP, preset={'relative': True}, settings=_LJ),
    TrecName('set_recall', SetR, settings=_L),
    TrecName('set_map', SetAP, settings=_LJ),
    TrecName('set_F', SetF, Values(('beta',)), settings=_LJ),
    TrecName('num_nonrel_judged_ret', NumRet, preset={'judged_nonrel': True}, settings=_L),
    *(TrecName(name, measure.definition.bare, preset=dict(measure.params), judgments='prefs')
      for name, measure in _PREF_NAMES),
    TrecName('map_avgjg', APAvgJG, settings=_LJ, judgments='qrels_jg'),
    TrecName('P_avgjg', PAvgJG, Cutoffs('cutoff', _CUTOFFS), settings=_LJ, judgments='qrels_jg'),
    TrecName('Rprec_mult_avgjg', RprecAvgJG, Levels('mult', tuple(i / 5 for i in range(1, 11))), settings=_LJ,
             judgments='qrels_jg'),
    TrecName('yaap', YAAP, settings=_LJ),
    TrecName('rbp', RBP, Pairs(('p',)), preset={'max_rel': 'query', 'p': 0.9}, settings=_J),
    TrecName('rbp_resid', RBPResidual, Pairs(('p',), gains=False), preset={'tail': 'if_unjudged', 'p': 0.9},
             settings=_J),
    TrecName('unj', Unjudged, Cutoffs('cutoff', (5, 10, 20)), settings=_J),
)


def _check_table(entries: Sequence[TrecName]) -> None:
    """Each entry's preset, parameter list and settings name parameters of its measure, with valid
    preset values: a misspelt name fails when this module is imported, not when a user asks for it."""
    for entry in entries:
        if entry.measure is None:
            continue
        for name in (*entry.preset, *entry.form.params, *entry.settings):
            if not entry.measure.definition.has_param(name):
                raise TypeError(f'trec_eval name {entry.trec!r}: {entry.measure.name} has no parameter {name!r}')
        entry.measure(**{k: v for k, v in entry.preset.items() if k not in entry.form.params})


_check_table(TREC_NAMES)
_BY_TREC = {t.trec: t for t in TREC_NAMES}
#: the names, longest first: the order ``P_5,10``'s name is looked for in (sorted once, not for every word)
_LONGEST_FIRST = tuple(sorted(_BY_TREC, key=len, reverse=True))

#: trec_eval's measure sets (its nicknames), as trec_eval 10 lists them.
NICKNAMES = {
    'official': ('runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref',
                 'recip_rank', 'iprec_at_recall', 'P'),
    'set': ('runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'utility', 'set_P', 'set_recall',
            'set_relative_P', 'set_map', 'set_F'),
    'all_trec': ('runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref',
                 'recip_rank', 'iprec_at_recall', 'P', 'relstring', 'recall', 'unj', 'rbp', 'rbp_resid', 'infAP',
                 'gm_bpref', 'utility', '11pt_avg', 'ndcg', 'relative_P', 'Rprec_mult', 'success', 'map_cut',
                 'ndcg_cut', 'ndcg_rel', 'Rndcg', 'binG', 'G', 'set_P', 'set_recall', 'set_relative_P',
                 'set_map', 'set_F', 'num_nonrel_judged_ret'),
    'all_prefs': ('runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret',
                  'prefs_simp', 'prefs_pair', 'prefs_avgjg', 'prefs_avgjg_Rnonrel', 'prefs_simp_ret',
                  'prefs_pair_ret', 'prefs_avgjg_ret', 'prefs_avgjg_Rnonrel_ret', 'prefs_simp_imp',
                  'prefs_pair_imp', 'prefs_avgjg_imp'),
    'prefs': ('runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret',
              'prefs_simp', 'prefs_pair', 'prefs_avgjg'),
    'qrels_jg': ('runid', 'num_q', 'map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'),
}


def trec_entry(name: str) -> TrecName:
    """The table entry of a trec_eval measure name (exactly as trec_eval spells it)."""
    if name in _BY_TREC:
        return _BY_TREC[name]
    raise _UnknownTrecName(name)


class _UnknownTrecName(UnknownMeasureError):
    """An unknown trec_eval name; the closest names are looked for only when the message is read
    (the command line tries every measure as a trec_eval name first, and most are not)."""

    def __init__(self, name: str):
        super().__init__(f'unknown trec_eval measure {name!r}')
        self.name = name

    def __str__(self) -> str:
        import difflib
        close = difflib.get_close_matches(self.name, list(_BY_TREC) + list(NICKNAMES), n=3, cutoff=0.5)
        return super().__str__() + (f'; did you mean {", ".join(close)}?' if close else '')


def trec_lines(entry: TrecName, text: str | None, settings: Settings = DEFAULT_SETTINGS) -> list[tuple[str, Any]]:
    """(printed name, measure) of each line trec_eval prints for ``-m entry.trec[.text]``.

    For the lines that are not measures (``runid``, ``relstring``) the second item is the dictionary of
    parameters read from ``text``.
    """
    if entry.unsupported:
        raise MeasureError(f'trec_eval measure {entry.trec!r} {entry.unsupported}')
    out: list[tuple[str, Any]] = []
    for name, params in entry.form.lines(entry, text):
        if entry.measure is None:
            out.append((name, params))
            continue
        measure = entry.measure(**{**entry.preset, **params, **settings.params(entry.settings)})
        out.append((name, measure.check_complete()))
    return out


def _split(text: str) -> tuple[TrecName, str | None]:
    """The entry ``text`` names and its parameter list: trec_eval's ``P.5,10`` (split at the first '.'),
    and also ``P_5,10`` (the longest name followed by '_')."""
    if text in _BY_TREC:
        return _BY_TREC[text], None
    name, dot, params = text.partition('.')
    if dot and name in _BY_TREC:
        return _BY_TREC[name], params
    for base in _LONGEST_FIRST:
        if text.startswith(base) and text[len(base):len(base) + 1] == '_':
            return _BY_TREC[base], text[len(base) + 1:]
    return trec_entry(name), None


def parse_trec_measure(text: str) -> list[Measure]:
    """Measures for a trec_eval measure name: ``map``, ``P_5,10``, ``P.5,10``, ``ndcg_cut_10``, ``official``.

    A nickname gives the measures of its set; the lines of trec_eval's output that are not measures
    (``runid``, ``relstring``) are left out.

    Parameters
    ----------
    text : str
        A trec_eval measure name, with its parameters after ``_`` or ``.``, or a nickname.

    Returns
    -------
    list of Measure
        The measures the name stands for (several for ``P`` or ``official``).

    Raises
    ------
    MeasureError
        For parameters given to a measure that takes none, and for a line of trec_eval's output that is
        not a measure (``runid``).
    UnknownMeasureError
        For a name trec_eval does not know.

    Examples
    --------
    >>> irmetrics.parse_trec_measure('P.5,10'), irmetrics.parse_trec_measure('ndcg_cut_10')
    ([P@5, P@10], [nDCG@10])
    """
    text = text.strip()
    if text in NICKNAMES:
        out: list[Measure] = []
        for name in NICKNAMES[text]:
            entry = _BY_TREC[name]
            if entry.measure is not None or entry.unsupported:
                out += [m for m in parse_trec_measure(name) if m not in out]
        return out
    entry, params = _split(text)
    if params is not None and type(entry.form) is Form:
        raise MeasureError(f'trec_eval measure {entry.trec!r} takes no parameters')
    if entry.measure is None and not entry.unsupported:
        raise MeasureError(f'{entry.trec!r} is a line of trec_eval\'s output, not a measure: '
                           f'see irmetrics trec_eval')
    return [m for _, m in trec_lines(entry, params)]


def _matches(entry: TrecName, measure: Measure) -> bool:
    """Whether ``entry`` computes ``measure``, up to invocation settings."""
    if entry.measure is None or entry.measure.definition is not measure.definition:
        return False
    for key, value in entry.preset.items():
        if key in INVOCATION_PARAMS and key not in entry.form.params:
            if key not in measure.params:
                return False
        elif key not in entry.form.params and measure[key] != value:
            return False
    covered = set(entry.preset) | set(entry.form.params) | set(INVOCATION_PARAMS)
    if not set(measure.params) <= covered:
        return False
    return not isinstance(entry.form, Cutoffs) or entry.form.param in measure.params


def to_trec_name(measure: Measure) -> tuple[str, Any] | None:
    """(trec_eval base name, parameter value or None) computing ``measure`` up to invocation settings."""
    entry = trec_entry_of(measure)
    return None if entry is None else (entry.trec, entry.form.value(measure))


def trec_entry_of(measure: Measure) -> TrecName | None:
    """The most specific entry computing ``measure`` (the one with the most preset parameters), or None."""
    found = [e for e in TREC_NAMES if _matches(e, measure)]
    return max(found, key=lambda e: len(e.preset), default=None)


def trec_output_name(measure: Measure) -> str | None:
    """The name trec_eval prints for ``measure`` (``P_5``, ``map``, ``iprec_at_recall_0.10``), or None.

    Invocation settings (``rel``, ``judged_only``, ``num_docs``, ``rounding``, ``gains``) do not appear in
    trec_eval's names, so ``P(rel=2)@5`` prints as ``P_5``, as under ``trec_eval -l2``.
    """
    entry = trec_entry_of(measure)
    return None if entry is None else entry.form.name(entry, measure)
