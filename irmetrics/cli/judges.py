"""``irmetrics judges``: can a judge's qrels (an LLM's grades) stand in for people's when ranking these runs?

    irmetrics judges QRELS LLM_QRELS RUN RUN RUN... [-m MEASURE] [--threshold 2] [--top K] [options]

Prints the report of :func:`irmetrics.judge_agreement`: the agreement of the grades on the pairs both qrels
judge (Cohen's kappa of the grades and at ``--threshold``, Krippendorff's alpha, the confusion of grades) and
of the leaderboards of the runs by ``-m`` (default nDCG@10) under each (Kendall's tau-b, tau_AP, Spearman's
rho and Pearson's r with bootstrap intervals over the topics, RBO, the top-k agreement, each run's means and
ranks).  The report carries its warnings in the formats that have a place for them (not also on stderr).
"""
from __future__ import annotations

import argparse
import warnings
from typing import TextIO

from ..api.run_names import named_runs, stem
from ..errors import InputError, IrmetricsWarning
from ..trust import judge_agreement
from ..trust.leaderboard_agreement import checked_top
from .evaluate import check_runs, resolve_measures
from .sources import load_qrels, load_run

#: The measure ranking the runs when ``-m`` is not given (the UMBRELA studies' leaderboards).
DEFAULT_MEASURE = 'nDCG@10'
#: The formats whose report carries the warnings (CSV, TSV and JSON lines have no place for them).
CARRY_WARNINGS = ('table', 'markdown', 'latex', 'html', 'json')


def run(args: argparse.Namespace, out: TextIO) -> None:
    measures = resolve_measures(args.measure or [DEFAULT_MEASURE], args.dialect)
    if len(measures) != 1:
        raise InputError(f'-m names {len(measures)} measures ({", ".join(map(str, measures))}): the runs are ranked '
                         f'by one')
    paths = named_runs(args.runs)
    check_runs(list(paths.values()))
    checked_top(args.top, len(paths))                       # three runs or more, before anything is read
    people = load_qrels(args.qrels, args.qrels_duplicates)
    judge = load_qrels(args.llm_qrels, args.qrels_duplicates)
    runs = {name: load_run(path, args.duplicates) for name, path in paths.items()}
    with warnings.catch_warnings():
        if args.format in CARRY_WARNINGS:                   # printed once, in the report, not also on stderr
            warnings.simplefilter('ignore', IrmetricsWarning)
        result = judge_agreement(measures[0], people, judge, runs, threshold=args.threshold, top=args.top,
                                 ci=args.ci, n_resamples=args.resamples, seed=args.seed, tie_variant=args.tie_variant,
                                 p=args.p, labels=_labels(args.qrels, args.llm_qrels), provider=args.provider)
    out.write(result.render(args.format, places=args.places))


def _labels(qrels: str, llm_qrels: str) -> tuple[str, str]:
    """What the report calls the two qrels: their files' stems, or the paths where the stems are the same."""
    stems = (stem(qrels), stem(llm_qrels))
    return stems if stems[0] != stems[1] else (qrels, llm_qrels)
