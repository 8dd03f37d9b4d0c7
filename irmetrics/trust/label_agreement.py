"""Agreement between two labellings of the same items on ordered levels: a judge's grades against people's,
an automatic nugget assignment against a manual one.

Each side is a table of ``(topic, item, label)``: a qrels (topic: query, item: document, label: grade) or any
DataFrame of labels on ordered ``levels`` (``('not_support', 'partial_support', 'support')``, lowest
first).  The items both label are compared (an item only one side labels is counted, never guessed), through
the one table of counts of :mod:`.judgment_agreement`: Cohen's kappa of the levels as categories, Cohen's
kappa of the two classes a ``threshold`` makes (at or above it, below it), Krippendorff's alpha at the
ordinal and interval levels, and the confusion of levels.  Levels given by name are numbered 0, 1, 2, ...
(lowest first), so the interval alpha reads them as equally spaced; numeric labels are their own grades.
"""
from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from ..errors import InputError, OptionError
from ..rendering.formats import READ_BY_PEOPLE, checked_format, checked_places
from ..rendering.markup import html_page
from ..rendering.records import render_document, render_table
from ..rendering.result import Table, Tabled
from ..rendering.values import json_number
from .judgment_agreement import GradeTable, JudgmentAgreement, alpha_of, grade_table, kappa_of, levels_kappa_of

#: The columns of a table of labels.
COLUMNS = ('topic', 'item', 'label')


class Reported(Tabled):
    """A result printed as several tables (:meth:`tables`) with its :attr:`warnings`: all of them in the formats
    people read (:func:`~irmetrics.rendering.records.render_document`), :meth:`table` (one row per statistic) in
    CSV, TSV and JSON lines, and every number (:meth:`to_dict`, NaN as null) in JSON."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings given while the result was computed (none unless the result records them)."""
        return ()

    def tables(self) -> list[Table]:
        """The report's tables, in order (by default :meth:`table` alone)."""
        return [self.table()]

    def page_title(self) -> str:
        """What the HTML page is called."""
        return 'irmetrics'

    def render(self, format: str = 'table', *, places: int | None = None, **view: Any) -> str:
        """The report in ``format`` (see the class docstring); ``places``: decimals."""
        checked_format(format)
        places = checked_places(places)
        if format == 'json':
            return json.dumps(_json_ready(self.to_dict(), places), indent=2) + '\n'
        if format not in READ_BY_PEOPLE:
            return render_table(self.table(), format, places)
        shown = render_document(self.tables(), format, places, self.warnings)
        return html_page(self.page_title(), [shown]) if format == 'html' else shown


class Confused(Reported):
    """A :class:`Reported` agreement of two sides over a table of counts: one row per statistic
    (:attr:`statistics`, each per query too), then the confusion of the categories each side gives.
    :meth:`compared` is the statistic whose table of counts the report shows, :meth:`categories` the names
    of its rows and columns; :attr:`names` what the two sides are called."""

    heading: ClassVar[str] = 'Agreement'
    confusion_heading: ClassVar[str] = 'Confusion'
    names: tuple[str, str]

    @property
    @abstractmethod
    def statistics(self) -> tuple[JudgmentAgreement, ...]:
        """The statistics, in the order the tables give them."""

    @abstractmethod
    def compared(self) -> JudgmentAgreement:
        """The statistic whose table of counts (and per-query counts) the report shows."""

    @abstractmethod
    def categories(self) -> tuple[str, ...]:
        """The names of the confusion's rows and columns."""

    @abstractmethod
    def pairs_note(self) -> str:
        """What was compared and what was left out."""

    @abstractmethod
    def confusion_note(self) -> str:
        """What the confusion counts."""

    @property
    def counts(self) -> np.ndarray:
        """The confusion over what both sides give (rows: the first side's category, columns: the second's)."""
        return self.compared().counts

    def table(self) -> Table:
        """One row per statistic; the notes say what was compared."""
        return Table(['statistic', 'value'], [[r.method, r.statistic] for r in self.statistics],
                     notes=self.pairs_note(), heading=self.heading)

    def confusion_table(self) -> Table:
        """The confusion: one row per category of the first side, one column per category of the second."""
        names = self.categories()
        rows = [[name, *row] for name, row in zip(names, self.counts.tolist(), strict=True)]
        return Table([f'{self.names[0]} \\ {self.names[1]}', *names], rows, notes=self.confusion_note(),
                     heading=self.confusion_heading)

    def tables(self) -> list[Table]:
        """The statistics and the confusion."""
        return [self.table(), self.confusion_table()]

    def to_dataframe(self) -> Any:
        """Per query: what both sides give, what one side only gives, and each statistic."""
        frame = self.compared().to_dataframe().drop(columns='statistic')
        for r in self.statistics:
            frame[r.method] = r.query_statistic
        return frame

    def confusion_dict(self) -> dict[str, dict[str, int]]:
        """The confusion as ``{category_a: {category_b: count}}``."""
        names = self.categories()
        return {a: dict(zip(names, row, strict=True)) for a, row in zip(names, self.counts.tolist(), strict=True)}


