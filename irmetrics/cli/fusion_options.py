"""The fusion options of ``irmetrics fuse`` and ``irmetrics compare --fuse``: their words read, and the fused runs.

``--param NAME=VALUE`` (a number where the value reads as one), ``--weights 0.3,0.7`` (one number a run),
and ``compare``'s ``--fuse [NAME=]METHOD[:ITEM,ITEM...]``, each item a weight (a number), ``norm=NORM`` or a
parameter ``NAME=VALUE``: ``rrf``, ``rrf:k=20``, ``wsum:0.3,0.7``, ``hybrid=wsum:0.3,0.7,norm=zmuv``.  The
method, its parameters and its weights are checked by :func:`irmetrics.fuse`, whose errors name what is wrong.
"""
from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..data.run import Run
from ..errors import InputError
from ..fusion import fuse


def number(text: str) -> Any:
    """``text`` as an int or a float where it reads as one, else as it is (a parameter taking a word)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def param(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` as (NAME, VALUE read by :func:`number`)."""
    name, sep, value = text.partition('=')
    if not sep or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f'{text!r} is not NAME=VALUE (e.g. k=60)')
    return name.strip(), number(value.strip())


def weights(text: str) -> list[float]:
    """``0.3,0.7`` as [0.3, 0.7]."""
    try:
        return [float(w) for w in text.split(',')]
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not numbers separated by commas (e.g. 0.3,0.7)') from None


@dataclass(frozen=True)
class Fusion:
    """One ``--fuse`` of ``compare``: the fused run's name, the method, its weights, parameters and normalisation."""

    name: str
    method: str
    weights: list[float] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    norm: str = 'auto'

    def of(self, runs: Mapping[str, Run]) -> Run:
        """The runs fused as this says."""
        fused: Run = fuse(dict(runs), method=self.method, norm=self.norm, weights=self.weights, name=self.name,
                          **self.params)
        return fused


def fusion(text: str) -> Fusion:
    """``[NAME=]METHOD[:ITEM,ITEM...]`` (module docstring) as a :class:`Fusion`, named NAME or ``text``."""
    head, sep, rest = text.partition('=')
    name, spec = (head, rest) if sep and head and not set(head) & set(':,') else (text, text)
    method, _, items = spec.partition(':')
    if not method:
        raise argparse.ArgumentTypeError(f'{text!r} names no method: METHOD[:WEIGHT,...|NAME=VALUE,...], e.g. '
                                         f'rrf, rrf:k=20, wsum:0.3,0.7')
    given, params, norm = [], {}, 'auto'
    for item in (items.split(',') if items else []):
        if '=' in item:
            key, value = param(item)
            if key == 'norm':
                norm = str(value)
            else:
                params[key] = value
        else:
            given.extend(weights(item))
    return Fusion(name, method, given or None, params, norm)


def fused_name(method: str, runs: Sequence[str]) -> str:
    """The name of a fusion of ``runs`` by ``method`` when none is given: ``rrf(bm25,dense)``."""
    return f'{method}({",".join(runs)})'


def fused_runs(fusions: Sequence[Fusion], runs: Mapping[str, Run]) -> dict[str, Run]:
    """Each fusion of ``runs`` by its name (``compare --fuse``)."""
    return {f.name: f.of(runs) for f in fusions}


def check_names(fusions: Sequence[Fusion], runs: Sequence[str]) -> list[str]:
    """The fusions' names, none of them a run's or another fusion's."""
    names = [f.name for f in fusions]
    taken = next((n for i, n in enumerate(names) if n in names[:i] or n in runs), None)
    if taken is not None:
        raise InputError(f'two runs are named {taken!r}: name the fusion --fuse NAME=METHOD (e.g. --fuse '
                         f'hybrid={taken})')
    return names
