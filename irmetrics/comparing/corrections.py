"""Multiple-comparison corrections of p-values, under the names of statsmodels' ``multipletests``.

Every method maps the m p-values of a family to adjusted p-values ``p~`` (capped at 1) such that
rejecting where ``p~ <= alpha`` is the method's procedure at level alpha.  With ``p_(1) <= ... <=
p_(m)`` the sorted p-values:

``bonferroni``  ``p~_i = m p_i``; family-wise error rate (FWER) at most alpha under any dependence.
                C. E. Bonferroni, Teoria statistica delle classi e calcolo delle probabilità, 1936.
``holm``        step-down: ``p~_(k) = max_{j<=k} (m - j + 1) p_(j)``; FWER under any dependence,
                never less powerful than Bonferroni.  S. Holm, A simple sequentially rejective
                multiple test procedure, Scandinavian Journal of Statistics 6(2), 1979.
``hommel``      closed testing with Simes' test of every intersection: ``p~_i`` is the largest Simes
                p-value ``min_k |J| p_(k:J) / k`` over the sets J of hypotheses holding i (the worst
                J of size s holds i and the s - 1 largest p-values); FWER when the p-values are
                independent or positively dependent, more powerful than Holm.  G. Hommel, A stagewise
                rejective multiple test procedure based on a modified Bonferroni test, Biometrika
                75(2), 1988; adjusted p-values as in S. P. Wright, Adjusted P-values for
                simultaneous inference, Biometrics 48(4), 1992.
``fdr_bh``      step-up: ``p~_(k) = min_{j>=k} m p_(j) / j``; false discovery rate (FDR) at most
                alpha for independent or positively dependent p-values.  Y. Benjamini and
                Y. Hochberg, Controlling the false discovery rate, JRSS B 57(1), 1995.
``fdr_by``      ``fdr_bh`` times ``c(m) = 1 + 1/2 + ... + 1/m``: FDR under any dependence.
                Y. Benjamini and D. Yekutieli, The control of the false discovery rate in multiple
                testing under dependency, Annals of Statistics 29(4), 2001.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from .base import Choice, ComparisonError, Option

METHODS = ('bonferroni', 'holm', 'hommel', 'fdr_bh', 'fdr_by')
NAMES = {'bonferroni': 'Bonferroni', 'holm': 'Holm', 'hommel': 'Hommel', 'fdr_bh': 'Benjamini-Hochberg',
         'fdr_by': 'Benjamini-Yekutieli'}


#: The ``correction`` option (None: no correction).
CORRECTION = Option('correction', Choice(*METHODS))


def check_method(method: str | None) -> str | None:
    """``method`` if it is None or one of :data:`METHODS`; else a :class:`ComparisonError`."""
    return None if method is None else CORRECTION.check(method)


def adjust_pvalues(pvalues: Any, method: str | None) -> np.ndarray:
    """The adjusted p-values of ``pvalues`` (any shape: one family) by ``method`` (None: unchanged).

    Equal to ``statsmodels.stats.multitest.multipletests(pvalues, method=method)[1]``.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if check_method(method) is None or p.size == 0:
        return cast(np.ndarray, p.copy())
    flat = p.ravel()
    if np.isnan(flat).any() or (flat < 0).any() or (flat > 1).any():
        raise ComparisonError('p-values to correct must lie in [0, 1]')
    m = flat.size
    order = np.argsort(flat, kind='stable')
    ranked = flat[order]
    k = np.arange(1, m + 1)
    if method == 'bonferroni':
        adjusted = ranked * m
    elif method == 'holm':
        adjusted = np.maximum.accumulate(ranked * (m - k + 1))
    elif method == 'hommel':
        adjusted = _hommel(ranked)
    else:
        factor = m / k * (np.sum(1.0 / k) if method == 'fdr_by' else 1.0)
        adjusted = np.minimum.accumulate((ranked * factor)[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out.reshape(p.shape)


def _hommel(ranked: np.ndarray) -> np.ndarray:
    """Hommel's adjusted p-values of sorted p-values (see the module docstring), an m x m computation.

    For a set size s: ``simes[s]`` is the Simes p-value of the s largest p-values, ``others[s]`` the
    same minimum without its first term (the smallest of them); a hypothesis among the s largest
    gets ``simes[s]``, any other ``min(s p_i, others[s])``.  The adjusted value is the largest over s.
    """
    m = ranked.size
    s = np.arange(1, m + 1)[:, None]                  # set size, rows
    k = np.arange(1, m + 1)[None, :]                  # position within the set, columns
    terms = np.where(k <= s, s * ranked[np.clip(m - s + k - 1, 0, m - 1)] / k, np.inf)
    simes = terms.min(axis=1)
    others = terms[:, 1:].min(axis=1) if m > 1 else np.full(1, np.inf)
    in_top = np.arange(m)[None, :] >= m - s           # [s, i]: hypothesis i is among the s largest
    candidates = np.where(in_top, simes[:, None], np.minimum(s * ranked[None, :], others[:, None]))
    return cast(np.ndarray, candidates.max(axis=0))
