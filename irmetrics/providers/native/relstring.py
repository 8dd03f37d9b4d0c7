"""trec_eval's relstring: the grades of the top of each ranking, one character a document.

A grade 0-9 is its digit, a higher one ``>``; a document absent from the qrels is ``-``, one judged
with a negative grade (pooled but not judged) ``.``.
"""
from __future__ import annotations

import numpy as np

from ...data.qrels import Qrels
from ...data.run import Run
from ...data.segments import offsets_of
from .table import QrelsIndex, RankedTable


def relevance_strings(qrels: Qrels | QrelsIndex, run: Run, depth: int, judged_only: bool = False) -> list[str]:
    """The relstring of each query of the qrels (in the qrels' order): the first ``depth`` documents of
    its ranking, or of the ranking of judged documents only (trec_eval -J); '' for a query missing from
    the run.  Give the :class:`QrelsIndex` an evaluator already holds to reuse it."""
    index = qrels if isinstance(qrels, QrelsIndex) else QrelsIndex(qrels)
    t = RankedTable(index, run if judged_only else run.top(depth))
    lengths = np.minimum(t.ret_count(judged_only), max(depth, 0))
    starts = offsets_of(np.repeat(np.arange(t.nq), lengths), t.nq)
    text = np.full(int(lengths.sum()), ord('-'), dtype=np.uint8)
    rank = t.rank_in(judged_only)
    shown = (rank >= 0) & (rank < depth)
    grade = t.grade[shown]
    text[starts[t.query[shown]] + rank[shown]] = np.where(grade > 9, ord('>'), np.where(
        grade < 0, ord('.'), ord('0') + np.clip(grade, 0, 9))).astype(np.uint8)
    joined = text.tobytes().decode('ascii')
    return [joined[a:b] for a, b in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True)]
