"""``irmetrics trec_eval``: trec_eval 10's command line and output, computed by irmetrics.

    irmetrics trec_eval [-q] [-n] [-c] [-J] [-l LEVEL] [-M DEPTH] [-N DOCS] [-Z FILE] [-m MEASURE[.PARAMS]]...
                        QRELS RUN

The options are trec_eval's (:data:`OPTIONS`, read as GNU getopt reads them); the output is trec_eval's,
byte for byte: the measures in trec_eval's order, queries in trec_eval's order, then ``all``.  Each
trec_eval measure is an irmetrics measure (:mod:`irmetrics.dialects.trec_eval`), and the invocation's settings
become its parameters (``-l`` rel, ``-J`` judged_only, ``-N`` num_docs, trec_eval 10's rounding of recall
levels); a qrels grade is read as trec_eval reads it (C's ``atol``: ``2.7`` is 2), and ``-Z`` turns the values
into z-scores (:mod:`.trec_zscores`).  What is trec_eval's own arithmetic rather than a measure is done here and
said where: the run cut to ``-M`` documents, queries missing from the run (``-c``), the ``-nan`` of an empty
ranking's interpolated precision, num_rel's summary under ``-c``, ``runid`` and ``relstring``, rbp and rbp_resid
at p = 0 and 1.
"""
from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..algebra.measure import Measure, MeasureDef
from ..api.evaluator import Evaluator
from ..data import ids
from ..data.ids import Ids
from ..data.qrels import Qrels
from ..data.run import Run
from ..dialects.trec_eval import LONG_MAX, NICKNAMES, TREC_NAMES, Settings, TrecName, trec_entry, trec_lines
from ..errors import InputError, MeasureError
from ..measures import NumRel, NumRet, Unjudged
from .args import UsageError
from .gnu_getopt import GetoptError, Option, parse
from .trec_layout import Column, floored_logs, padded, sequential_summary, trec_order, write
from .trec_zscores import ZScores, read_zscores

HINT = 'irmetrics trec_eval -h'
#: trec_eval 10's options (its getopt string "hvqm:cl:nD:JN:M:R:T:oZ:" and long-option table).
OPTIONS = (
    Option('h', 'help', False), Option('v', 'version', False), Option('q', 'query_eval_wanted', False),
    Option('m', 'measure', True), Option('c', 'complete_rel_info_wanted', False),
    Option('l', 'level_for_rel', True), Option('n', 'nosummary', False), Option('D', 'Debug_level', True),
    Option('J', 'Judged_docs_only', False), Option('N', 'Number_docs_in_coll', True),
    Option('M', 'Max_retrieved_per_topic', True), Option('R', 'Rel_info_format', True),
    Option('T', 'Results_format', True), Option('o', 'Output_old_results_format', False, long_value=True),
    Option('Z', 'Zscore', True),
)
#: Options trec_eval has and irmetrics does not, and why.
UNSUPPORTED = {
    'D': "trec_eval's debugging output (-D) is not reproduced",
}
#: The formats -R and -T may name (trec_eval's own): qrels, preferences, judgment groups; TREC runs.
FORMATS = {'R': ('qrels', 'prefs', 'qrels_prefs', 'qrels_jg'), 'T': ('trec_results',)}


class TrecEvalUsageError(UsageError):
    """A trec_eval command line that does not parse."""

    hint = HINT


@dataclass
class Invocation:
    """A parsed ``irmetrics trec_eval`` command line."""

    by_query: bool = False                  # -q
    summary: bool = True                    # -n clears it
    complete: bool = False                  # -c
    judged_only: bool = False               # -J
    rel: int = 1                            # -l
    num_docs: int = 0                       # -N
    depth: int | None = None                # -M
    measures: list[str] = field(default_factory=list)     # -m, in order
    zscores: str | None = None              # -Z
    help: bool = False
    version: bool = False
    files: list[str] = field(default_factory=list)
    rel_format: str = 'qrels'               # -R

    @property
    def settings(self) -> Settings:
        return Settings(rel=self.rel, judged_only=self.judged_only, num_docs=self.num_docs,
                        rounding='trec_eval_10')


