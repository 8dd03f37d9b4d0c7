"""The reference tools the agreement tests compare with (all in the ``test`` extra), imported on first use.

A module of tests imports them through :func:`reference` rather than at its top (or with
``pytest.importorskip``): its hand-computed tests then run whatever is installed, and a test that
needs a missing tool fails with an ImportError instead of being skipped.
"""
from __future__ import annotations

import importlib
from types import ModuleType


class _Lazy:
    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attribute: str):
        module: ModuleType = importlib.import_module(self._name)
        return getattr(module, attribute)


def reference(name: str):
    """The module ``name``, imported when one of its attributes is first used."""
    return _Lazy(name)
