"""trectools (Palotti, Scells and Zuccon, SIGIR 2019) as a provider: P, RR, Rprec, AP, nDCG, Bpref, RBP.

trectools works on pandas DataFrames and orders tied documents its own way, so the run is handed over
in irmetrics' canonical order (score descending, docno descending) with distinct rank-derived scores,
decreasing over the whole run (trectools' RBP averages the weights of equal scores even across
queries), and trectools is told to keep that order (``trec_eval=False``).  Translation:

- trectools leaves out, or gives NaN for, the queries where a measure is 0 in trec_eval (no relevant
  document retrieved, no relevant document at all); those are reported as 0 here.
- trectools counts every grade other than 0 as relevant in Bpref, negative ones included; negative
  judgments (pooled but unjudged, for trec_eval) are therefore not handed to it, which changes no other
  measure (they are non-relevant, gain 0, for all of them).
- A document judged under several iterations (subtopics) keeps its highest grade.

Known differences that remain (asserted by the agreement tests): Bpref is 0 for a query without judged
non-relevant documents, where trec_eval gives the fraction of relevant documents retrieved; graded RBP
uses raw grades (irmetrics' RBP without rel, not trec_eval's rescaled rbp).  Only ``rel=1`` (trectools'
``rel > 0``) is supported.  Under pandas 3, trectools 0.0.50's Rprec is wrong (its ``groupby.apply``
drops the query column and relevant documents of other queries with the same docno count), so the
provider does not offer Rprec there.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..algebra.params import NOT_PROVIDED
from ..data.qrels import Qrels
from ..data.run import Run
from ..data.segments import ranges
from ..measures import AP, RBP, RR, Bpref, P, Rprec, nDCG
from .base import ANY, ExternalProvider, Pattern, Prepared

_WHOLE = sys.maxsize        # trectools' depth for "no cutoff" (as ir_measures passes it)


def _depth(measure: Measure) -> int:
    cutoff = measure['cutoff'] if 'cutoff' in measure.params else NOT_PROVIDED
    return _WHOLE if cutoff is NOT_PROVIDED else cutoff


#: measure definition -> function(TrecEval, measure) -> per-query DataFrame (one column)
_CALLS = {
    P.definition: lambda ev, m: ev.get_precision(depth=_depth(m), per_query=True, trec_eval=False,
                                                 removeUnjudged=False),
    RR.definition: lambda ev, m: ev.get_reciprocal_rank(depth=_depth(m), per_query=True, trec_eval=False,
                                               removeUnjudged=False),
    Rprec.definition: lambda ev, m: ev.get_rprec(depth=_WHOLE, per_query=True, trec_eval=False, removeUnjudged=False),
    AP.definition: lambda ev, m: ev.get_map(depth=_depth(m), per_query=True, trec_eval=False),
    nDCG.definition: lambda ev, m: ev.get_ndcg(depth=_depth(m), per_query=True, trec_eval=m['dcg'] == 'log2',
                                      removeUnjudged=False),
    Bpref.definition: lambda ev, m: ev.get_bpref(depth=_WHOLE, per_query=True, trec_eval=False),
    RBP.definition: lambda ev, m: ev.get_rbp(p=m['p'], depth=_depth(m), per_query=True,
                                    binary_topical_relevance=m['rel'] is not NOT_PROVIDED, average_ties=True,
                                    removeUnjudged=False)[0],
}


class TrectoolsPrepared(Prepared):
    def __init__(self, trectools: Any, measures: Sequence[Measure], qrels: Qrels) -> None:
        import pandas as pd
        self.trectools = trectools
        self.measures = list(measures)
        self.query_ids = qrels.query_ids.to_list()
        frame = pd.DataFrame({'query': qrels.query_ids.take(qrels.qidx).to_list(),
                              'docid': qrels.doc_ids.to_list(), 'rel': qrels.relevance})
        frame = frame[frame['rel'] >= 0].groupby(['query', 'docid'], as_index=False)['rel'].max()
        frame.insert(1, 'q0', 0)
        self.qrels = trectools.TrecQrel()
        self.qrels.qrels_data = frame

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray]:
        out = {m: np.zeros(len(self.query_ids)) for m in self.measures}
        trec_run = self._run(run)
        if len(trec_run.run_data) == 0 or len(self.qrels.qrels_data) == 0:
            return out                                  # trectools fails on empty frames; every value is 0
        evaluator = self.trectools.TrecEval(trec_run, self.qrels)
        position = {q: i for i, q in enumerate(self.query_ids)}
        for m in self.measures:
            values = out[m]
            frame = _CALLS[m.definition](evaluator, m)
            for qid, value in zip(frame.index.tolist(), frame.iloc[:, 0].tolist(), strict=True):
                if qid in position and value == value:           # NaN: 0, as trec_eval gives
                    values[position[qid]] = value
        return out

    def _run(self, run: Run) -> Any:
        import pandas as pd
        query = run.query_ids.take(run.qidx[run.order]).to_list()
        docs = run.doc_ids.take(run.order).to_list()
        n = len(docs)
        frame = pd.DataFrame({'query': query, 'q0': 'Q0', 'docid': docs,
                              'rank': ranges(np.diff(run.offsets)) + 1,
                              'score': np.arange(n, 0, -1, dtype=np.float64), 'system': 'irmetrics'})
        trec_run = self.trectools.TrecRun()
        trec_run.run_data = frame[frame['query'].isin(set(self.query_ids))].reset_index(drop=True)
        return trec_run


class TrectoolsProvider(ExternalProvider):
    name = 'trectools'
    install = 'pip install "irmetrics[trectools]"'
    description = 'trectools: pandas implementations of P, RR, Rprec, AP, nDCG, Bpref and RBP'
    patterns = (
        Pattern(P, cutoff=ANY), Pattern(RR, cutoff=ANY), Pattern(Rprec), Pattern(AP, cutoff=ANY),
        Pattern(nDCG, cutoff=ANY, dcg=ANY), Pattern(Bpref),
        Pattern(RBP, cutoff=ANY, p=ANY, rel=(NOT_PROVIDED, 1)),
    )

    library_name = 'trectools'
    prepared_class = TrectoolsPrepared

    def supports(self, measure: Measure) -> bool:
        if measure.definition is Rprec.definition and _pandas_major() >= 3:
            return False                            # see the module docstring
        return super().supports(measure)


def _pandas_major() -> int:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return int(version('pandas').split('.')[0])
    except (PackageNotFoundError, ValueError):
        return 0