def parse_invocation(argv: Sequence[str]) -> Invocation:
    """Read a trec_eval command line; raises :class:`TrecEvalUsageError`."""
    try:
        given, operands = parse(argv, OPTIONS)
    except GetoptError as ex:
        raise TrecEvalUsageError(str(ex)) from None
    inv = Invocation(files=operands)
    for option, value in given:
        letter = option.letter
        if letter == 'v':
            inv.version = True
            return inv                              # trec_eval prints its version at once
        if letter in 'hqcnJ':
            attribute = {'h': 'help', 'q': 'by_query', 'c': 'complete', 'J': 'judged_only'}.get(letter)
            if attribute:
                setattr(inv, attribute, True)
            else:
                inv.summary = False
        elif letter == 'm':
            assert value is not None
            inv.measures.append(value)
        elif letter == 'Z':
            inv.zscores = value
        elif letter in 'lNM':
            number = _integer(option, value)
            if letter == 'l':
                if number < 0:
                    raise TrecEvalUsageError(f'-l {value}: irmetrics takes relevance levels of 0 or more '
                                             f'(at level 0 every judged document is relevant)')
                inv.rel = number
            elif letter == 'N':
                inv.num_docs = number
            elif number < 0:
                raise TrecEvalUsageError(f'-M {value}: the number of documents to keep must be 0 or more')
            else:
                inv.depth = number
        elif letter in FORMATS:
            if value not in FORMATS[letter]:
                known = FORMATS[letter]
                raise TrecEvalUsageError(f'-{letter} {value}: irmetrics reads {"only " if len(known) == 1 else ""}'
                                         f'trec_eval\'s {", ".join(map(repr, known))} format'
                                         f'{"s" if len(known) > 1 else ""}')
            if letter == 'R':
                inv.rel_format = value
        elif letter in UNSUPPORTED and not inv.help:
            raise TrecEvalUsageError(f'option -{letter} (--{option.long}) is not supported: '
                                     f'{UNSUPPORTED[letter]}')
        # -o: obsolete in trec_eval, which ignores it; so does irmetrics
    if not inv.help and len(operands) != 2:
        raise TrecEvalUsageError(f'expected the qrels file and the run file, got {len(operands)} file '
                                 f'name(s): irmetrics trec_eval [options] QRELS RUN')
    return inv


def _integer(option: Option, value: str | None) -> int:
    """The option's integer as trec_eval's atol reads it: ASCII digits, saturated to a C long."""
    if value is None or not re.fullmatch(r'\s*[+-]?\d+', value, re.ASCII):
        raise TrecEvalUsageError(f'-{option.letter} expects an integer, not {value!r}')
    return max(-LONG_MAX - 1, min(int(value), LONG_MAX))


