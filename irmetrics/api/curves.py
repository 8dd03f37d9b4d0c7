"""Curves of a ranking beyond one number per query."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..measures import AUC
from .evaluator import Evaluator
from .options import Options

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .options import EvaluationOptions


def roc_curve(qrels: Any, run: Any, *, rel: int = 1, cutoff: int | None = None,
              **options: Unpack[EvaluationOptions]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The ROC curve of each query: ``{query_id: (false positive rates, true positive rates)}``.

    Points start at (0, 0), take one step per judged document of the top ``cutoff`` (up for a relevant
    one, grade >= ``rel``; right for a judged non-relevant one) and end at (1, 1): the last segment is
    the judged documents not retrieved, tied.  Its area is ``AUC(rel=rel)@cutoff``
    (:mod:`irmetrics.measures.auc`).  Queries of the qrels without relevant or without judged non-relevant
    documents have no curve and are left out.

    Parameters
    ----------
    qrels : any qrels input
        The judgments (see :func:`to_qrels`).
    run : any run input
        The ranking (see :func:`to_run`).
    rel : int
        The lowest relevant grade; checked as AUC's parameter.
    cutoff : int or None
        How many documents of each ranking are read (None: all); checked as AUC's parameter.
    **options
        The shared options (:mod:`irmetrics.api.options`): ``provider`` picks the engine that draws the
        curves when it can (else the native engine does); ``duplicates`` is the run's policy.

    Returns
    -------
    dict of str to tuple of two numpy.ndarray
        ``{query_id: (false positive rates, true positive rates)}``, the points in order.

    References
    ----------
    T. Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27(8), 2006.

    Examples
    --------
    >>> fpr, tpr = irmetrics.roc_curve('examples/qrels.txt', 'examples/run_bm25.txt', cutoff=5)['401']
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.05, 0.1, 0.15, 0.2, 1.0])
    """
    area = AUC(rel=rel) if cutoff is None else AUC(rel=rel) @ cutoff
    evaluator = Evaluator([area], qrels, **Options.of(options, 'roc_curve').given())
    return evaluator.engines.roc_curves(run, rel=rel, cutoff=cutoff, duplicates=evaluator.duplicates)