def _json_ready(value: Any, places: int | None) -> Any:
    """``value`` for JSON: NaN as None, numbers rounded to ``places`` when given."""
    if isinstance(value, dict):
        return {k: _json_ready(v, places) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v, places) for v in value]
    return json_number(float(value) if isinstance(value, np.floating) else value, places)


@dataclass(frozen=True, eq=False)
class LabelAgreement(Confused):
    """Two labellings compared on the items both label (:func:`label_agreement`).

    ``levels_kappa``: Cohen's kappa of the levels as categories; ``binary_kappa``: Cohen's kappa of at or
    above ``threshold`` against below (None without a threshold); ``alpha_ordinal``, ``alpha_interval``:
    Krippendorff's alpha; each a :class:`~irmetrics.JudgmentAgreement` (its value per topic too).
    ``levels``: the names of the levels in the confusion (those either side uses on the items both label),
    ``threshold``: the threshold's name and ``threshold_grade`` its grade (a level's position, lowest 0, for
    levels given by name), ``names``: what the two sides are called.
    """

    levels_kappa: JudgmentAgreement
    binary_kappa: JudgmentAgreement | None
    alpha_ordinal: JudgmentAgreement
    alpha_interval: JudgmentAgreement
    levels: tuple[str, ...]
    threshold: str | None
    threshold_grade: int | None
    names: tuple[str, str]

    @property
    def statistics(self) -> tuple[JudgmentAgreement, ...]:
        """The statistics, in the order the tables give them."""
        binary = () if self.binary_kappa is None else (self.binary_kappa,)
        return (self.levels_kappa, *binary, self.alpha_ordinal, self.alpha_interval)

    heading = 'Agreement of the labels'
    confusion_heading = 'Confusion of levels'

    def compared(self) -> JudgmentAgreement:
        """The kappa of the levels: its table of counts is the confusion of levels."""
        return self.levels_kappa

    def categories(self) -> tuple[str, ...]:
        """The levels."""
        return self.levels

    @property
    def confusion(self) -> Any:
        """The confusion of levels as a DataFrame, the first side's levels as rows, the second's as columns."""
        import pandas as pd
        return pd.DataFrame(self.counts, index=pd.Index(self.levels, name=self.names[0]),
                            columns=pd.Index(self.levels, name=self.names[1]))

    def binary_counts(self) -> np.ndarray | None:
        """The 2 x 2 confusion at the threshold (below, at or above: rows the first side, columns the second)."""
        if self.threshold_grade is None:
            return None
        classes = np.eye(2, dtype=np.int64)[(np.asarray(self.levels_kappa.grades) >= self.threshold_grade).astype(int)]
        return np.asarray(np.einsum('gi,gh,hj->ij', classes, self.counts, classes))

    def pairs_note(self) -> str:
        """The items labelled by both sides and by one."""
        both, only_a, only_b = self.levels_kappa.both, self.levels_kappa.only_a, self.levels_kappa.only_b
        topics = len(self.levels_kappa.query_ids)
        return (f'{both} items labelled by both ({topics} topic{"s" if topics != 1 else ""}), {only_a} by '
                f'{self.names[0]} only and {only_b} by {self.names[1]} only: those are left out')

    def confusion_note(self) -> str:
        """What the confusion of levels counts."""
        return f'items both label, by the level each gives (rows: {self.names[0]}, columns: {self.names[1]})'

    def to_dict(self) -> dict[str, Any]:
        """The statistics, the items compared and the confusions (``{level_a: {level_b: count}}``)."""
        binary = self.binary_counts()
        return {'statistics': {r.method: r.statistic for r in self.statistics},
                'both': self.levels_kappa.both, 'only_a': self.levels_kappa.only_a,
                'only_b': self.levels_kappa.only_b, 'levels': list(self.levels), 'threshold': self.threshold,
                'confusion': self.confusion_dict(), 'binary_confusion': None if binary is None else binary.tolist()}

    def __repr__(self) -> str:
        values = ', '.join(f'{r.method} = {r.statistic:.4f}' for r in self.statistics)
        return f'<LabelAgreement {values}; {self.levels_kappa.both} items labelled by both>'


