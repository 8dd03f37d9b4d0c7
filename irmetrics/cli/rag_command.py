"""``irmetrics rag``: RAG answers evaluated from the AutoNuggetizer's files (:mod:`irmetrics.rag`).

Without ``--compare`` it prints every run's means (``-q``: and per-topic values) in the layouts of the
evaluation command; with it, the report of ``irmetrics compare`` over the topics; with ``--against OTHER``, the
report of :func:`irmetrics.rag.assignment_agreement` (ASSIGNMENTS checked against OTHER), as ``irmetrics judges``
prints it.  The reports carry their warnings in the formats that have a place for them (not also on stderr).
"""
from __future__ import annotations

import argparse
import warnings
from typing import TextIO

from ..comparing import Comparison
from ..errors import IrmetricsWarning
from ..rag import AssignmentAgreement, assignment_agreement, compare, evaluate
from ..rendering.evaluation import Options, RunResults
from .args import UsageError
from .compare import CARRY_WARNINGS
from .formats import RENDERERS

#: The resamples of each report when ``--resamples`` is not given (those of ``irmetrics compare`` and ``judges``).
RESAMPLES = {'compare': 10000, 'against': 1000}


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = list(args.measure)
    if args.compare and args.against:
        raise UsageError('--compare and --against: choose one report')
    if args.against and args.answers:
        raise UsageError('--against compares assignments: give no ANSWERS')
    if args.compare or args.against:
        with warnings.catch_warnings():
            if args.format in CARRY_WARNINGS:           # printed once, in the report, not also on stderr
                warnings.simplefilter('ignore', IrmetricsWarning)
            report: Comparison | AssignmentAgreement = (_against(args, measures) if args.against
                                                        else _compare(args, measures))
        out.write(report.render(args.format, places=args.places))
        return
    found = evaluate(measures, args.nuggets, args.assignments, args.answers)
    results = [RunResults(name, r) for name, r in found.results().items()]
    out.write(RENDERERS[args.format](results, Options(by_query=args.by_query, summary=True, places=args.places)))


def _compare(args: argparse.Namespace, measures: list[str]) -> Comparison:
    return compare(measures, args.nuggets, args.assignments, args.answers, baseline=args.baseline,
                   test=tuple(args.test or ['t']), correction=args.correction, correction_scope=args.correction_scope,
                   alpha=args.alpha, ci=args.ci, ci_method=args.ci_method,
                   n_resamples=args.resamples or RESAMPLES['compare'], seed=args.seed)


def _against(args: argparse.Namespace, measures: list[str]) -> AssignmentAgreement:
    return assignment_agreement(args.nuggets, args.assignments, args.against, measure=measures,
                                threshold=args.threshold, top=args.top, ci=args.ci,
                                n_resamples=args.resamples or RESAMPLES['against'], seed=args.seed,
                                tie_variant=args.tie_variant, p=args.p)
