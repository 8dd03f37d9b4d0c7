"""The measures and qrels an :class:`~.evaluator.Evaluator` is built on, read and checked once, with
errors that say what to do: swapped arguments, no measure, empty qrels, a document judged twice, items a
measure reads but were not given."""
from __future__ import annotations

from typing import Any

from ..algebra.measure import Measure
from ..data.inputs import looks_like_data
from ..data.items import Items
from ..data.qrels import Qrels
from ..dialects import parse_measures
from ..errors import DuplicateError, InputError, MeasureError
from ..measures.prefs import JUDGMENT_GROUP_MEASURES, PREFERENCE_MEASURES


def parse_or_swapped(measures: Any, dialect: str | None) -> list[Measure]:
    """The measures, or a MeasureError saying the arguments look swapped when what was given as the
    measures is data (a file, a Run or Qrels, a dict of dicts, a table); no measure at all is an error too
    (an evaluation of nothing would be an empty result, easily taken for one of nothing to report)."""
    try:
        parsed = parse_measures(measures, dialect=dialect)
    except MeasureError as ex:
        if looks_like_data(measures):
            raise MeasureError(f'{ex}; the arguments look swapped: the measures come first, then the qrels and '
                               f'the run: calc(measures, qrels, run)') from None
        raise
    if not parsed:
        raise MeasureError(f'no measure to evaluate (measures={measures!r}): give at least one, as in '
                           f"calc_aggregate(['AP', 'nDCG@10'], qrels, run)")
    return parsed


def check_qrels(qrels: Qrels, measures: list[Measure]) -> None:
    """Qrels the measures can be evaluated on: some judgment, and one grade per document for the
    measures that read one (see :meth:`Qrels.from_columns`)."""
    if len(qrels) == 0:
        raise InputError('the qrels hold no judgment: there is no query to evaluate (trec_eval refuses an '
                         'empty qrels file too)', qrels.source)
    other = [m for m in measures if m.definition in PREFERENCE_MEASURES + JUDGMENT_GROUP_MEASURES]
    if other:
        kind = ('preference judgments (irmetrics.read_trec_prefs)' if other[0].definition in PREFERENCE_MEASURES
                else 'judgment groups of qrels (irmetrics.read_trec_qrels_jg)')
        raise MeasureError(f'{other[0]!r} is computed from {kind}, not from qrels: give those judgments to '
                           f'irmetrics.calc (trec_eval: -R prefs, qrels_prefs or qrels_jg)')
    one_grade = [m for m in measures if not m.definition.subtopics]
    if qrels.judged_twice is not None and one_grade:
        problem, line = qrels.judged_twice
        raise DuplicateError(f'{problem}: {one_grade[0]!r} reads one grade per document and trec_eval refuses '
                             f'such qrels; if the iterations are subtopics (diversity qrels), read the qrels with '
                             f'duplicates="max" (--qrels-duplicates max) to use each document\'s highest grade',
                             qrels.source, line)


def check_items(items: Items | None, measures: list[Measure]) -> None:
    """A measure that reads what is known of the items (popularity, features) needs it given."""
    for m in measures:
        missing = [what for what in m.definition.items if items is None or not items.has(what)]
        if missing:
            example = ', '.join(f'{what}=...' for what in missing)
            raise MeasureError(f'{m!r} reads item {" and ".join(missing)}: give them as items=irmetrics.Items('
                               f'{example})')
