"""What is known of the items beyond the judgments: how popular they are, and how they differ.

The measures of popularity bias, novelty and diversity read it (:mod:`irmetrics.measures.beyond_accuracy`).
Each attribute is keyed by item id, as documents are: an array's row ``j`` describes the item ``'j'``
(the column ``j`` of a score matrix), a dict or a pandas Series names its items.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from . import ids
from .digest import digest
from .ids import Ids


class ItemValues:
    """Values (a number or a vector each) of some items, found by item id."""

    def __init__(self, values: Any, what: str):
        self.what = what
        if isinstance(values, dict):
            keys, rows = list(values), list(values.values())
        elif hasattr(values, 'index') and hasattr(values, 'to_numpy'):      # a pandas Series or DataFrame
            keys, rows = list(values.index), values.to_numpy()
        else:
            rows = values
            keys = None
        try:
            array = np.asarray(rows, dtype=np.float64)
        except (TypeError, ValueError) as ex:
            raise InputError(f'{what}: expected numbers ({ex})', 'items') from None
        if array.ndim == 0:
            raise InputError(f'{what}: expected a value per item (an array or a dict), got one number', 'items')
        if len(array) == 0:
            raise InputError(f'{what}: no item has a value (an empty {type(values).__name__}): give a value per item, '
                             f'or leave {what} out', 'items')
        if not np.all(np.isfinite(array)):
            bad = int(np.flatnonzero((~np.isfinite(array.reshape(len(array), -1))).any(axis=1))[0])
            raise InputError(f'{what}: the value of item {self._name(keys, bad)!r} is not a finite number', 'items')
        self.values = array
        #: whether the values are keyed by item id (a dict, a pandas Series), not by position in an array
        self.keyed = keys is not None
        self.ids: Ids = ids.column(np.arange(len(array)) if keys is None else keys)

    @staticmethod
    def _name(keys: list[Any] | None, row: int) -> str:
        return str(row) if keys is None else str(keys[row])

    def rows_of(self, items: Ids) -> np.ndarray:
        """The row of each of ``items`` (an id column), -1 for an item without a value."""
        return items.lookup(self.ids)


class Items:
    """Item popularity and item features, for the measures beyond accuracy.

    ``popularity``: the number of interactions of each item (in the training data, as a rule), and
    ``users``: how many users those interactions come from (novelty reads the share
    ``popularity / users``).  An item without a popularity has popularity 0 in ARP and Novelty, but not in the
    head/tail split (TailShare, HeadRecall, TailRecall): there an item listed with popularity 0 is one of
    the items the head is taken from, and an item left out is always in the tail.  ``features``: a vector per
    item (a 2-D array, row ``j`` the item ``'j'``, or ``{item_id: vector}``), compared by cosine
    distance; or ``distances``: a square array of item-to-item distances (row and column ``j`` the item
    ``'j'``).
    """

    def __init__(self, popularity: Any = None, *, users: int | None = None, features: Any = None,
                 distances: Any = None):
        self.popularity = None if popularity is None else _popularity(popularity)
        self.users = None if users is None else _users(users, self.popularity)
        if features is not None and distances is not None:
            raise InputError('give item features or item distances, not both', 'items')
        self.features = None if features is None else _features(features)
        self.distances = None if distances is None else _distances(distances)

    def check_catalogue(self, size: int, what: str) -> None:
        """That every attribute given as an array (not keyed by item id) has a row per item of a catalogue of
        ``size`` items (``what`` says where that size comes from): a shorter array would describe another
        catalogue."""
        for name in ('popularity', 'features', 'distances'):
            values: ItemValues | None = getattr(self, name)
            if values is not None and values.keyed is False and len(values.values) != size:
                raise InputError(f'{name}: an array of {len(values.values)} items, and {what} {size} items: give a '
                                 f'value for each item of the catalogue (row j is the item j), or a dict or pandas '
                                 f'Series keyed by item id', 'items')
        if self.distances is not None and self.distances.keyed is False and self.distances.values.shape[1] != size:
            raise InputError(f'distances: {self.distances.values.shape[1]} columns, and {what} {size} items', 'items')

    def digest(self) -> str:
        """A hash of everything held (:func:`.digest.digest`), for processes to compare."""
        held = [(values.values, values.ids.fingerprint()) if values is not None else (None,)
                for values in (self.popularity, self.features, self.distances)]
        return digest(self.users, *(part for parts in held for part in parts))

    def has(self, attribute: str) -> bool:
        """Whether the items hold ``attribute``: 'popularity', 'users' or 'features' (features or distances)."""
        if attribute == 'features':
            return self.features is not None or self.distances is not None
        return getattr(self, attribute) is not None

    def __repr__(self) -> str:
        held = [name for name in ('popularity', 'users', 'features', 'distances') if getattr(self, name) is not None]
        return f'<Items: {", ".join(held) or "nothing"}>'


def _popularity(popularity: Any) -> ItemValues:
    """The popularity given: one count of interactions (>= 0) per item."""
    values = ItemValues(popularity, 'popularity')
    if values.values.ndim != 1 or (values.values < 0).any():
        raise InputError('popularity: expected one count of interactions (>= 0) per item', 'items')
    return values


def _users(users: Any, popularity: ItemValues | None) -> int:
    """The number of users given: >= 1, and no fewer than the interactions of any item."""
    if not isinstance(users, (int, np.integer)) or users < 1:
        raise InputError(f'users: expected a number of users >= 1, got {users!r}', 'items')
    if popularity is not None and len(popularity.values) and popularity.values.max() > users:
        raise InputError(f'popularity: an item has {popularity.values.max():g} interactions, more than '
                         f'the {users} users (users= counts the users, popularity the users of each item)',
                         'items')
    return int(users)


def _features(features: Any) -> ItemValues:
    """The features given: a vector per item."""
    values = ItemValues(features, 'features')
    if values.values.ndim != 2:
        raise InputError('features: expected a vector per item (a 2-D array)', 'items')
    return values


def _distances(distances: Any) -> ItemValues:
    """The distances given: a square array of distances >= 0."""
    values = ItemValues(distances, 'distances')
    if values.values.ndim != 2 or values.values.shape[0] != values.values.shape[1]:
        raise InputError('distances: expected a square array (items x items)', 'items')
    if (values.values < 0).any():
        row, column = np.argwhere(values.values < 0)[0]
        first, second = values.ids.take(np.array([row, column])).to_list()
        raise InputError(f'distances: the distance {values.values[row, column]:g} between items {first!r} '
                         f'and {second!r} is negative: distances are >= 0 (a similarity s gives the distance '
                         f'1 - s)', 'items')
    return values
