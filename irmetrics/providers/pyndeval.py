"""pyndeval (ndeval 4.5, the TREC Web track's diversity evaluation tool, in C) as a provider.

Measures translate to ndeval's names by one table and are grouped into one
evaluator per invocation setting (rel, alpha, beta, judged_only).  The run is fed
in the canonical order as distinct rank-derived scores (pyndeval breaks ties by
docno ascending); with judged_only, the unjudged documents are removed first, as
in the native engine.  ndeval computes to depth 20, so cutoffs above 20 are not
declared.  ndeval's nNRBP is 0/0 = NaN for a query without relevant documents;
this provider reports 0 there, irmetrics' convention.

Queries of the qrels absent from the run are left to the caller (they score 0).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..data.qrels import Qrels
from ..data.run import Run
from ..measures import AP_IA, ERR_IA, NRBP, P_IA, StRecall, alpha_DCG, alpha_nDCG, nERR_IA, nNRBP
from .base import ANY, ExternalProvider, Pattern, Prepared

#: ndeval's deepest cutoff (its DEPTH).
NDEVAL_DEPTH = 20
_CUTOFFS = tuple(range(1, NDEVAL_DEPTH + 1))

#: irmetrics measure -> ndeval's name (cutoff measures take '@k').
NDEVAL_NAMES = {m.definition: name for m, name in (
    (alpha_DCG, 'alpha-DCG'), (alpha_nDCG, 'alpha-nDCG'), (ERR_IA, 'ERR-IA'), (nERR_IA, 'nERR-IA'),
    (P_IA, 'P-IA'), (StRecall, 'strec'), (NRBP, 'NRBP'), (nNRBP, 'nNRBP'), (AP_IA, 'MAP-IA'))}


def _ndeval_name(measure: Measure) -> str:
    name = NDEVAL_NAMES[measure.definition]
    return f'{name}@{measure["cutoff"]}' if measure.definition.at_param == 'cutoff' else name


def _invocation(measure: Measure) -> tuple[Any, ...]:
    """(rel, alpha, beta, judged_only) of the evaluator computing ``measure``."""
    defaults = (1, 0.5, 0.5, False)
    return tuple(measure[name] if name in measure.params else default
                 for name, default in zip(('rel', 'alpha', 'beta', 'judged_only'), defaults, strict=True))


class PyndevalPrepared(Prepared):
    def __init__(self, pyndeval: Any, measures: Sequence[Measure], qrels: Qrels) -> None:
        self.measures = list(measures)
        self.query_ids = qrels.query_ids.to_list()
        subtopic_qrels = [pyndeval.SubtopicQrel(q, it, d, g) for q, d, g, it in qrels]
        self.judged: dict[str, set[str]] = {}
        best: dict[tuple[str, str], int] = {}
        for q, d, grade, _ in qrels:
            g = int(grade)                      # whole: ExternalProvider.prepare refuses fractional grades
            best[q, d] = max(g, best.get((q, d), g))
        for (q, d), g in best.items():
            if g >= 0:
                self.judged.setdefault(q, set()).add(d)
        self.invocations: dict[tuple[Any, ...], dict[str, Measure]] = {}
        for m in self.measures:
            self.invocations.setdefault(_invocation(m), {})[_ndeval_name(m)] = m
        self.evaluators = [
            (pyndeval.RelevanceEvaluator(subtopic_qrels, list(names), relevance_level=rel, alpha=alpha,
                                         beta=beta), judged_only, names)
            for (rel, alpha, beta, judged_only), names in self.invocations.items()]

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray]:
        position = {q: i for i, q in enumerate(self.query_ids)}
        out = {m: np.zeros(len(self.query_ids)) for m in self.measures}
        qids = run.query_ids.to_list()
        docs = run.doc_ids.take(run.order).to_list()
        for evaluator, judged_only, names in self.evaluators:
            ranked = []
            for q, (start, end) in enumerate(zip(run.offsets[:-1].tolist(), run.offsets[1:].tolist(), strict=True)):
                if qids[q] not in position:
                    continue
                kept = docs[start:end]
                if judged_only:
                    judged = self.judged.get(qids[q], set())
                    kept = [d for d in kept if d in judged]
                ranked += [(qids[q], d, float(len(kept) - i)) for i, d in enumerate(kept)]
            for qid, values in evaluator.evaluate(ranked).items():
                for name, value in values.items():
                    out[names[name]][position[qid]] = 0.0 if np.isnan(value) else value
        return out


class PyndevalProvider(ExternalProvider):
    name = 'pyndeval'
    install = 'pip install "irmetrics[pyndeval]"  (pyndeval)'
    description = 'pyndeval: ndeval 4.5, the TREC Web track\'s diversity evaluation tool, in C'
    patterns = (
        Pattern(alpha_DCG, cutoff=_CUTOFFS, alpha=ANY, rel=ANY, judged_only=ANY),
        Pattern(alpha_nDCG, cutoff=_CUTOFFS, alpha=ANY, rel=ANY, judged_only=ANY),
        Pattern(ERR_IA, cutoff=_CUTOFFS, alpha=ANY, rel=ANY, judged_only=ANY),
        Pattern(nERR_IA, cutoff=_CUTOFFS, alpha=ANY, rel=ANY, judged_only=ANY),
        Pattern(P_IA, cutoff=_CUTOFFS, rel=ANY, judged_only=ANY),
        Pattern(StRecall, cutoff=_CUTOFFS, rel=ANY),
        Pattern(NRBP, alpha=ANY, beta=ANY, rel=ANY), Pattern(nNRBP, alpha=ANY, beta=ANY, rel=ANY),
        Pattern(AP_IA, rel=ANY, judged_only=ANY),
    )

    library_name = 'pyndeval'
    prepared_class = PyndevalPrepared

