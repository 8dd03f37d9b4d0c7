"""Do two evaluations rank systems alike?  Kendall's tau, tau_AP and RBO of the two system rankings.

The two evaluations differ in their judgments (human qrels against LLM labels, two assessors, a
subset of topics) or in their measure (AP against nDCG@10), or both; each ranks the same runs by
their mean, and the rankings are correlated with :func:`~.rank_correlation.kendall_tau`,
:func:`~.rank_correlation.tau_ap` (the first evaluation is the reference) and :func:`~.rbo.rbo`.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..algebra.measure import Measure
from ..api.argument_order import measures_first
from ..api.evaluator import Evaluator
from ..api.options import EvaluationOptions, Options
from ..api.run_names import stem
from ..comparing.toolkit import RunsLike, name_runs
from ..data.inputs import source_path, to_qrels, to_run
from ..dialects import parse_measures
from ..errors import InputError, warn
from ..rendering.result import Table, Tabled
from .rank_correlation import TIE_VARIANT, KendallTau, TauAP, kendall_tau, tau_ap
from .rankings import FEWEST_ITEMS
from .rbo import RBO, rbo

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: Means equal to this many decimals rank as ties (a mean's last bits depend on the order of its sum).
PLACES = 12


@dataclass(frozen=True, eq=False)
class SystemAgreement(Tabled):
    """Two evaluations of the same systems: ``systems`` (run names), each system's mean under the first
    evaluation (``values_a``, the reference) and the second (``values_b``), their labels (``label_a``,
    ``label_b``: measure and qrels), and the agreement of the two rankings: ``tau``
    (:class:`KendallTau`), ``tau_ap`` (:class:`TauAP`, the first evaluation as the reference) and
    ``rbo`` (:class:`RBO`)."""

    systems: tuple[str, ...]
    values_a: np.ndarray
    values_b: np.ndarray
    label_a: str
    label_b: str
    higher_is_better_a: bool
    higher_is_better_b: bool
    tau: KendallTau
    tau_ap: TauAP
    rbo: RBO

    def ranks(self) -> tuple[np.ndarray, np.ndarray]:
        """Each system's rank under each evaluation (1 = best; tied systems share the better rank)."""
        return (_ranks(self.values_a, self.higher_is_better_a), _ranks(self.values_b, self.higher_is_better_b))

    def __repr__(self) -> str:
        return (f'SystemAgreement({len(self.systems)} systems, {self.label_a} vs {self.label_b}: '
                f'tau={self.tau.statistic:.4f}, tau_ap={self.tau_ap.statistic:.4f}, '
                f'rbo={self.rbo.extrapolated:.4f})')

    def table(self, *, systems: bool = False) -> Table:
        """The agreement of the two rankings (Kendall's tau-b with its p-value, tau_AP, RBO_EXT, RBO_MIN,
        RBO_RES); with ``systems`` one row per system: its mean and rank under each evaluation."""
        if systems:
            frame = self.to_dataframe()
            rows = [[str(s), a, b, int(ra), int(rb)] for s, a, b, ra, rb in frame.itertuples(index=False)]
            return Table(['system', self.label_a, self.label_b, 'rank_a', 'rank_b'], rows)
        tau, ap, overlap = self.tau, self.tau_ap, self.rbo
        p_value = '' if math.isnan(tau.pvalue) else f'{tau.pvalue:.4g}'
        rows = [["Kendall's tau-b", tau.statistic, p_value], [f'tau_AP ({ap.tie_variant})', ap.statistic, ''],
                [f'RBO_EXT (p={overlap.p:g})', overlap.extrapolated, ''], ['RBO_MIN', overlap.minimum, ''],
                ['RBO_RES', overlap.residual, '']]
        notes = f'{len(self.systems)} systems; a (the reference of tau_AP): {self.label_a}; b: {self.label_b}\n'
        return Table(['statistic', 'value', 'p-value'], rows, notes=notes)

    def to_dataframe(self) -> Any:
        """One row per system, best under the first evaluation first: ``system, value_a, value_b,
        rank_a, rank_b``."""
        import pandas as pd
        rank_a, rank_b = self.ranks()
        order = np.lexsort((rank_b, rank_a))
        return pd.DataFrame({'system': [self.systems[i] for i in order], 'value_a': self.values_a[order],
                             'value_b': self.values_b[order], 'rank_a': rank_a[order], 'rank_b': rank_b[order]})

    def to_dict(self) -> dict[str, Any]:
        return {'label_a': self.label_a, 'label_b': self.label_b, 'tau': self.tau.to_dict(),
                'tau_ap': self.tau_ap.to_dict(), 'rbo': self.rbo.to_dict(),
                'systems': {s: {'value_a': a, 'value_b': b} for s, a, b in
                            zip(self.systems, self.values_a.tolist(), self.values_b.tolist(), strict=True)}}

    def plot(self, by: str = 'score') -> Any:
        """The systems under one evaluation against the other (see :func:`irmetrics.plot_system_agreement`)."""
        from .agreement_plots import plot_system_agreement
        return plot_system_agreement(self, by=by)


