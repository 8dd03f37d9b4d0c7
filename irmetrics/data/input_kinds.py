"""The kinds of input qrels and runs arrive as: one registry, which every module that must tell inputs apart asks.

Each kind (:class:`InputKind`) knows how it is recognised (:meth:`~InputKind.claims`), how it is read whole
(:meth:`~InputKind.qrels`, :meth:`~InputKind.run`), and how a run of its kind is cut into parts of complete
queries, or blocks of users, so that memory stays within a budget (:meth:`~InputKind.parts`,
:meth:`~InputKind.open_run`).  No two kinds claim the same object; :func:`classify` finds the one that does.

========================  ===================================================  ==================================
kind                      claims                                               a run's parts
========================  ===================================================  ==================================
Qrels or Run              an irmetrics :class:`Qrels`, :class:`Run` or         none, or the parts it is
                          :class:`RunParts`                                    opened in already
arrays                    a score matrix, a top-k array, an ``(items, scores)`` the arrays, ranked block by block
                          pair, ``TopK``/``Scores``, a judgments matrix        of users by the evaluation
TREC text                 raw text (a ``str`` that is no path) or ``bytes``    none
Parquet                   a path ending in ``.parquet``, or a directory        chunks, past the budget
TREC file                 any other path (plain, or compressed: .gz ... .zst)  chunks, past the budget
Arrow or polars table     ``pyarrow.Table``/``RecordBatch``, polars frames     blocks of complete queries
pandas DataFrame          a DataFrame (named columns, ``itertuples``)          none
dict of dicts             ``{query_id: {doc_id: value}}``                      none
ranx object               ``ranx.Qrels`` / ``ranx.Run``                        none
records                   any other iterable (of ``Qrel``/``ScoredDoc`` rows)  none
========================  ===================================================  ==================================

"Is this a path?" is :func:`.paths.is_path`, for every kind alike.  Arrow, polars, Parquet and array inputs
are read by modules imported only when such an input arrives.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, cast

from ..errors import InputError
from .arrays import (
    ArrayRun,
    Scores,
    TopK,
    check_arrays_fit,
    is_array,
    is_array_pair,
    qrels_from_matrix,
    run_from_arrays,
)
from .budget import TextOverBudget, reading_within
from .large import Reading, RunParts, parquet_footprint, query_chunks, text_footprint
from .paths import COMPRESSION, is_parquet, is_path, is_text
from .python_objects import (
    is_dataframe,
    qrels_from_dataframe,
    qrels_from_dict,
    qrels_from_records,
    run_from_dataframe,
    run_from_dict,
    run_from_records,
)
from .qrels import Qrels
from .ranx_objects import is_ranx, ranx_dict
from .run import Run
from .trec.reader import read_trec_qrels, read_trec_run


class InputKind:
    """One kind of input (see the module docstring), declared by what it is told and read by.

    ``name``: how messages and the docs name the kind; ``described``: how an error that lists what is
    accepted names it; ``claims``: whether an object is of this kind; ``qrels``, ``run``: its readers,
    ``(obj, duplicates)``; ``is_data``: whether an object of the kind is surely a qrels or a run, not
    measures given in their place (arguments swapped).  The kinds that cut a run into parts, or read it
    otherwise than whole, are subclasses.
    """

    def __init__(self, name: str, described: str, claims: Callable[[Any], bool],
                 qrels: Callable[[Any, str], Qrels], run: Callable[[Any, str], Run],
                 is_data: Callable[[Any], bool] = lambda obj: True):
        self.name, self.described = name, described
        self._claims, self._qrels, self._run, self._is_data = claims, qrels, run, is_data

    def claims(self, obj: Any) -> bool:
        """Whether ``obj`` is of this kind."""
        return self._claims(obj)

    def qrels(self, obj: Any, duplicates: str = 'error') -> Qrels:
        """``obj`` read whole as :class:`Qrels`."""
        return self._qrels(obj, duplicates)

    def run(self, obj: Any, duplicates: str = 'error', depth: int | None = None) -> Run:
        """``obj`` read whole as a :class:`Run` (``depth``: rankings given as arrays ranked only this deep)."""
        return self._run(obj, duplicates)

    def parts(self, obj: Any, reading: Reading) -> RunParts | None:
        """The run ``obj`` in parts of complete queries when ``reading`` (the budget) asks for them; None
        when it is read whole."""
        return None

    def open_run(self, obj: Any, reading: Reading) -> Run | RunParts:
        """The run ``obj`` as an evaluation reads it: whole, or in parts (:meth:`parts`)."""
        parts = self.parts(obj, reading)
        return parts if parts is not None else self.run(obj, reading.duplicates, reading.depth)

    def is_data(self, obj: Any) -> bool:
        """Whether ``obj`` (of this kind) is surely a qrels or a run, not measures given in their place."""
        return self._is_data(obj)

    def path(self, obj: Any) -> str | None:
        """The path ``obj`` names, for a kind read from files (None for the others)."""
        return None

    def __repr__(self) -> str:
        return f'<input kind {self.name}>'


class Converted(InputKind):
    """What irmetrics has read already: :class:`Qrels`, a :class:`Run`, or a run opened in :class:`RunParts`
    (:func:`~.inputs.open_run`), which an evaluation takes as it is."""

    def __init__(self) -> None:
        super().__init__('Qrels or Run', 'an irmetrics Qrels or Run',
                         lambda obj: isinstance(obj, (Qrels, Run, RunParts)), _given_qrels, _given_run)

    def open_run(self, obj: Any, reading: Reading) -> Run | RunParts:
        return obj if isinstance(obj, RunParts) else self.run(obj)


def _given_qrels(obj: Any, duplicates: str) -> Qrels:
    if not isinstance(obj, Qrels):
        raise InputError(f'a {type(obj).__name__} was given where qrels are expected', obj.source)
    return obj


def _given_run(obj: Any, duplicates: str) -> Run:
    if isinstance(obj, RunParts):
        raise InputError('a run opened in parts is evaluated part by part, not read whole', obj.source)
    if not isinstance(obj, Run):
        raise InputError('a Qrels was given where a run is expected', obj.source)
    return obj


class Arrays(InputKind):
    """Arrays (:mod:`.arrays`); a run's evaluation ranks them where they live, block by block of users."""

    def __init__(self) -> None:
        super().__init__('arrays', 'arrays (a score matrix, top-k items, an (items, scores) pair or a judgments '
                         'matrix)', lambda obj: is_array(obj) or is_array_pair(obj), _qrels_of_arrays, run_from_arrays)

    def run(self, obj: Any, duplicates: str = 'error', depth: int | None = None) -> Run:
        return run_from_arrays(obj, duplicates, depth)

    def parts(self, obj: Any, reading: Reading) -> RunParts | None:
        """The arrays, checked against the judgments, as the one part the evaluation ranks block by block of
        users, whatever the measures (those of a whole run read each block's top ranking)."""
        arrays = self._checked(obj, reading)
        return RunParts(arrays.source, [[arrays]])

    @staticmethod
    def _checked(obj: Any, reading: Reading) -> ArrayRun:
        arrays = ArrayRun(obj)
        check_arrays_fit(arrays, reading.judgments, reading.exclude, 0, whole=True)
        return arrays


