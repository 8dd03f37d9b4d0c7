"""``irmetrics rag``: RAG answers evaluated from the AutoNuggetizer's files (:mod:`irmetrics.rag`).

Without ``--compare`` it prints every run's means (``-q``: and per-topic values) in the layouts of the
evaluation command; with it, the report of ``irmetrics compare`` over the topics.
"""
from __future__ import annotations

import argparse
import warnings
from typing import TextIO

from ..errors import IrmetricsWarning
from ..rag import compare, evaluate
from ..rendering.evaluation import Options, RunResults
from .compare import CARRY_WARNINGS
from .formats import RENDERERS


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = list(args.measure)
    if args.compare:
        with warnings.catch_warnings():
            if args.format in CARRY_WARNINGS:           # printed once, in the report, not also on stderr
                warnings.simplefilter('ignore', IrmetricsWarning)
            comparison = compare(measures, args.nuggets, args.assignments, args.answers, baseline=args.baseline,
                                 test=tuple(args.test or ['t']), correction=args.correction,
                                 correction_scope=args.correction_scope, alpha=args.alpha, ci=args.ci,
                                 ci_method=args.ci_method, n_resamples=args.resamples, seed=args.seed)
        out.write(comparison.render(args.format, places=args.places))
        return
    found = evaluate(measures, args.nuggets, args.assignments, args.answers)
    results = [RunResults(name, r) for name, r in found.results().items()]
    out.write(RENDERERS[args.format](results, Options(by_query=args.by_query, summary=True, places=args.places)))