@measures_first('system_agreement(runs, qrels_a, qrels_b, measure)')
def system_agreement(measure: Any, qrels: Any, runs: RunsLike, *, qrels_b: Any = None, measure_b: Any = None,
                     p: float = 0.9, tie_variant: str = 'a', labels: tuple[str, str] | None = None,
                     **options: Unpack[EvaluationOptions]) -> SystemAgreement:
    """How alike two evaluations rank the systems ``runs``: Kendall's tau-b, tau_AP and RBO of the two
    rankings of the runs by their mean.

    The first evaluation is ``measure`` on ``qrels``, the reference (tau_AP's true ranking: human
    judgments, the original measure); the second is ``measure_b`` on ``qrels_b``: two sets of judgments,
    two measures, or both.  A measure for which lower is better ranks low values first; means equal to 12
    decimals tie (a sum's last bits depend on its order).

    Parameters
    ----------
    measure : str or Measure
        The measure of the first evaluation.
    qrels : any qrels input
        The judgments of the first evaluation.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs (named by their files' stems), each any run input; at least two
        (and three for tau and tau_AP, which are NaN with a warning below that).
    qrels_b : any qrels input, optional
        The judgments of the second evaluation (default: ``qrels``).
    measure_b : str or Measure, optional
        The measure of the second evaluation (default: ``measure``).
    p : float
        RBO's persistence.
    tie_variant : str
        ``'a'`` (ties are uncertainty) or ``'b'`` (ties are agreement), for tau_AP (Urbano & Marrero) and RBO
        (Corsi & Urbano); tau-b always corrects for ties.  tau_AP_a is not defined for a reference ranking
        with ties (it reads the reference as the truth): when the first evaluation's means tie, tau_AP is
        NaN with a warning, and tau-b and RBO^a are given as ever.
    labels : tuple of two str, optional
        What to call the two evaluations (default: the measure and the qrels file's stem).
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    SystemAgreement
        Each system's mean under both evaluations, and ``tau``, ``tau_ap`` and ``rbo`` of the two rankings.

    Raises
    ------
    InputError
        When neither ``qrels_b`` nor ``measure_b`` is given (both evaluations would be the same).
    ArgumentOrderError
        For the argument order before 1.0, ``system_agreement(runs, qrels_a, qrels_b, measure)``.

    References
    ----------
    E. M. Voorhees, "Variations in relevance judgments and the measurement of retrieval
    effectiveness", SIGIR 1998 (system rankings under two sets of judgments, by Kendall's tau);
    E. Yilmaz, J. A. Aslam and S. Robertson, SIGIR 2008 (tau_AP); W. Webber, A. Moffat and J. Zobel,
    ACM TOIS 2010 (RBO).

    Examples
    --------
    >>> runs = {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt',
    ...         'bm25 top 3': irmetrics.read_trec_run('examples/run_bm25.txt').top(3)}
    >>> irmetrics.system_agreement('AP', 'examples/qrels.txt', runs, measure_b='nDCG@10')
    SystemAgreement(3 systems, AP (qrels) vs nDCG@10 (qrels): tau=1.0000, tau_ap=1.0000, rbo=1.0000)
    """
    tie_variant = TIE_VARIANT.check(tie_variant)
    checked = Options.of(options, 'system_agreement')
    if qrels_b is None and measure_b is None:
        raise InputError('system_agreement: give qrels_b (other judgments) or measure_b (another measure): '
                         'otherwise both evaluations are the same')
    names, inputs = name_runs(runs)
    first = _one_measure(measure, 'measure')
    second = first if measure_b is None else _one_measure(measure_b, 'measure_b')
    judged_a = to_qrels(qrels)
    judged_b = judged_a if qrels_b is None else to_qrels(qrels_b)
    loaded = [to_run(r, duplicates=checked.duplicates) for r in inputs]
    if qrels_b is None:                               # one evaluation of both measures: one pass, one warning
        values_a, values_b = _means([first, second], judged_a, loaded, checked, names)
    else:
        (values_a,), (values_b,) = (_means([first], judged_a, loaded, checked, names),
                                    _means([second], judged_b, loaded, checked, names))
    labels = labels or (_label(first, qrels, 'qrels'), _label(second, qrels if qrels_b is None else qrels_b, 'qrels_b'))
    return agreement_of_means(names, (values_a, values_b), (first, second), labels, p, tie_variant)


