"""pytrec_eval (pytrec-eval-terrier, which embeds trec_eval 9.0.8) as a provider.

Measures are translated to trec_eval names by :mod:`irmetrics.dialects.trec_eval`
and grouped into one ``RelevanceEvaluator`` per invocation setting (relevance
level, judged-only flag, gain mapping, set_F's beta).  The run is fed in the
canonical order as rank-derived scores, because pytrec_eval compares scores as
32-bit floats and would otherwise tie scores that differ as doubles.

Queries of the qrels absent from the run are not given to pytrec_eval (an empty
ranking is undefined behaviour there), nor are queries whose judgments are all
negative (trec_eval 9 then reads relevance-level arrays it never allocated, in
bpref and ndcg: the process crashes or hangs).  Neither kind has a relevant
document retrieved, so their values are set here: 0, except the counts (NumQ,
NumRel as trec_eval -c counts them, NumRet the documents retrieved).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..algebra.params import NOT_PROVIDED
from ..data.qrels import Qrels
from ..data.run import Run
from ..dialects.trec_eval import to_trec_name
from ..measures import (
    AP,
    RR,
    Bpref,
    IPrec,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetAP,
    SetF,
    SetP,
    SetR,
    Success,
    infAP,
    nDCG,
)
from .base import ANY, ExternalProvider, Pattern, Prepared

_ANY_REL = dict(rel=ANY, judged_only=ANY)


def _invocation(measure: Measure, setf_slot: int) -> tuple[Any, ...]:
    """Settings of the RelevanceEvaluator that computes ``measure``."""
    given = measure.params
    return given.get('rel', 1), given.get('judged_only', False), given.get('gains'), setf_slot


class PytrecPrepared(Prepared):
    def __init__(self, pytrec_eval: Any, measures: Sequence[Measure], qrels: Qrels) -> None:
        self.measures = list(measures)
        self.qrels = qrels
        self.query_ids = qrels.query_ids.to_list()
        self.judgments = _qrels_dict(qrels)
        self.evaluable = {q for q, docs in self.judgments.items() if max(docs.values()) >= 0}
        evaluable_judgments = {q: docs for q, docs in self.judgments.items() if q in self.evaluable}
        self.invocations: dict[tuple[Any, ...], dict[str, tuple[Measure, str]]] = {}
        setf = 0
        for m in self.measures:
            trec_name = to_trec_name(m)
            assert trec_name is not None                    # supports() admitted only measures with a name
            base, value = trec_name
            if base == 'set_F':
                key, name, setf = _invocation(m, setf), 'set_F', setf + 1
                request = 'set_F' if value == 1.0 else f'set_F_{value}'
            else:
                key = _invocation(m, 0)
                name = base if value is None else (
                    f'{base}_{value:.2f}' if base == 'iprec_at_recall' else f'{base}_{value}')
                request = name
            self.invocations.setdefault(key, {})[name] = (m, request)
        self.evaluators = []
        for (rel, judged_only, gains, _), names in self.invocations.items():
            judgments = evaluable_judgments if gains is None else _with_gains(evaluable_judgments, gains)
            requests = {req for _, req in names.values()}
            self.evaluators.append((pytrec_eval.RelevanceEvaluator(
                judgments, requests, relevance_level=rel, judged_docs_only_flag=judged_only), names))

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray]:
        ranked = _ranked_dict(run, self.evaluable)
        position = {q: i for i, q in enumerate(self.query_ids)}
        out = {m: np.full(len(self.query_ids), np.nan) for m in self.measures}
        for evaluator, names in self.evaluators:
            for qid, values in evaluator.evaluate(ranked).items():
                for name, value in values.items():
                    out[names[name][0]][position[qid]] = value
        retrieved = dict(zip(run.query_ids.to_list(), np.diff(run.offsets).tolist(), strict=True))
        for q in self.query_ids:
            if q not in ranked:
                for m in self.measures:
                    out[m][position[q]] = _unevaluated_value(m, self.judgments.get(q, {}), retrieved.get(q, 0))
        return out


def _unevaluated_value(measure: Measure, judgments: dict[str, int], n_retrieved: int) -> float:
    """Value of a query not given to pytrec_eval: no relevant document retrieved, so 0 but the counts."""
    if measure.definition is NumQ.definition:
        return 1.0
    if measure.definition is NumRel.definition:
        return float(sum(g >= measure['rel'] for g in judgments.values()))
    if measure.definition is NumRet.definition and 'rel' not in measure.params:
        return float(n_retrieved)
    return 0.0


def _qrels_dict(qrels: Qrels) -> dict[str, dict[str, int]]:
    """{query: {doc: grade}}; a document judged under several subtopics keeps its highest grade."""
    out: dict[str, dict[str, int]] = {}
    for q, d, grade, _ in qrels:
        g = int(grade)                          # whole: ExternalProvider.prepare refuses fractional grades
        docs = out.setdefault(q, {})
        docs[d] = max(g, docs.get(d, g))
    return out


def _with_gains(judgments: dict[str, dict[str, int]],
                gains: tuple[tuple[int, float], ...]) -> dict[str, dict[str, int]]:
    mapping = {g: int(v) for g, v in gains}
    return {q: {d: (mapping.get(g, g) if g >= 0 else g) for d, g in docs.items()} for q, docs in judgments.items()}


def _ranked_dict(run: Run, queries: set[str]) -> dict[str, dict[str, float]]:
    """{query: {doc: score}} with distinct integer scores giving the canonical order."""
    out: dict[str, dict[str, float]] = {}
    qids = run.query_ids.to_list()
    docs = run.doc_ids.take(run.order).to_list()
    for q, (start, end) in enumerate(zip(run.offsets[:-1].tolist(), run.offsets[1:].tolist(), strict=True)):
        if qids[q] in queries and end > start:
            n = end - start
            out[qids[q]] = {d: float(n - i) for i, d in enumerate(docs[start:end])}
    return out


class PytrecEvalProvider(ExternalProvider):
    name = 'pytrec_eval'
    install = 'pip install "irmetrics[pytrec_eval]"  (pytrec-eval-terrier)'
    description = 'pytrec_eval: trec_eval 9.0.8 in C, through pytrec-eval-terrier'
    patterns = (
        Pattern(P, cutoff=ANY, **_ANY_REL), Pattern(R, cutoff=ANY, **_ANY_REL),
        Pattern(AP, cutoff=ANY, **_ANY_REL), Pattern(RR, **_ANY_REL), Pattern(Rprec, **_ANY_REL),
        Pattern(Bpref, rel=ANY), Pattern(infAP, rel=ANY),
        Pattern(nDCG, cutoff=ANY, gains=ANY, judged_only=ANY),
        Pattern(Success, cutoff=ANY, **_ANY_REL), Pattern(IPrec, recall=ANY, **_ANY_REL),
        Pattern(SetP, relative=ANY, **_ANY_REL), Pattern(SetR, rel=ANY),
        Pattern(SetF, beta=ANY, **_ANY_REL), Pattern(SetAP, **_ANY_REL),
        Pattern(NumQ), Pattern(NumRel, rel=ANY), Pattern(NumRet, rel=ANY),
    )

    library_name = 'pytrec_eval'
    prepared_class = PytrecPrepared

    def supports(self, measure: Measure) -> bool:
        if not super().supports(measure):
            return False
        gains = measure['gains'] if measure.definition is nDCG.definition else NOT_PROVIDED
        if isinstance(gains, tuple) and not all(float(v).is_integer() for _, v in gains):
            return False                        # pytrec_eval takes integer grades only
        if measure.definition is IPrec.definition and round(measure['recall'], 2) != measure['recall']:
            return False                        # trec_eval names carry two decimals
        # pytrec_eval refuses relevance levels below 1 (NumRet(rel=0))
        return not ('rel' in measure.params and measure['rel'] < 1)