def _qrels_of_arrays(obj: Any, duplicates: str) -> Qrels:
    """Judgments given as a users x items matrix; a run given as arrays is refused, saying so."""
    if is_array_pair(obj) or isinstance(obj, (TopK, Scores)):
        given = 'an (items, scores) pair of arrays' if is_array_pair(obj) else repr(obj)
        raise InputError(f'{given} is a run, not judgments (a users x items matrix of grades)', 'qrels arrays')
    return qrels_from_matrix(obj, duplicates)


class RunFile(InputKind):
    """A kind read from a file or directory by path: a run of it is read in chunks of complete queries when
    its expected footprint in memory (``footprint(path)``) passes the budget, or when its text turns out to
    pass it as it is read (a compressed file's text is measured as it is decompressed: its size is known
    only then).  ``parquet``: whether the files are Parquet (else TREC text)."""

    def __init__(self, name: str, described: str, claims: Callable[[Any], bool], qrels: Callable[[Any, str], Qrels],
                 run: Callable[[Any, str], Run], footprint: Callable[[str], int], parquet: bool):
        super().__init__(name, described, lambda obj: is_path(obj) and claims(obj), qrels, run,
                         is_data=os.path.exists)
        self.footprint, self.parquet = footprint, parquet

    def parts(self, obj: Any, reading: Reading) -> RunParts | None:
        footprint = self.footprint(os.fspath(obj))
        if footprint <= reading.budget:
            return None
        return query_chunks(obj, reading.budget, reading.duplicates, self.parquet, footprint)

    def open_run(self, obj: Any, reading: Reading) -> Run | RunParts:
        parts = self.parts(obj, reading)
        if parts is not None:
            return parts
        try:
            with reading_within(reading.budget):
                return self.run(obj, reading.duplicates, reading.depth)
        except TextOverBudget:
            return self.chunks(obj, reading.budget, reading.duplicates)

    def chunks(self, obj: Any, budget: int, duplicates: str = 'error') -> RunParts:
        """The run file in chunks of complete queries of about a quarter of ``budget``, whatever its size."""
        return query_chunks(obj, budget, duplicates, self.parquet, self.footprint(os.fspath(obj)))

    def path(self, obj: Any) -> str | None:
        return cast('str | None', os.fspath(obj))


def _parquet_qrels(obj: Any, duplicates: str) -> Qrels:
    """Parquet qrels (:mod:`.parquet` imports pyarrow: only for a Parquet input)."""
    from .parquet import read_parquet_qrels
    return read_parquet_qrels(obj, duplicates)


def _parquet_run(obj: Any, duplicates: str) -> Run:
    from .parquet import read_parquet_run
    return read_parquet_run(obj, duplicates)