def agreement_of_means(names: list[str], values: tuple[np.ndarray, np.ndarray], measures: tuple[Measure, Measure],
                       labels: tuple[str, str], p: float, tie_variant: str) -> SystemAgreement:
    """The :class:`SystemAgreement` of the systems ``names`` whose means under the two evaluations are
    ``values`` (each measure ranking by its direction; ``tie_variant`` checked already)."""
    sign_a, sign_b = (1.0 if m.definition.higher_is_better else -1.0 for m in measures)
    ranked_a = dict(zip(names, (sign_a * settled(values[0])).tolist(), strict=True))
    ranked_b = dict(zip(names, (sign_b * settled(values[1])).tolist(), strict=True))
    return SystemAgreement(tuple(names), values[0], values[1], labels[0], labels[1], sign_a > 0, sign_b > 0,
                           kendall_tau(ranked_a, ranked_b),
                           reference_tau_ap(ranked_a, ranked_b, tie_variant, labels[0]),
                           rbo(ranked_a, ranked_b, p=p, tie_variant=tie_variant))


def reference_tau_ap(reference: dict[str, float], estimate: dict[str, float], tie_variant: str,
                     label: str) -> TauAP:
    """tau_AP of the two system rankings; NaN with a warning, rather than an error, where tau_AP_a is not
    defined (a reference ranking with ties), so that tau-b and RBO, defined there, are still given."""
    counts = Counter(reference.values())
    tied = sorted(name for name, value in reference.items() if counts[value] > 1)
    if tie_variant == 'a' and tied and len(reference) >= FEWEST_ITEMS:
        warn(f"tau_AP is NaN: under {label} (the reference) the systems {', '.join(map(repr, tied))} tie, and "
             f"tau_AP_a (tie_variant='a') reads the reference as the truth, without ties; tie_variant='b' "
             f"(irmetrics agree --tie-variant b) reads ties as equality in both rankings")
        return TauAP(math.nan, len(reference), tie_variant)
    return tau_ap(reference, estimate, tie_variant=tie_variant)


def _one_measure(given: Any, name: str) -> Measure:
    found = parse_measures(given)
    if len(found) != 1:
        raise InputError(f'system_agreement: {name} names {len(found)} measures ({", ".join(map(str, found))}); '
                         f'expected one')
    return found[0]


def _means(measures: list[Measure], qrels: Any, runs: list[Any], options: Options,
           names: list[str]) -> list[np.ndarray]:
    """Each measure's mean of every run (an error naming the run when one is not a number)."""
    evaluator = Evaluator(measures, qrels, **options.given())
    means = [evaluator.calc_aggregate(run) for run in runs]
    out = [np.array([m[measure] for m in means], dtype=np.float64) for measure in measures]
    for measure, values in zip(measures, out, strict=True):
        if not np.isfinite(values).all():
            bad = names[int(np.flatnonzero(~np.isfinite(values))[0])]
            raise InputError(f'system_agreement: the mean {measure} of run {bad!r} is {values[~np.isfinite(values)][0]}'
                             f': a system ranking needs a number for every run')
    return out


def _label(measure: Measure, qrels: Any, fallback: str) -> str:
    path = source_path(qrels)
    where = stem(path) if path is not None else fallback
    return f'{measure} ({where})'


def settled(values: np.ndarray) -> np.ndarray:
    """Means rounded to :data:`PLACES` decimals: two means of different per-query values that are equal
    but for the rounding of their sums (0.39999999999999997 and 0.4) tie."""
    return np.round(values, PLACES)


def _ranks(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    v = settled(values) if higher_is_better else -settled(values)
    return cast(np.ndarray, 1 + (v[None, :] > v[:, None]).sum(axis=1))
