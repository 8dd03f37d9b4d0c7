"""Combining runs: several rankings of the same queries fused into one (hybrid retrieval, metasearch).

:func:`fuse` combines runs by any of ranx's methods and normalisations, exactly and over columns;
:func:`optimize_fusion` chooses a method's weights or parameters on held-out queries.  The room reads runs
through the data room's one door and evaluates through the API; nothing below it imports it.
"""
from __future__ import annotations

from .fusing import fuse
from .optimize import FoldChoice, FusionTuning, optimize_fusion

__all__ = ['FoldChoice', 'FusionTuning', 'fuse', 'optimize_fusion']