def label_agreement(labels_a: Any, labels_b: Any, *, levels: Sequence[Any] | None = None, threshold: Any = None,
                    names: tuple[str, str] = ('a', 'b')) -> LabelAgreement:
    """How far two labellings of the same items agree: Cohen's kappa of the levels and at a threshold,
    Krippendorff's alpha (ordinal and interval) and the confusion of levels.

    With ``O`` the table of counts of the items both label (rows: ``labels_a``'s level, columns:
    ``labels_b``'s) and ``E`` the table chance expects from their margins, Cohen's kappa is
    ``1 - sum(W * O) / sum(W * E)`` with ``W = 1`` off the diagonal (Cohen 1960): of every level as a
    category, and of the two classes "at or above ``threshold``" and "below" (the binarised kappa that
    LLM relevance judges report, e.g. UMBRELA's grades 0-3 at >= 2).  Krippendorff's alpha
    ``1 - (m - 1) sum(C * D) / sum(m_c m_k D)`` (Krippendorff 2004) is given at the ordinal and interval
    levels (see :func:`~irmetrics.krippendorff_alpha`).  An item only one side labels is counted and left
    out; a statistic that chance leaves undefined (one level throughout) is NaN with a warning.

    Parameters
    ----------
    labels_a, labels_b : DataFrame or sequence of (topic, item, label)
        Each side's labels: a DataFrame with the columns ``topic``, ``item`` and ``label`` (others are
        ignored) or a sequence of such triples; each (topic, item) once.
    levels : sequence, optional
        The levels, lowest first (``['not_support', 'partial_support', 'support']``); each label must be one
        of them.  Without them the labels must be integers (grades), which are their own levels.
    threshold : level, optional
        The lowest level of the upper class of the binarised kappa (a level's name, or a grade without
        ``levels``); without it no binarised kappa is given.
    names : tuple of two str
        What to call the two sides in the notes and errors.

    Returns
    -------
    LabelAgreement
        The statistics (per topic too), the items compared and the confusion of levels.

    Raises
    ------
    InputError
        For a missing column, an empty side, a missing label, a label not among ``levels`` (or not an
        integer without them), an item labelled twice, or two sides with no item in common.

    References
    ----------
    J. Cohen, A coefficient of agreement for nominal scales, Educational and Psychological Measurement, 1960;
    K. Krippendorff, Content Analysis: An Introduction to Its Methodology, Sage, 2004; S. Upadhyay et al.,
    UMBRELA: UMbrela is the (Open-Source Reproduction of the) Bing RELevance Assessor, arXiv:2406.06519, 2024.

    Examples
    --------
    >>> import pandas as pd
    >>> manual = pd.DataFrame({'topic': ['t1'] * 4, 'item': ['n1', 'n2', 'n3', 'n4'],
    ...                        'label': ['support', 'not_support', 'partial_support', 'support']})
    >>> automatic = manual.assign(label=['support', 'not_support', 'support', 'partial_support'])
    >>> result = irmetrics.label_agreement(manual, automatic, levels=['not_support', 'partial_support', 'support'],
    ...                                    threshold='support')
    >>> round(result.levels_kappa.statistic, 4), round(result.alpha_ordinal.statistic, 4)
    (0.2, 0.5625)
    """
    if levels is not None:
        levels = _checked_levels(levels)
    a = _as_qrels(labels_a, levels, names[0])
    b = _as_qrels(labels_b, levels, names[1])
    code = None if threshold is None else _threshold_code(threshold, levels)
    table = grade_table(a, b, names)
    shown = tuple(str(g) if levels is None else str(levels[int(g)]) for g in table.grades)
    named = None if threshold is None or levels is None else str(threshold)      # grades: named as cohen_kappa does
    return agreement_of_table(table, shown, code, names, named)


