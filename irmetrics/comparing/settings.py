"""How a comparison is made: its options, declared once and validated by the constraint objects
measure parameters use, and the :class:`Settings` they become."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import corrections, intervals
from .base import Choice, ComparisonError, Float, Int, Option
from .vocabulary import TESTS

# The options of a comparison, validated by the constraint objects measure parameters use.
TEST = Option('test', Choice(*TESTS))
CORRECTION_SCOPE = Option('correction_scope', Choice('measure', 'all'))
CI_METHOD = Option('ci_method', Choice(*intervals.METHODS))
ALPHA = Option('alpha', Float(0, 1, low_open=True, high_open=True))
CI = Option('ci', Float(0, 1, low_open=True, high_open=True))
#: The most resamples a comparison draws (10^8): the Monte Carlo error of a p-value, about
#: sqrt(p (1 - p) / B), is then below 5e-5, far below any decision it informs.
MAX_RESAMPLES = 10 ** 8
N_RESAMPLES = Option('n_resamples', Int(minimum=1, maximum=MAX_RESAMPLES))
SEED = Option('seed', Int(minimum=0))


def checked_seed(seed: int | None) -> int:
    """``seed`` validated, or for None fresh entropy: the seed that reproduces the draws."""
    return int(np.random.SeedSequence(None if seed is None else SEED.check(seed)).entropy)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Settings:
    """How a comparison was made (validated by :meth:`checked`)."""

    tests: tuple[str, ...]
    correction: str | None
    correction_scope: str
    alpha: float
    ci: float
    ci_method: str
    n_resamples: int
    seed: int
    #: the query slices a correction spans (1: the comparison's own queries; see :mod:`.slices`)
    slices: int = 1

    @classmethod
    def checked(cls, test: str | Sequence[str], correction: str | None, correction_scope: str, alpha: float,
                ci: float, ci_method: str, n_resamples: int, seed: int | None) -> Settings:
        tests = (test,) if isinstance(test, str) else tuple(test)
        if not tests:
            raise ComparisonError(f'no test given: use one or several of {", ".join(TESTS)}')
        return cls(tests=tuple(dict.fromkeys(TEST.check(t) for t in tests)),
                   correction=corrections.check_method(correction),
                   correction_scope=CORRECTION_SCOPE.check(correction_scope), alpha=ALPHA.check(alpha),
                   ci=CI.check(ci), ci_method=CI_METHOD.check(ci_method),
                   n_resamples=N_RESAMPLES.check(n_resamples),
                   seed=checked_seed(seed))

    def generators(self) -> dict[str, np.random.Generator]:
        """One independent random stream per resampling procedure, so that a test's result does not
        depend on which other tests or intervals were asked for."""
        streams = np.random.SeedSequence(self.seed).spawn(3)
        return dict(zip(('randomization', 'bootstrap', 'tukey'), map(np.random.default_rng, streams), strict=True))
