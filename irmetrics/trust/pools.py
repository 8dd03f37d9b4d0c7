"""Depth-k pools: the documents to judge, as TREC builds them from the runs it receives.

The pool of depth ``k`` holds, for every query, the union of each run's first ``k`` documents in
trec_eval's ranking order (score descending, ties by document id descending: :mod:`irmetrics.data.ranking`,
never the rank column), as in the TREC pooling method (K. Sparck Jones and C. J. van Rijsbergen,
Report on the need for and provision of an 'ideal' information retrieval test collection, British
Library Research and Development Report 5266, 1975; E. M. Voorhees and D. K. Harman, TREC:
Experiment and Evaluation in Information Retrieval, MIT Press, 2005).  Given ``qrels``, the pairs
they judge already are left out (what remains is what to judge next) and counted.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..api.argument_order import qrels_first
from ..comparing.toolkit import name_runs
from ..constraints import Int, Option
from ..data import ids
from ..data.ids import Ids
from ..data.inputs import to_qrels, to_run
from ..data.judged_pairs import judgment_rows
from ..data.qrels import Qrels
from ..data.segments import ranges
from ..rendering.result import Table, Tabled
from .read_only import ReadOnlyArrays

DEPTH = Option('depth', Int(minimum=1))
#: The grade of a pooled document in the pool's qrels file: trec_eval's "pooled but not judged" (infAP reads it)
POOLED = -1


@dataclass(frozen=True, eq=False)
class Pool(ReadOnlyArrays, Tabled):
    """The documents a depth-``depth`` pool of ``runs`` holds (see :func:`pool`).

    ``qrels``: the pairs to judge, each with grade -1 (trec_eval's pooled but not judged), query by
    query (in order of first appearance in the runs), documents by id ascending; :meth:`to_trec`
    writes them as a qrels file.  ``query_ids`` and, per query: ``size`` (the pool before leaving
    out judged pairs), ``judged`` (of those, judged by the qrels given; None without), ``retrieved``
    and ``unique`` (runs x queries: how many of a run's top ``depth`` are pooled, and how many of them
    no other run pooled).
    """

    depth: int
    runs: tuple[str, ...]
    qrels: Qrels
    query_ids: tuple[str, ...]
    size: np.ndarray
    judged: np.ndarray | None
    retrieved: np.ndarray
    unique: np.ndarray

    def __len__(self) -> int:
        """The pairs to judge."""
        return len(self.qrels)

    def to_trec(self, path: Any) -> None:
        """Write the pairs to judge as a TREC qrels file ``query_id 0 doc_id -1``."""
        self.qrels.to_trec(path)

    def table(self, *, by_query: bool = False) -> Table:
        """Per run, its documents in the pool (its top ``depth``) and those no other run pooled; with ``by_query``
        per query: the pool's size, judged and to judge (with qrels), and each run's unique documents."""
        if by_query:
            frame = self.to_dataframe()
            rows = [[q, *map(int, values)] for q, values in zip(frame.index, frame.to_numpy().tolist(), strict=True)]
            return Table(['query', *frame.columns], rows)
        rows = [[name, int(r.sum()), int(u.sum())]
                for name, r, u in zip(self.runs, self.retrieved, self.unique, strict=True)]
        judged = (f'; {int(self.judged.sum())} judged already, {len(self)} to judge' if self.judged is not None
                  else '')
        notes = (f'pool of depth {self.depth}: {int(self.size.sum())} documents for {len(self.query_ids)} '
                 f'queries{judged}\n')
        return Table(['run', f'top {self.depth}', 'unique'], rows, notes=notes)

    def to_dataframe(self) -> Any:
        """Per query (index ``query_id``): ``pool`` (size), ``judged`` and ``to_judge`` (with qrels), then
        ``unique <run>``: the documents only that run pooled."""
        import pandas as pd
        columns: dict[str, Any] = {'pool': self.size}
        if self.judged is not None:
            columns |= {'judged': self.judged, 'to_judge': self.size - self.judged}
        columns |= {f'unique {name}': row for name, row in zip(self.runs, self.unique, strict=True)}
        return pd.DataFrame(columns, index=pd.Index(self.query_ids, name='query_id'))

    def to_dict(self) -> dict[str, Any]:
        """Totals over the queries: pool size, judged and to judge, and per run retrieved and unique."""
        out: dict[str, Any] = {'depth': self.depth, 'queries': len(self.query_ids), 'pool': int(self.size.sum())}
        if self.judged is not None:
            out |= {'judged': int(self.judged.sum()), 'to_judge': len(self)}
        out['runs'] = {name: {'retrieved': int(r.sum()), 'unique': int(u.sum())}
                       for name, r, u in zip(self.runs, self.retrieved, self.unique, strict=True)}
        return out

    def __repr__(self) -> str:
        judged = f', {int(self.judged.sum())} judged already, {len(self)} to judge' if self.judged is not None else ''
        return (f'<Pool depth {self.depth} of {len(self.runs)} runs: {int(self.size.sum())} documents for '
                f'{len(self.query_ids)} queries{judged}>')


@qrels_first('pool(runs, *, depth, qrels=None)')
def pool(qrels: Any, runs: Mapping[str, Any] | Sequence[Any], *, depth: int, duplicates: str = 'error') -> Pool:
    """The depth-``depth`` pool of ``runs``: the documents to judge, as TREC pools them.

    For every query any run retrieves, the union of each run's top ``depth`` documents in trec_eval's
    order (see the module docstring).  The result counts, per query, how many documents each run
    contributed that no other run did (``unique``): a run whose unique share is large is one the other
    runs would not have judged for.

    Only the runs are read for a pool (no measure is evaluated), so of the shared options only
    ``duplicates`` applies.

    Parameters
    ----------
    qrels : any qrels input, or None
        Judgments already made (None: none yet); the pairs they judge (with any grade) are counted in
        ``judged`` and left out of the pairs to judge.  A query absent from the qrels is pooled whole.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs (named by their files' stems), each any run input irmetrics
        reads.
    depth : int
        How many documents of each ranking are pooled (1 or more).
    duplicates : str
        As in :func:`irmetrics.to_run`.

    Returns
    -------
    Pool
        The pairs to judge (``qrels``, each with grade -1) and the counts per query;
        ``p.to_trec('to_judge.txt')`` writes the pairs to judge for the assessors.

    Examples
    --------
    >>> p = irmetrics.pool('examples/qrels.txt', ['examples/run_bm25.txt', 'examples/run_dense.txt'], depth=10)
    >>> p
    <Pool depth 10 of 2 runs: 181 documents for 10 queries, 130 judged already, 51 to judge>
    """
    depth = DEPTH.check(depth)
    names, inputs = name_runs(runs, at_least=1)
    tops = [to_run(r, duplicates=duplicates).top(depth) for r in inputs]
    query_vocabulary, query_codes = _encoded([t.query_ids for t in tops])
    starts = np.cumsum([0] + [t.num_queries for t in tops])[:-1]
    query = np.concatenate([query_codes[start + t.qidx[t.order]] for start, t in zip(starts, tops, strict=True)])
    doc_vocabulary, doc = _encoded([t.doc_ids.take(t.order) for t in tops])
    run = np.repeat(np.arange(len(tops)), [len(t) for t in tops])
    n_queries, width = len(query_vocabulary), np.int64(max(len(doc_vocabulary), 1))
    keys, inverse, runs_of = np.unique(query.astype(np.int64) * width + doc, return_inverse=True, return_counts=True)
    alone = runs_of[inverse.ravel()] == 1
    per_run = np.bincount(run * n_queries + query, minlength=len(tops) * n_queries).reshape(len(tops), n_queries)
    unique = np.bincount(run * n_queries + query, weights=alone, minlength=len(tops) * n_queries)
    pooled_query, pooled_doc = (keys // width).astype(np.int64), (keys % width).astype(np.int64)
    size = np.bincount(pooled_query, minlength=n_queries)
    to_judge = np.ones(len(keys), dtype=bool)
    judged = None
    if qrels is not None:
        to_judge = judgment_rows(to_qrels(qrels), query_vocabulary, pooled_query, doc_vocabulary.take(pooled_doc)) < 0
        judged = size - np.bincount(pooled_query[to_judge], minlength=n_queries)
    chosen = np.flatnonzero(to_judge)
    by_id = doc_vocabulary.take(pooled_doc[chosen]).order_within_groups(pooled_query[chosen])   # id descending
    chosen = chosen[by_id][_reversed_within(pooled_query[chosen][by_id])]
    pooled = Qrels.from_columns(query_vocabulary.take(pooled_query[chosen]), doc_vocabulary.take(pooled_doc[chosen]),
                                np.full(len(chosen), POOLED, dtype=np.int64), source='pool')
    return Pool(depth, tuple(names), pooled, tuple(query_vocabulary.to_list()), size, judged, per_run,
                unique.reshape(len(tops), n_queries).astype(np.int64))


def _encoded(columns: list[Ids]) -> tuple[Ids, np.ndarray]:
    """The distinct ids of several columns (in order of first appearance) and each id's code in them."""
    return ids.column(np.concatenate([np.asarray(c.to_list(), dtype=object) for c in columns])).encode()


def _reversed_within(groups: np.ndarray) -> np.ndarray:
    """The positions of rows sorted by group, each group's rows in reverse order."""
    sizes = np.bincount(groups) if len(groups) else np.zeros(0, dtype=np.int64)
    sizes = sizes[sizes > 0]
    ends = np.cumsum(sizes)
    return cast(np.ndarray, np.repeat(ends - 1, sizes) - ranges(sizes))