# --- which lines to print ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One line of the output: the name trec_eval prints, its table entry, and the measure behind it
    (or, for runid and relstring, the parameters read)."""

    name: str
    entry: TrecName
    measure: Measure | None
    params: dict[str, Any] = field(default_factory=dict)


def plan(inv: Invocation) -> list[Line]:
    """The lines the invocation prints, in trec_eval's order.

    As in trec_eval, a measure named several times is printed once, with the parameters of the first
    ``-m`` that gives it some; no ``-m`` at all means ``-m official``.
    """
    marked: set[str] = set()
    params: dict[str, str] = {}
    for arg in inv.measures or ['official']:
        name, dot, text = arg.partition('.')
        if dot and not text:
            raise MeasureError(f'-m {arg}: no parameters after the "."')
        if dot:
            params.setdefault(name, text)
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        else:
            marked.add(trec_entry(name).trec)
    lines = []
    for entry in TREC_NAMES:
        if entry.trec in marked:
            bound = _at_bound(entry, params.get(entry.trec))
            if bound is not None:
                lines.append(bound)
                continue
            for name, item in trec_lines(entry, params.get(entry.trec), inv.settings):
                if isinstance(item, Measure):
                    lines.append(Line(name, entry, item))
                else:
                    lines.append(Line(name, entry, None, item))
    return lines


# --- rbp and rbp_resid at p = 0 and p = 1 ---------------------------------------------------------------
#: The trec_eval measures whose persistence p trec_eval takes at 0 and at 1, where irmetrics' RBP and
#: RBPResidual (whose p lies strictly between, as a user's persistence does) refuse it.
AT_BOUNDS = ('rbp', 'rbp_resid')


def _at_bound(entry: TrecName, text: str | None) -> Line | None:
    """The line of ``-m rbp_resid.p=0`` (or ``p=1``, or rbp's), computed by :func:`_bound_terms`; else None."""
    if entry.trec not in AT_BOUNDS or text is None:
        return None
    ((name, params),) = entry.form.lines(entry, text)
    return Line(name, entry, None, params) if params.get('p') in (0.0, 1.0) else None


def _bound_terms(ln: Line, inv: Invocation) -> tuple[list[Measure], Callable[[list[np.ndarray]], np.ndarray]]:
    """The value of trec_eval's loop at p = 0 or 1 (m_rbp_resid.c, m_rbp.c) from irmetrics measures: the
    measures, and how their per-query values make it.

    rbp_resid is p^n + (1 - p) * (the sum of p^i over the unjudged ranks i = 0..n-1), printed where some
    retrieved document is unjudged (else 0).  At p = 0 every power but 0^0 = 1 is 0: 1 when the first
    document is unjudged (Unjudged@1), else 0.  At p = 1: 1 when some document is unjudged, else 0.
    rbp is (1 - p) * (the sum of gain_i * p^i): 0 at p = 1; at p = 0 the first document's (scaled) gain,
    which is RBP@1 at p = 1/2, doubled (both steps exact in binary floating point).
    """
    judged_only, p = inv.judged_only, ln.params['p']
    if ln.entry.trec == 'rbp_resid' and p == 0.0:
        return [Unjudged(judged_only=judged_only) @ 1], lambda v: v[0]
    if ln.entry.trec == 'rbp_resid':
        return [NumRet(judged_only=judged_only), NumRet(judged_only=True)], lambda v: (v[0] > v[1]).astype(float)
    if p == 1.0:
        return [NumRet(judged_only=judged_only)], lambda v: np.zeros(len(v[0]))
    assert ln.entry.measure is not None
    half = ln.entry.measure(**{**ln.entry.preset, **ln.params, 'p': 0.5, 'cutoff': 1,
                               **inv.settings.params(ln.entry.settings)})
    return [half], lambda v: 2.0 * v[0]


# --- evaluation ----------------------------------------------------------------------------------------
#: The document trec_eval -c puts in the ranking of a query missing from the run (scored 1.0).
BOGUS_DOCUMENT = 'ceci_nest_pas_un_docno'
#: The measures whose trec_eval code never pairs the ranking with the judgments (no form_res_rels call):
#: with only these, trec_eval checks neither file for a document given twice.
UNINSPECTING = ('num_q', 'runid')
#: Lines trec_eval sets back to 0 (or '') for such a query, matched by the printed name (so ``utility``
#: is reset and ``utility_2,-1,0,0`` is not); every name starting with ``unj`` is.
_RESET = ('num_ret', 'utility', 'relstring', 'rbp_resid')


def run(inv: Invocation, out: Callable[[str], object], places: int = 4) -> None:
    """Evaluate as ``inv`` says and write trec_eval's output with ``out``: values with ``places`` decimals as
    trec_eval prints them, or, with -1, every digit (17 significant: a trec_eval rebuilt to print ``%.17g``)."""
    query_ids, columns = evaluate(inv)
    write(out, query_ids, columns, inv.by_query, inv.summary, places)


def evaluate(inv: Invocation) -> tuple[list[str], list[Column]]:
    """The values trec_eval prints for ``inv``, before formatting: the queries in output order and one
    column per line of :func:`plan`."""
    from .trec_eval_prefs import evaluate_judgments, judgments_of, read_judgments
    lines = plan(inv)
    judgments_of(lines, inv.rel_format)
    if inv.rel_format != 'qrels':                       # preferences or judgment groups
        judgments = read_judgments(inv.files[0], inv.rel_format)
        everyone = ids.column(list(judgments.query_ids))
        run, _, tag = read_run(inv, everyone, np.arange(len(everyone)), inv.depth)
        return evaluate_judgments(lines, judgments, run, tag, inv.depth, BOGUS_DOCUMENT if inv.complete else None)
    return _evaluate_qrels(inv, lines)


def _evaluate_qrels(inv: Invocation, lines: list[Line]) -> tuple[list[str], list[Column]]:
    """:func:`evaluate` of qrels (``-R qrels``, the default)."""
    from ..data.trec.reader import read_trec_qrels
    inspects = any(ln.entry.trec not in UNINSPECTING for ln in lines)
    qrels = read_trec_qrels(inv.files[0], duplicates='error' if inspects else 'max', grades='trec_eval')
    qids = qrels.query_ids.to_list()
    order = trec_order(qids)
    rankings, missing, tag = _rankings(inv, qrels, order, inspects)
    bounds = {ln.name: _bound_terms(ln, inv) for ln in lines if _is_bound(ln)}
    measures = list(dict.fromkeys([ln.measure for ln in lines if ln.measure is not None]
                                  + [m for terms, _ in bounds.values() for m in terms]
                                  + list(_counts(inv))))
    ev, column = _evaluated(measures, qrels, rankings, missing)
    zscores = _zscores(inv, lines, [qids[i] for i in order])
    columns = [_text_column(ln, inv, ev, rankings, missing, _is_reset(ln), tag, order)
               if ln.measure is None and ln.name not in bounds else
               _value_column(ln, inv, bounds, column, missing, order, zscores) for ln in lines]
    return [qids[i] for i in order], columns


def _counts(inv: Invocation) -> tuple[Measure, Measure, Measure]:
    """The counts every evaluation takes: the ranking's length (judged documents only under -J), the relevant
    documents (at -l's grade) and the documents of grade >= 1 (what -c's num_rel counts)."""
    return NumRet(judged_only=inv.judged_only), NumRel(rel=inv.rel), NumRel


def _evaluated(measures: list[Measure], qrels: Qrels, rankings: list[Run],
               missing: np.ndarray) -> tuple[Evaluator, dict[Measure, np.ndarray]]:
    """The evaluator of ``measures`` and each measure's per-query values in the qrels' order, the queries
    ``missing`` from the run valued on their stand-ins (``rankings[1]``)."""
    from ..api.calc import evaluator
    ev = evaluator(measures, qrels)
    values = np.array(ev.calc(rankings[0]).values)             # filled in below: a copy
    if missing.any():
        # the stand-ins hold the missing queries only: their values, without the warnings a whole run gets
        # (calc would warn that every other query is missing from them)
        stand_ins = ev.engines.query_values(rankings[1])
        values[stand_ins.codes] = stand_ins.values
    return ev, {m: values[:, j] for j, m in enumerate(measures)}


def _is_reset(ln: Line) -> bool:
    """Whether trec_eval sets ``ln`` back to 0 for a query missing from the run (:data:`_RESET`)."""
    return ln.name in _RESET or ln.name.startswith('unj')


def _zscores(inv: Invocation, lines: list[Line], query_ids: list[str]) -> tuple[ZScores, list[str]] | None:
    """The z-scores file of -Z (None without it) and the queries in output order, each query and line looked up
    once first, as trec_eval looks every value up (runid has none), so that a lookup it cannot make is refused
    before anything is printed."""
    if inv.zscores is None:
        return None
    zscores = read_zscores(inv.zscores)
    for qid in query_ids:
        for ln in lines:
            if ln.entry.trec != 'runid':
                zscores.reference(qid, ln.name)
    return zscores, query_ids


def _value_column(ln: Line, inv: Invocation, bounds: dict[str, Any], column: dict[Measure, np.ndarray],
                  missing: np.ndarray, order: np.ndarray,
                  zscores: tuple[ZScores, list[str]] | None = None) -> Column:
    """The numbers of line ``ln``: per query in output order, and their summary, as trec_eval computes them
    (under -Z from the z-scores, :mod:`.trec_zscores`)."""
    ranking_length, num_rel, num_rel_1 = _counts(inv)
    if ln.measure is None:                                      # rbp or rbp_resid at p = 0 or 1: trec_eval's terms
        terms, combine = bounds[ln.name]
        per_query, how = combine([column[m] for m in terms]), 'mean'
    else:
        per_query = _zero_by_zero(ln.measure, column[ln.measure], column[ranking_length] == 0, column[num_rel])
        how = ln.measure.aggregation
    per_query = np.where(missing & _is_reset(ln), 0.0, per_query)[order]
    if zscores is None:
        summary = sequential_summary(how, per_query)
    else:
        per_query, summary = _zscored(ln, how, per_query, *zscores)
    if ln.entry.trec == 'num_rel' and inv.complete:
        summary = sequential_summary('sum', column[num_rel_1])    # trec_eval -c counts grades >= 1
    return Column(ln.name if zscores is None else 'Z' + padded(ln.name),
                  None if ln.entry.lines == 'summary' else per_query,
                  None if ln.entry.lines == 'query' else summary, integer=how == 'sum' and zscores is None)


def _zscored(ln: Line, how: str, per_query: np.ndarray, zscores: ZScores,
             query_ids: list[str]) -> tuple[np.ndarray, float]:
    """A line's z-scores and their summary: gm_map's and gm_bpref's per-query value is the logarithm
    (m_gm_map.c), whose mean's exp is the summary; num_q's summary is the number of queries (m_num_q.c)."""
    if how == 'gmean':
        logs = zscores.convert(ln.name, query_ids, floored_logs(per_query))
        return logs, math.exp(sequential_summary('mean', logs))
    z = zscores.convert(ln.name, query_ids, per_query)
    return z, float(len(z)) if ln.entry.trec == 'num_q' else sequential_summary(how, z)


def _is_bound(ln: Line) -> bool:
    """Whether ``ln`` is an rbp or rbp_resid line at p = 0 or 1 (a measure of trec_eval's, not irmetrics')."""
    return ln.measure is None and ln.entry.measure is not None


def _rankings(inv: Invocation, qrels: Qrels, order: np.ndarray,
              inspects: bool) -> tuple[list[Run], np.ndarray, str]:
    """The rankings trec_eval evaluates: the run's, and, under -c, a stand-in for each query of the
    qrels missing from it (cut by -M); which queries those are; the run's tag.  ``inspects``: whether
    trec_eval looks at the rankings' documents at all (a duplicate is refused only where it does)."""
    ranked, missing, tag = read_run(inv, qrels.query_ids, order, inv.depth if inspects else 0)
    qids = qrels.query_ids.to_list()
    rankings = [ranked]
    if missing.any():
        # trec_eval -c ranks a single unjudged document for a query missing from the run
        gone = [qids[i] for i in np.flatnonzero(missing)]
        rankings.append(Run.from_columns(gone, [BOGUS_DOCUMENT] * len(gone), np.ones(len(gone)),
                                         source='trec_eval -c'))
    if inv.depth is not None:
        rankings = [r.top(inv.depth) for r in rankings]
    return rankings, missing, tag


def read_run(inv: Invocation, query_ids: Ids, order: np.ndarray, depth: int | None) -> tuple[Run, np.ndarray, str]:
    """The run as trec_eval reads it (a document twice refused within the first ``depth`` of a query of
    ``query_ids``), which of ``query_ids`` it misses (an error without -c, as in trec_eval), its tag."""
    from ..data.trec.reader import read_stdin, read_trec_run_as_trec_eval
    run_path = inv.files[1]
    ranked, tag = read_trec_run_as_trec_eval(read_stdin() if run_path == '-' else run_path, query_ids, depth)
    if tag is None:
        raise InputError(_no_ranking(run_path), run_path)
    missing = query_ids.lookup(ranked.query_ids) < 0
    if missing.any() and not inv.complete:
        first = query_ids.to_list()[order[np.argmax(missing[order])]]
        raise InputError(f'query {first!r} of the qrels is not in the run ({int(missing.sum())} such '
                         f'queries): trec_eval 10 stops there ("result qid not found"); -c evaluates them',
                         run_path)
    return ranked, missing, tag


def _no_ranking(run_path: str) -> str:
    """Why a run without a single ranking line is refused, and what trec_eval 10 does with it: it refuses a
    file of 0 bytes, and evaluates one of blank or comment lines (or empty standard input) as a run that
    misses every query, printing a runid read from memory it never set."""
    if run_path != '-' and os.path.isfile(run_path) and os.path.getsize(run_path) == 0:
        return 'the run file is empty (0 bytes); trec_eval refuses it too ("Cannot read results file")'
    return ('the run holds no ranking, only blank or comment lines (or nothing at all on standard input); '
            'trec_eval evaluates such a run as one missing every query (with -c; without -c it stops) and '
            'prints a runid from memory it never set: irmetrics refuses it')


def _zero_by_zero(measure: Measure, values: np.ndarray, empty: np.ndarray, num_rel: np.ndarray) -> np.ndarray:
    """trec_eval's interpolated precision of an empty ranking, at a level reached with no relevant
    document (level * R rounds to 0), is 0/0: NaN, printed ``-nan`` (irmetrics' IPrec says 0)."""
    from ..measures.iprec import recall_counts
    levels = [measure['recall']] if measure.name == 'IPrec' else list(measure['levels']) \
        if measure.name == 'IPrecAvg' else []
    if not levels:
        return values
    at_zero = np.zeros(len(values), dtype=bool)
    for level in levels:
        at_zero |= recall_counts(level, num_rel, measure['rounding']) <= 0
    return np.where(empty & at_zero, np.nan, values)


def _text_column(ln: Line, inv: Invocation, ev: Evaluator, rankings: list[Run], missing: np.ndarray,
                 reset: bool, tag: str, order: np.ndarray) -> Column:
    """runid (the tag of the run's last line, summary only) or relstring (per query only)."""
    if ln.entry.trec == 'runid':
        return Column(ln.name, None, tag)
    if not inv.by_query:
        return Column(ln.name, None, None)
    depth = c_long(ln.params.get('depth', 10.0))            # m_relstring.c: (long) params[0]
    strings = [ev.engines.relevance_strings(ranking, depth, inv.judged_only) for ranking in rankings]
    texts = [('' if reset else strings[1][i]) if missing[i] else strings[0][i] for i in order.tolist()]
    return Column(ln.name, [f"'{text}'" for text in texts], None)


def c_long(value: float) -> int:
    """``(long) value`` as C on x86-64 computes it: truncation toward zero, and LONG_MIN for a value a long
    cannot hold (infinite, NaN, or beyond 2**63: the processor's "integer indefinite"), so that a huge
    relstring depth prints '' as trec_eval's does, never a traceback."""
    if not math.isfinite(value) or not -2.0 ** 63 <= value < 2.0 ** 63:
        return -2 ** 63
    return int(value)


# --- help and version ----------------------------------------------------------------------------------
HELP = '''irmetrics trec_eval: trec_eval 10's command line and output, computed by irmetrics.

usage: irmetrics trec_eval [-q] [-n] [-c] [-J] [-l LEVEL] [-M DEPTH] [-N DOCS] [-Z FILE]
                           [-m MEASURE[.PARAMS]]... QRELS RUN

Prints what trec_eval 10.0 prints for the same command line, byte for byte (see docs/cli.md and
docs/conventions.md for the few cases where trec_eval's own arithmetic is undefined).

  -q, --query_eval_wanted          per-query values too, before the summary (query "all")
  -n, --nosummary                  no summary
  -c, --complete_rel_info_wanted   evaluate every query of the qrels, one missing from the run as trec_eval
                                   does (without -c such a query is an error, as in trec_eval 10)
  -l, --level_for_rel LEVEL        lowest grade counted as relevant (default 1; 0: every judged document)
  -J, --Judged_docs_only           remove unjudged documents from every ranking first
  -M, --Max_retrieved_per_topic N  keep the first N documents of every ranking
  -N, --Number_docs_in_coll N      documents in the collection (for utility)
  -Z, --Zscore FILE                z-scores against a file of lines "query measure mean stddev"
  -m, --measure MEASURE[.PARAMS]   a measure or a set (official, set, all_trec); repeatable; default official.
                                   Parameters as trec_eval reads them: P.5,10  iprec_at_recall.0.25
                                   ndcg.1=0,2=3  utility.2,-1,0,0.001  rbp.p=0.8  11pt_avg.0.2,0.5,0.8
  -R FORMAT                        the judgments: qrels (default), prefs, qrels_prefs (qrels read as
                                   preferences) or qrels_jg (judgment groups): -m all_prefs, -m qrels_jg
  -T trec_results                  the run's format (trec_eval's only one)
  -h, --help                       this help; with -m, the irmetrics measure behind each trec_eval measure
  -v, --version                    the version

RUN may be "-" for standard input. Not supported: -D (debugging output).
'''


def help_text(inv: Invocation) -> str:
    """The help, and with ``-m`` the irmetrics measure behind each line and the page of its family."""
    from .catalog import measure_text
    lines = plan(inv) if inv.measures else []
    families: list[MeasureDef] = []
    for ln in lines:
        if ln.measure is not None and ln.measure.definition not in families:
            families.append(ln.measure.definition)
    if not lines:
        return HELP
    measures = ''.join(f'  {ln.name:<22} {ln.measure!r}\n' if ln.measure is not None else
                       f'  {ln.name:<22} (trec_eval\'s {ln.entry.trec} at p={ln.params["p"]:g}, where irmetrics\' '
                       f'{ln.entry.measure!r} has no value: see docs/cli.md)\n' if _is_bound(ln) else
                       f'  {ln.name:<22} (a line of the output, not a measure)\n' for ln in lines)
    return HELP + '\nThe measures:\n' + measures + ''.join(f'\n-----------------------\n{measure_text(d)}'
                                                            for d in families)


def version_text() -> str:
    from .. import __version__
    return f'irmetrics trec_eval {__version__} (irmetrics\' trec_eval-compatible command; output as trec_eval 10.0)\n'
