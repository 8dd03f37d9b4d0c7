"""How faithful a reproduction is: per-query closeness (RMSE) and overall effects (ER, Delta RI).

T. Breuer, N. Ferro, N. Fuhr, M. Maistro, T. Sakai, P. Schaer and I. Soboroff, How to measure the
reproducibility of system-oriented IR experiments, SIGIR 2020 (and their tool, repro_eval).  An original
experiment has a baseline run b and an advanced run a; a reproduction re-implements both, on the same
collection (reproducibility: the same qrels) or on another one (replicability: other qrels).

* RMSE of a run and its reproduction on a measure M, over the qrels' queries q = 1..n:
  ``sqrt(1/n sum_q (M_q(orig) - M_q(repro))^2)``; 0 when every per-query value is reproduced.  It
  needs the same queries, so it is computed for a reproduction on the same collection only.
* Effect ratio: ``ER = mean_q(M_q(a') - M_q(b')) / mean_q(M_q(a) - M_q(b))``, the reproduced mean
  per-query improvement over the original one (primes: the reproduced runs, each mean over its own
  collection's queries); 1 when the improvement is reproduced, below 1 when it shrank, negative when it
  reversed.
* Delta relative improvement: ``Delta RI = RI - RI'`` with ``RI = (mean(a) - mean(b)) / mean(b)``; 0 when
  the relative improvement is reproduced.

The queries are the qrels' and a qrels query missing from a run scores the measure's missing value
(trec_eval ``-c``, as everywhere in irmetrics); repro_eval evaluates with pytrec_eval, whose queries are
those both of the run and of the qrels, so its numbers differ where a run leaves out a qrels query.  A
measure undefined on some queries (NaN) counts the queries where both runs compared are defined.  ER with
no original improvement and RI with a baseline mean of 0 are undefined: NaN, with an
:class:`~irmetrics.IrmetricsWarning`.  A mean (of improvements, or a baseline's) is 0 when it is within the
rounding of a mean of n floating-point values, ``2 n eps`` times their mean magnitude: per-query values
that are fractions (P@5's fifths) whose differences add up to exactly 0 leave a floating-point mean of
about 1e-17, which would otherwise give an ER of about 1e16.  A numerator within its rounding of 0 is 0 too
(ER and RI exactly 0, not 1e-16).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..algebra.measure import Measure
from ..api.argument_order import measures_first
from ..api.evaluator import Evaluator
from ..api.options import EvaluationOptions, Options
from ..api.results import MeasureValues, aggregate
from ..comparing.toolkit import check_comparable
from ..errors import warn
from ..rendering.result import Table, Tabled

if TYPE_CHECKING:
    from typing_extensions import Unpack

_EPS = np.finfo(np.float64).eps
COLUMNS = ('measure', 'original_baseline', 'original_advanced', 'reproduced_baseline', 'reproduced_advanced',
           'rmse_baseline', 'rmse_advanced', 'effect_ratio', 'ri_original', 'ri_reproduced', 'delta_ri')


@dataclass(frozen=True, eq=False)
class Reproducibility(Tabled):
    """The reproducibility of an experiment (baseline and advanced run) by each measure: the four runs'
    means, the RMSE of each reproduced run (NaN for a reproduction on another collection), the effect
    ratio, both relative improvements and their difference (see :mod:`irmetrics.trust.reproducibility`).
    Arrays are indexed by measure."""

    measures: tuple[Measure, ...]
    same_collection: bool
    n_queries: int
    n_reproduced_queries: int
    original_baseline: np.ndarray
    original_advanced: np.ndarray
    reproduced_baseline: np.ndarray
    reproduced_advanced: np.ndarray
    rmse_baseline: np.ndarray
    rmse_advanced: np.ndarray
    effect_ratio: np.ndarray
    ri_original: np.ndarray
    ri_reproduced: np.ndarray

    @property
    def delta_ri(self) -> np.ndarray:
        """Delta RI = RI(original) - RI(reproduced)."""
        return cast(np.ndarray, self.ri_original - self.ri_reproduced)

    def table(self) -> Table:
        """One row per measure: the four runs' means, the RMSEs, ER, both RIs and Delta RI."""
        columns = [getattr(self, name) for name in COLUMNS[1:]]
        rows = [[str(m), *(float(c[j]) for c in columns)] for j, m in enumerate(self.measures)]
        where = (f'the same {self.n_queries} queries' if self.same_collection else
                 f'{self.n_queries} original and {self.n_reproduced_queries} reproduced queries (another '
                 f'collection: no RMSE)')
        notes = (f'{where}. rmse: root mean square error of the per-query values (0: reproduced exactly); '
                 f'effect_ratio: reproduced / original mean improvement (1: reproduced); delta_ri: original - '
                 f'reproduced relative improvement (0: reproduced); Breuer et al., SIGIR 2020\n')
        return Table(COLUMNS, rows, notes=notes)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{measure: {column: value}}``."""
        return {row[0]: dict(zip(COLUMNS[1:], row[1:], strict=True)) for row in self.table().rows}

    def __repr__(self) -> str:
        er = ', '.join(f'{m} {v:.3f}' for m, v in zip(self.measures, self.effect_ratio, strict=True))
        return (f'<Reproducibility: {len(self.measures)} measures, '
                f'{"same collection" if self.same_collection else "another collection"}; effect ratio {er}>')


@measures_first('reproducibility(original_baseline, original_advanced, reproduced_baseline, reproduced_advanced, '
                'qrels, measures)')
def reproducibility(measures: Any, qrels: Any, original_baseline: Any, original_advanced: Any,
                    reproduced_baseline: Any, reproduced_advanced: Any, *, reproduced_qrels: Any = None,
                    **options: Unpack[EvaluationOptions]) -> Reproducibility:
    """How faithfully ``reproduced_baseline`` and ``reproduced_advanced`` reproduce ``original_baseline``
    and ``original_advanced`` on ``measures``: RMSE, effect ratio, Delta RI.

    :mod:`irmetrics.trust.reproducibility` gives the formulas and the queries counted.  Each run is any
    run input irmetrics reads.

    Parameters
    ----------
    measures : str, Measure or list of them
        Per-query scores averaged over the queries (counts and measures of a whole run are refused).
    qrels : any qrels input
        The judgments of the original runs and, unless ``reproduced_qrels`` is given, of the reproduced
        ones too.
    original_baseline : any run input
        The original experiment's baseline run b.
    original_advanced : any run input
        The original experiment's advanced run a.
    reproduced_baseline : any run input
        The reproduction of b.
    reproduced_advanced : any run input
        The reproduction of a.
    reproduced_qrels : any qrels input, optional
        The judgments of the reproduced runs, for a reproduction on another collection (replicability);
        RMSE, which needs the same queries, is then NaN.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    Reproducibility
        Per measure: the four runs' means, ``rmse_baseline``, ``rmse_advanced``, ``effect_ratio``, the
        relative improvements and ``delta_ri``.

    Raises
    ------
    ArgumentOrderError
        When the runs come first, as before 1.0.
    MeasureError
        For a count or a measure of a whole run.

    Warns
    -----
    IrmetricsWarning
        When ER (no original improvement) or RI (a baseline mean of 0) is undefined, and NaN.

    References
    ----------
    T. Breuer, N. Ferro, N. Fuhr, M. Maistro, T. Sakai, P. Schaer and I. Soboroff, How to measure the
    reproducibility of system-oriented IR experiments, SIGIR 2020.

    Examples
    --------
    A reproduction that gives the original runs back:

    >>> found = irmetrics.reproducibility(['AP'], 'examples/qrels.txt', 'examples/run_bm25.txt',
    ...                                   'examples/run_dense.txt', 'examples/run_bm25.txt', 'examples/run_dense.txt')
    >>> found.effect_ratio.tolist(), found.rmse_baseline.tolist()
    ([1.0], [0.0])
    """
    runs = (original_baseline, original_advanced, reproduced_baseline, reproduced_advanced)
    chosen, (ob, oa, rb, ra) = _evaluated(measures, qrels, runs, reproduced_qrels,
                                          Options.of(options, 'reproducibility'))
    same = reproduced_qrels is None
    means = [_means(v, chosen) for v in (ob, oa, rb, ra)]
    nan = np.full(len(chosen), np.nan)
    return Reproducibility(
        measures=tuple(chosen), same_collection=same, n_queries=ob.shape[0], n_reproduced_queries=rb.shape[0],
        original_baseline=means[0], original_advanced=means[1], reproduced_baseline=means[2],
        reproduced_advanced=means[3], rmse_baseline=root_mean_square_error(ob, rb) if same else nan,
        rmse_advanced=root_mean_square_error(oa, ra) if same else nan,
        effect_ratio=effect_ratio_of(ob, oa, rb, ra, chosen),
        ri_original=relative_improvement(ob, oa, chosen, 'original'),
        ri_reproduced=relative_improvement(rb, ra, chosen, 'reproduced'))


def _evaluated(measures: Any, qrels: Any, runs: tuple[Any, Any, Any, Any], reproduced_qrels: Any,
               options: Options) -> tuple[list[Measure], list[np.ndarray]]:
    """The measures and the per-query values (queries x measures) of the four runs (original baseline and
    advanced, reproduced baseline and advanced), the original ones on ``qrels``, the reproduced ones on
    ``reproduced_qrels`` when given."""
    original = Evaluator(measures, qrels, **options.given())
    check_comparable(original.all_measures)
    reproduction = (original if reproduced_qrels is None
                    else Evaluator(measures, reproduced_qrels, **options.given()))
    values = [evaluator.calc(run, **options.run_options()).values
              for evaluator, run in zip((original, original, reproduction, reproduction), runs, strict=True)]
    return original.measures, values


def _means(values: np.ndarray, measures: list[Measure]) -> np.ndarray:
    return np.array([aggregate(m, values[:, j]) for j, m in enumerate(measures)])


@measures_first('rmse(original, reproduced, qrels, measures)')
def rmse(measures: Any, qrels: Any, original: Any, reproduced: Any,
         **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """The root mean square error between the per-query values of ``original`` and ``reproduced``.

    On each measure, over the qrels' queries: ``sqrt(1/n sum_q (M_q(orig) - M_q(repro))^2)`` (Breuer et
    al., SIGIR 2020; see :func:`reproducibility`); 0 when every per-query value is reproduced.

    Parameters
    ----------
    measures : str, Measure or list of them
        Per-query scores averaged over the queries.
    qrels : any qrels input
        The judgments of both runs (RMSE needs the same queries).
    original : any run input
        The original run.
    reproduced : any run input
        Its reproduction.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    MeasureValues
        Each measure's RMSE (by measure or its name).

    Raises
    ------
    ArgumentOrderError
        Given ``rmse(original, reproduced, qrels, measures)``, the order before 1.0.

    Examples
    --------
    >>> cut = irmetrics.read_trec_run('examples/run_dense.txt').top(5)     # the first 5 documents only
    >>> irmetrics.rmse(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_dense.txt', cut)
    {'AP': 0.37040421725151884, 'P@5': 0.0}
    """
    checked = Options.of(options, 'rmse')
    evaluator = Evaluator(measures, qrels, **checked.given())
    check_comparable(evaluator.all_measures)
    o, r = (evaluator.calc(run, **checked.run_options()).values for run in (original, reproduced))
    return MeasureValues(zip(evaluator.measures, map(float, root_mean_square_error(o, r)), strict=True))


@measures_first('effect_ratio(original_baseline, original_advanced, reproduced_baseline, reproduced_advanced, '
                'qrels, measures)')
def effect_ratio(measures: Any, qrels: Any, original_baseline: Any, original_advanced: Any, reproduced_baseline: Any,
                 reproduced_advanced: Any, *, reproduced_qrels: Any = None,
                 **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """The effect ratio ``ER = mean_q(M_q(a') - M_q(b')) / mean_q(M_q(a) - M_q(b))`` of each measure.

    The reproduced mean per-query improvement over the original one (Breuer et al., SIGIR 2020): 1 when
    the improvement is reproduced, below 1 when it shrank, negative when it reversed.

    Parameters
    ----------
    measures : str, Measure or list of them
        Per-query scores averaged over the queries, as for :func:`reproducibility`.
    qrels : any qrels input
        The judgments of the original runs (and of the reproduced ones, without ``reproduced_qrels``).
    original_baseline : any run input
        The original baseline, b.
    original_advanced : any run input
        The original advanced run, a.
    reproduced_baseline : any run input
        The reproduced baseline, b'.
    reproduced_advanced : any run input
        The reproduced advanced run, a'.
    reproduced_qrels : any qrels input, optional
        The judgments of b' and a' when they are not ``qrels``.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    MeasureValues
        Each measure's ER; NaN (with a warning) without an original improvement.

    Raises
    ------
    ArgumentOrderError
        If the runs are given before the measures and the qrels.

    Examples
    --------
    >>> cut = irmetrics.read_trec_run('examples/run_dense.txt').top(5)     # a' keeps 5 documents a query
    >>> found = irmetrics.effect_ratio(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt',
    ...                                'examples/run_dense.txt', 'examples/run_bm25.txt', cut)
    >>> {name: round(value, 4) for name, value in found.items()}
    {'AP': -1.7925, 'P@5': 1.0}
    """
    chosen, runs = _evaluated(measures, qrels, (original_baseline, original_advanced, reproduced_baseline,
                              reproduced_advanced), reproduced_qrels, Options.of(options, 'effect_ratio'))
    ob, oa, rb, ra = runs
    return MeasureValues(zip(chosen, map(float, effect_ratio_of(ob, oa, rb, ra, chosen)), strict=True))


@measures_first('delta_relative_improvement(original_baseline, original_advanced, reproduced_baseline, '
                'reproduced_advanced, qrels, measures)')
def delta_relative_improvement(measures: Any, qrels: Any, original_baseline: Any, original_advanced: Any,
                               reproduced_baseline: Any, reproduced_advanced: Any, *, reproduced_qrels: Any = None,
                               **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """``Delta RI = RI - RI'`` with ``RI = (mean(a) - mean(b)) / mean(b)`` of each measure.

    The original relative improvement less the reproduced one (Breuer et al., SIGIR 2020): 0 when the
    relative improvement is reproduced.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures, as :func:`reproducibility` takes them.
    qrels : any qrels input
        The original judgments.
    original_baseline : any run input
        b.
    original_advanced : any run input
        a.
    reproduced_baseline : any run input
        b'.
    reproduced_advanced : any run input
        a'.
    reproduced_qrels : any qrels input, optional
        Other judgments for b' and a' (replicability).
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    MeasureValues
        Each measure's Delta RI; NaN (with a warning) where a baseline mean is 0.

    Raises
    ------
    ArgumentOrderError
        For a call in the order before 1.0 (measures last).

    Examples
    --------
    >>> cut = irmetrics.read_trec_run('examples/run_dense.txt').top(5)
    >>> found = irmetrics.delta_relative_improvement(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt',
    ...                                              'examples/run_dense.txt', 'examples/run_bm25.txt', cut)
    >>> {name: round(value, 4) for name, value in found.items()}
    {'AP': 0.8947, 'P@5': 0.0}
    """
    chosen, runs = _evaluated(measures, qrels, (original_baseline, original_advanced, reproduced_baseline,
                              reproduced_advanced), reproduced_qrels, Options.of(options, 'delta_relative_improvement'))
    ob, oa, rb, ra = runs
    delta = relative_improvement(ob, oa, chosen, 'original') - relative_improvement(rb, ra, chosen, 'reproduced')
    return MeasureValues(zip(chosen, map(float, delta), strict=True))


def root_mean_square_error(original: np.ndarray, reproduced: np.ndarray) -> np.ndarray:
    """Each column's RMSE between two (queries x measures) matrices, over the rows where both are defined."""
    squares = (original - reproduced) ** 2
    defined = ~np.isnan(squares)
    with np.errstate(invalid='ignore', divide='ignore'):
        return cast(np.ndarray, np.sqrt(np.where(defined, squares, 0.0).sum(axis=0) / defined.sum(axis=0)))


def _mean_improvement(baseline: np.ndarray, advanced: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's mean per-query improvement ``advanced - baseline`` over the queries both define, and the
    bound of its rounding (:func:`_rounding_bound` of ``|advanced| + |baseline|``: each value is a rounded
    number, each difference and each partial sum rounded once more)."""
    diff = advanced - baseline
    defined = ~np.isnan(diff)
    with np.errstate(invalid='ignore', divide='ignore'):
        mean = np.where(defined, diff, 0.0).sum(axis=0) / defined.sum(axis=0)
    return mean, _rounding_bound(np.abs(advanced) + np.abs(baseline))


def _rounding_bound(sizes: np.ndarray) -> np.ndarray:
    """A bound on the rounding of the mean of each column of n values (over the rows where ``sizes``, their
    magnitudes, is defined): ``2 n eps`` times the mean of the magnitudes, since a sum of n rounded terms is
    off by less than ``n eps`` times the sum of their magnitudes.  A mean within it of 0 is 0: with P@5,
    whose values are fifths, per-query differences that add up to 0 leave a mean of about 1e-17, not 0."""
    defined = ~np.isnan(sizes)
    with np.errstate(invalid='ignore'):
        return cast(np.ndarray, 2 * _EPS * np.where(defined, sizes, 0.0).sum(axis=0))


def effect_ratio_of(ob: np.ndarray, oa: np.ndarray, rb: np.ndarray, ra: np.ndarray,
                    measures: list[Measure]) -> np.ndarray:
    """ER of each measure from the four runs' per-query values (NaN, with a warning, where the original
    improvement is 0 up to the rounding of its mean; a reproduced improvement within its rounding of 0 is 0)."""
    (original, slack), (reproduced, reproduced_slack) = _mean_improvement(ob, oa), _mean_improvement(rb, ra)
    return _ratio(np.where(np.abs(reproduced) <= reproduced_slack, 0.0, reproduced), original, slack, measures,
                  'the original runs improve by 0 on average: the effect ratio is undefined (NaN)')


def relative_improvement(baseline: np.ndarray, advanced: np.ndarray, measures: list[Measure], which: str) -> np.ndarray:
    """``(mean(advanced) - mean(baseline)) / mean(baseline)`` of each measure from the two runs' per-query
    values (NaN, with a warning, where the baseline's mean is 0 up to its rounding; a difference of the means
    within their rounding is 0)."""
    low, high = _means(baseline, measures), _means(advanced, measures)
    low_slack, high_slack = _rounding_bound(np.abs(baseline)), _rounding_bound(np.abs(advanced))
    gain = np.where(np.abs(high - low) <= low_slack + high_slack, 0.0, high - low)
    return _ratio(gain, low, low_slack, measures, f'the {which} baseline\'s mean is 0: its relative improvement is '
                                                  f'undefined (NaN)')


def _ratio(numerator: np.ndarray, denominator: np.ndarray, slack: np.ndarray, measures: list[Measure],
           problem: str) -> np.ndarray:
    """``numerator / denominator``, NaN with a warning naming the measures where the denominator is 0 up to
    ``slack``, the bound of its rounding."""
    zero = np.abs(denominator) <= slack
    if zero.any():
        warn(f'{", ".join(str(m) for m, z in zip(measures, zero, strict=True) if z)}: {problem}')
    with np.errstate(invalid='ignore', divide='ignore'):
        return np.where(zero, np.nan, numerator / np.where(zero, 1.0, denominator))
