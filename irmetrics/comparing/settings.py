"""How a comparison is made: its options, declared once and validated by the constraint objects
measure parameters use, and the :class:`Settings` they become."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import corrections, intervals
from .base import Choice, ComparisonError, Float, Int, Option, memory_budget
from .replicates import check_block_fits
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
#: The largest seed: the 128 bits of entropy numpy's SeedSequence draws for a seed of None (recorded, so that
#: it reproduces the draws).
MAX_SEED = 2 ** 128 - 1
SEED = Option('seed', Int(minimum=0, maximum=MAX_SEED))
#: The tests that resample (the bootstrap intervals do too).
RESAMPLING_TESTS = {'randomization', 'bootstrap', 'tukey'}


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
    #: the bytes resampling may hold (``memory_limit``; by default half the memory the process may use)
    budget: int = field(default_factory=lambda: memory_budget(None), compare=False)

    @classmethod
    def checked(cls, test: str | Sequence[str], correction: str | None, correction_scope: str, alpha: float,
                ci: float, ci_method: str, n_resamples: int, seed: int | None, memory_limit: Any = None,
                what: str = 'compare') -> Settings:
        """The settings, validated; ``memory_limit`` bounds the resampling, and a limit that holds no block of
        resamples is refused at once (naming ``what``) when the settings resample."""
        tests = (test,) if isinstance(test, str) else tuple(test)
        if not tests:
            raise ComparisonError(f'no test given: use one or several of {", ".join(TESTS)}')
        settings = cls(tests=tuple(dict.fromkeys(TEST.check(t) for t in tests)),
                       correction=corrections.check_method(correction),
                       correction_scope=CORRECTION_SCOPE.check(correction_scope), alpha=ALPHA.check(alpha),
                       ci=CI.check(ci), ci_method=CI_METHOD.check(ci_method),
                       n_resamples=N_RESAMPLES.check(n_resamples),
                       seed=checked_seed(seed), budget=memory_budget(memory_limit))
        if set(settings.tests) & RESAMPLING_TESTS or settings.ci_method != 't':
            check_block_fits(settings.budget, what)
        return settings

    def generators(self) -> dict[str, np.random.Generator]:
        """One independent random stream per resampling procedure, so that a test's result does not
        depend on which other tests or intervals were asked for."""
        streams = np.random.SeedSequence(self.seed).spawn(3)
        return dict(zip(('randomization', 'bootstrap', 'tukey'), map(np.random.default_rng, streams), strict=True))
