"""The columns of tabular qrels and runs, and the names each may go by.

Every tabular input (pandas, Arrow, polars, Parquet, Dask) names its columns as irmetrics does
(``query_id, doc_id, score`` / ``query_id, doc_id, relevance``, optional ``iteration``) or as
PyTerrier does (``qid, docno, score`` / ``qid, docno, label``).  Other columns are ignored.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..errors import InputError

#: canonical column -> the names it may have, preferred first
RUN_COLUMNS = {'query_id': ('query_id', 'qid'), 'doc_id': ('doc_id', 'docno'), 'score': ('score',)}
QRELS_COLUMNS = {'query_id': ('query_id', 'qid'), 'doc_id': ('doc_id', 'docno'),
                 'relevance': ('relevance', 'label'), 'iteration': ('iteration',)}
OPTIONAL = ('iteration',)
ID_COLUMNS = ('query_id', 'doc_id', 'iteration')


def columns_of(kind: str) -> dict[str, tuple[str, ...]]:
    """The canonical columns of ``kind`` ('run' or 'qrels') and their accepted names."""
    return RUN_COLUMNS if kind == 'run' else QRELS_COLUMNS


def find_columns(available: Iterable[object], kind: str, what: str, source: str | None = None) -> dict[str, str]:
    """``{canonical name: column name}`` among ``available`` columns; a missing required column is an
    :class:`InputError` naming it (with the names it may go by) and the columns there are.

    ``what`` names the input in the message (``'run DataFrame'``), ``source`` the file if there is one.
    """
    available = list(available)
    names = [c for c in available if isinstance(c, str)]
    found: dict[str, str] = {}
    missing = []
    for canonical, accepted in columns_of(kind).items():
        name = next((a for a in accepted if a in names), None)
        if name is not None:
            found[canonical] = name
        elif canonical not in OPTIONAL:
            missing.append(' or '.join(accepted))
    if missing:
        has = ', '.join(map(str, available)) or 'none'
        problem = f'lacks column(s) {"; ".join(missing)} (has {has})'
        raise InputError(f'{what} {problem}', source) if source else InputError(problem, what)
    return found