def agreement_of_table(table: GradeTable, levels: tuple[str, ...], threshold: int | None, names: tuple[str, str],
                       threshold_name: str | None = None) -> LabelAgreement:
    """The :class:`LabelAgreement` of a table of counts whose grades are named ``levels``; ``threshold``: the
    grade from which the upper class of the binarised kappa starts, a level named ``threshold_name`` (None: the
    grades are relevance grades, and the kappa is named as :func:`~irmetrics.cohen_kappa` names it)."""
    binary = None
    if threshold is not None:
        binary = kappa_of(table, threshold, None)
        if threshold_name is not None:
            binary = replace(binary, method=f"Cohen's kappa (binary: >= {threshold_name})")
    return LabelAgreement(levels_kappa_of(table), binary, alpha_of(table, 'ordinal'), alpha_of(table, 'interval'),
                          levels, threshold_name or (None if threshold is None else str(threshold)), threshold, names)


def _checked_levels(levels: Sequence[Any]) -> list[Any]:
    if isinstance(levels, (str, bytes)) or len(levels) < 2:
        raise OptionError(f'levels: expected two levels or more, lowest first (e.g. ["not_support", '
                          f'"partial_support", "support"]); got {levels!r}')
    if len(set(levels)) < len(levels):
        raise OptionError(f'levels: {levels!r} names a level twice')
    return list(levels)


def _threshold_code(threshold: Any, levels: list[Any] | None) -> int:
    """The grade from which the upper class starts: the threshold's position among ``levels``, or the threshold
    itself (an integer) without them."""
    if levels is not None:
        if threshold not in levels:
            raise OptionError(f'threshold {threshold!r} is not one of the levels {levels!r}')
        return levels.index(threshold)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise OptionError(f'threshold {threshold!r}: without levels the labels are grades and the threshold one of '
                          f'them (an integer)')
    return int(threshold)


def _as_qrels(given: Any, levels: list[Any] | None, name: str) -> Any:
    """One side's labels as a qrels DataFrame (query_id, doc_id, relevance): a level's position, or the grade."""
    import pandas as pd
    frame = given if isinstance(given, pd.DataFrame) else pd.DataFrame(list(given), columns=list(COLUMNS))
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(f'{name}: no column {missing[0]!r}; a table of labels has the columns topic, item and label '
                         f'(it has {", ".join(map(str, frame.columns))})')
    if not len(frame):
        raise InputError(f'{name}: no labels')
    frame = frame[list(COLUMNS)].reset_index(drop=True)
    empty = frame.isna().any(axis=1).to_numpy()
    if empty.any():
        row = int(np.flatnonzero(empty)[0])
        raise InputError(f'{name}: row {row + 1} has no {frame.columns[frame.iloc[row].isna().to_numpy()][0]}')
    topic, item = frame['topic'].astype(str), frame['item'].astype(str)
    twice = pd.DataFrame({'topic': topic, 'item': item}).duplicated(keep=False).to_numpy()
    if twice.any():
        rows = np.flatnonzero(twice)
        first = rows[(topic.to_numpy()[rows] == topic.iloc[rows[0]]) & (item.to_numpy()[rows] == item.iloc[rows[0]])]
        raise InputError(f'{name}: item {item.iloc[rows[0]]!r} of topic {topic.iloc[rows[0]]!r} is labelled more than '
                         f'once, at rows {", ".join(str(r + 1) for r in first)}: one label per item')
    return pd.DataFrame({'query_id': topic, 'doc_id': item, 'relevance': _grades(frame['label'], levels, name)})


def _grades(labels: Any, levels: list[Any] | None, name: str) -> np.ndarray:
    """Each label's grade: its level's position (lowest 0), or the label itself, an integer, without levels."""
    import pandas as pd
    if levels is not None:
        codes = pd.Index(levels).get_indexer(labels)
        if (codes < 0).any():
            row = int(np.flatnonzero(codes < 0)[0])
            raise InputError(f'{name}: row {row + 1}: label {labels.iloc[row:row + 1].tolist()[0]!r} is not one of '
                             f'the levels {", ".join(map(repr, levels))}')
        return np.asarray(codes, dtype=np.int64)
    numeric = pd.api.types.is_numeric_dtype(labels) and not pd.api.types.is_bool_dtype(labels)
    values = np.asarray(labels.to_numpy(dtype=np.float64) if numeric else np.full(len(labels), np.nan))
    whole = (values == np.round(values)) & np.isfinite(values)
    if not whole.all():
        row = int(np.flatnonzero(~whole)[0])
        raise InputError(f'{name}: row {row + 1}: label {labels.iloc[row:row + 1].tolist()[0]!r} is not an integer '
                         f'grade: give the levels, lowest first (levels=[...]), for labels that are names')
    return values.astype(np.int64)