def is_table(obj: Any) -> bool:
    """An Arrow ``Table``/``RecordBatch`` or a polars ``DataFrame``/``LazyFrame`` (told by their type's
    module, so that neither library is imported to ask)."""
    kind = type(obj)
    return (kind.__module__.startswith('pyarrow') and kind.__name__ in ('Table', 'RecordBatch')) or \
        (kind.__module__.startswith('polars') and kind.__name__ in ('DataFrame', 'LazyFrame'))


class Table(InputKind):
    """Arrow tables and polars DataFrames (:mod:`.tables`, imported only for such an input: it imports pyarrow)."""

    def __init__(self) -> None:
        super().__init__('Arrow or polars table', 'an Arrow table or a polars DataFrame', is_table, _table_qrels,
                         _table_run)

    def parts(self, obj: Any, reading: Reading) -> RunParts | None:
        """Blocks of complete queries of about ``reading.table_rows`` rows, when the table has more rows than
        that and each query's rows are together (:func:`.tables.run_blocks`), and the measures allow parts."""
        if reading.whole:
            return None
        from .tables import kind_name, run_blocks
        blocks = run_blocks(obj, reading.table_rows, reading.duplicates)
        return None if blocks is None else RunParts(f'run {kind_name(obj)}', [blocks])


def _table_qrels(obj: Any, duplicates: str) -> Qrels:
    from .tables import as_table, kind_name, qrels_from_table
    return qrels_from_table(as_table(obj), f'qrels {kind_name(obj)}', duplicates=duplicates)


def _table_run(obj: Any, duplicates: str) -> Run:
    from .tables import as_table, kind_name, run_from_table
    return run_from_table(as_table(obj), f'run {kind_name(obj)}', duplicates=duplicates)


def _named_runs_or_dict_of_dicts(obj: dict[Any, Any]) -> bool:
    """A dict of dicts, or of runs by name (``{name: path}``, what ``compare`` takes)."""
    return bool(obj) and all(isinstance(v, (dict, str, os.PathLike)) for v in obj.values())


def _claimed_by_no_other_kind(obj: Any) -> bool:
    """Records are any iterable no other kind claims (the last kind of :data:`KINDS`)."""
    return isinstance(obj, Iterable) and not any(kind.claims(obj) for kind in KINDS if kind is not RECORDS)


def _trec_qrels(obj: Any, duplicates: str) -> Qrels:
    return read_trec_qrels(obj, duplicates=duplicates)


def _trec_run(obj: Any, duplicates: str) -> Run:
    return read_trec_run(obj, duplicates=duplicates)


CONVERTED, ARRAYS = Converted(), Arrays()
TREC_TEXT = InputKind('TREC text', 'raw TREC text (a string holding a newline, or bytes)',
                      lambda obj: isinstance(obj, bytes) or is_text(obj), _trec_qrels, _trec_run)
PARQUET = RunFile('Parquet', 'a Parquet file or directory', is_parquet, _parquet_qrels, _parquet_run,
                  parquet_footprint, parquet=True)
TREC_FILE = RunFile('TREC file', f'a path to a TREC file (plain or {", ".join(COMPRESSION)})',
                    lambda obj: not is_parquet(obj), _trec_qrels, _trec_run, text_footprint, parquet=False)
TABLE = Table()
DATAFRAME = InputKind('pandas DataFrame', 'a pandas DataFrame', lambda obj: is_dataframe(obj) and not is_table(obj),
                      qrels_from_dataframe, run_from_dataframe)
DICT = InputKind('dict of dicts', 'a dict of dicts', lambda obj: isinstance(obj, dict), qrels_from_dict, run_from_dict,
                 is_data=_named_runs_or_dict_of_dicts)
RANX = InputKind('ranx object', 'a ranx Qrels or Run', is_ranx,
                 lambda obj, duplicates: qrels_from_dict(ranx_dict(obj, 'qrels'), duplicates),
                 lambda obj, duplicates: run_from_dict(ranx_dict(obj, 'run'), duplicates))
#: a list of words is records too, so records never look like data given in the place of measures
RECORDS = InputKind('records', 'an iterable of records (Qrel or ScoredDoc rows)', _claimed_by_no_other_kind,
                    qrels_from_records, run_from_records, is_data=lambda obj: False)
#: Every kind, in the order :func:`classify` asks them (the cheapest questions first; records last).
KINDS: tuple[InputKind, ...] = (CONVERTED, ARRAYS, TREC_TEXT, PARQUET, TREC_FILE, TABLE, DATAFRAME, DICT, RANX,
                                RECORDS)


def find_kind(obj: Any) -> InputKind | None:
    """The kind that claims ``obj``, or None."""
    return next((kind for kind in KINDS if kind.claims(obj)), None)


def classify(obj: Any, what: str = 'qrels or a run') -> InputKind:
    """The kind that claims ``obj``; an :class:`InputError` listing what is accepted when none does
    (``what``: what was to be read, for the message)."""
    kind = find_kind(obj)
    if kind is None:
        accepted = [k.described for k in KINDS if k is not CONVERTED]
        raise InputError(f'cannot read {what} from {type(obj).__name__}: expected {", ".join(accepted[:-1])} '
                         f'or {accepted[-1]}')
    return kind
