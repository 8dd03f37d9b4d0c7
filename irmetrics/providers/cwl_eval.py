"""cwl_eval (the C/W/L framework's reference implementation, Azzopardi et al. 2019) as a provider.

Measures translate to cwl_eval's metric classes by one table.  Each setting of
the gains (binary at ``rel`` for P, RR and AP; scaled by ``min_rel``/``max_rel``
for the others) is one qrels handler, built once.  The run is fed in the canonical
order, because cwl_eval keeps file order for ties; cwl_eval itself cuts every
ranking to 1000 documents, which is why only ``RR@1000`` and
``AP(divisor='num_rel_ret')@1000`` are cwl_eval's RR and AP.  A document judged
under several subtopics takes its highest grade, as in the native engine.

Queries of the qrels absent from the run are left to the caller (they score 0).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ..algebra.measure import Measure
from ..data.qrels import Qrels
from ..data.run import Run
from ..measures import AP, BPM, INSQ, INST, NERR8, NERR9, NERR10, NERR11, RR, SDCG, P
from ..measures.cwl import CWL_DEPTH
from .base import ANY, ExternalProvider, Pattern, Prepared

_SCALED = dict(min_rel=ANY, max_rel=ANY)

#: irmetrics measure definition -> (cwl_eval metric class, the measure's parameters its constructor takes).
CWL_METRICS = {
    P.definition: ('PrecisionCWLMetric', ('cutoff',)),
    RR.definition: ('RRCWLMetric', ()),
    AP.definition: ('APCWLMetric', ()),
    BPM.definition: ('BPMCWLMetric', ('T', 'cutoff')),
    SDCG.definition: ('NDCGCWLMetric', ('cutoff',)),
    NERR8.definition: ('NERReq8CWLMetric', ('cutoff',)),
    NERR9.definition: ('NERReq9CWLMetric', ('cutoff',)),
    NERR10.definition: ('NERReq10CWLMetric', ('p',)),
    NERR11.definition: ('NERReq11CWLMetric', ('T',)),
    INST.definition: ('INSTCWLMetric', ('T',)),
    INSQ.definition: ('INSQCWLMetric', ('T',)),
}


def _gain_setting(measure: Measure) -> tuple[Any, ...]:
    """('binary', rel) for P, RR and AP; ('scaled', min_rel, max_rel) for the others."""
    if measure.definition in (P.definition, RR.definition, AP.definition):
        return 'binary', measure['rel']
    return 'scaled', measure['min_rel'], measure['max_rel']


def _gain(setting: tuple[Any, ...], grade: int) -> float:
    if setting[0] == 'binary':
        return 1.0 if grade >= setting[1] else 0.0
    _, low, high = setting
    return cast(float, (min(max(grade, 0, low), high) - low) / (high - low))


class CwlPrepared(Prepared):
    def __init__(self, cwl: Any, measures: Sequence[Measure], qrels: Qrels) -> None:
        from cwl.ruler import cwl_ruler
        from cwl.ruler.ranking import RankingMaker
        from cwl.seeker.trec_qrel_handler import TrecQrelHandler
        self.measures = list(measures)
        self.query_ids = qrels.query_ids.to_list()
        self._ranking_maker = RankingMaker
        grades: dict[tuple[str, str], int] = {}
        for q, d, grade, _ in qrels:
            g = int(grade)                      # whole: ExternalProvider.prepare refuses fractional grades
            grades[q, d] = max(g, grades.get((q, d), g))
        self.handlers: dict[tuple[Any, ...], object] = {}
        self.metrics: list[tuple[Measure, tuple[Any, ...], Any]] = []
        for m in self.measures:
            setting = _gain_setting(m)
            if setting not in self.handlers:
                handler = TrecQrelHandler(None)
                for (q, d), g in grades.items():
                    handler.put_value(q, d, _gain(setting, g))
                self.handlers[setting] = handler
            cls, args = CWL_METRICS[m.definition]
            self.metrics.append((m, setting, getattr(cwl_ruler, cls)(*(m[a] for a in args))))

    def evaluate(self, run: Run) -> dict[Measure, np.ndarray]:
        position = {q: i for i, q in enumerate(self.query_ids)}
        out = {m: np.zeros(len(self.query_ids)) for m in self.measures}
        qids = run.query_ids.to_list()
        docs = run.doc_ids.take(run.order).to_list()
        for q, (start, end) in enumerate(zip(run.offsets[:-1].tolist(), run.offsets[1:].tolist(), strict=True)):
            if qids[q] not in position or end == start:
                continue
            rankings = {}
            for setting, handler in self.handlers.items():
                maker = self._ranking_maker(qids[q], handler, max_n=CWL_DEPTH)
                for d in docs[start:end]:
                    maker.add(d, '_')
                rankings[setting] = maker.get_ranking()
            for m, setting, metric in self.metrics:
                out[m][position[qids[q]]] = metric.measure(rankings[setting])
        return out


class CwlEvalProvider(ExternalProvider):
    name = 'cwl_eval'
    install = 'pip install "irmetrics[cwl_eval]"  (cwl-eval)'
    description = 'cwl_eval: the C/W/L framework\'s reference implementation in Python'
    patterns = (
        Pattern(P, cutoff=ANY, rel=ANY),
        Pattern(RR, cutoff=(CWL_DEPTH,), rel=ANY),
        Pattern(AP, cutoff=(CWL_DEPTH,), divisor=('num_rel_ret',), rel=ANY),
        Pattern(BPM, cutoff=ANY, T=ANY, **_SCALED),
        Pattern(SDCG, cutoff=ANY, dcg=ANY, **_SCALED),
        Pattern(NERR8, cutoff=ANY, **_SCALED), Pattern(NERR9, cutoff=ANY, **_SCALED),
        Pattern(NERR10, p=ANY, **_SCALED), Pattern(NERR11, T=ANY, **_SCALED),
        Pattern(INST, T=ANY, **_SCALED), Pattern(INSQ, T=ANY, **_SCALED),
    )

    library_name = 'cwl'
    prepared_class = CwlPrepared

    def configure(self, library: Any) -> Any:
        import logging
        logging.getLogger('cwl').disabled = True      # cwl_eval's metrics log every query
        return library

    def supports(self, measure: Measure) -> bool:
        # cwl_eval's precision fails beyond its depth
        return super().supports(measure) and not (measure.definition is P.definition and measure['cutoff'] > CWL_DEPTH)

