"""What a :class:`~.run.Run` and a :class:`~.qrels.Qrels` share to be written back (:mod:`.writing`,
imported only when one is written: pyarrow stays out of a small job's start)."""
from __future__ import annotations

import os
from typing import Any


class WrittenBack:
    """``to_arrow``, ``to_dataframe`` and ``to_parquet`` of the table :meth:`_table` makes."""

    def _table(self) -> Any:
        """The rows as a pyarrow Table (each class says which columns)."""
        raise TypeError(f'{type(self).__name__} does not say how it is written')

    def to_arrow(self) -> Any:
        """A pyarrow Table of the rows (see the class's :meth:`_table`)."""
        return self._table()

    def to_dataframe(self) -> Any:
        """A pandas DataFrame of :meth:`to_arrow`'s columns."""
        return self._table().to_pandas()

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_arrow` as a Parquet file (any id; numbers exactly)."""
        from .writing import write_parquet
        write_parquet(self._table(), path)
