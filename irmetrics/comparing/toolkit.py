"""The comparing room's door for the rooms above it: what :mod:`irmetrics.trust` builds on.

The trust room's measures of an evaluation (discriminative power, swap rates, reproducibility, the agreement
plots) use the same pieces as :func:`~irmetrics.compare`: runs evaluated by one evaluator, as a named
:class:`Evaluated`; the pairs of runs compared; the resampled replicates and the tests on them; the
settings of a comparison and its seeds; the figures' colours.  They import them from here (or from
:mod:`irmetrics.comparing`) and from no other module of the room, so the modules behind this one may be
reorganised without touching another room (``tests/docs/test_architecture.py`` checks it).
"""
from .comparison import Evaluated, build_comparison, check_comparable, evaluated
from .intervals import mean_sd
from .plots import BETTER, figure
from .replicates import BLOCK_ELEMENTS, Replicates, Transform, check_block_fits
from .resampling import bootstrap_means, bootstrap_test
from .settings import Settings, checked_seed
from .small_samples import bootstrap_fewest, exact_fewest, fewest_queries
from .statistics import (
    nonzero_differences,
    pair_columns,
    pair_replicates,
    pairs_of,
    significant_where,
    tukey_groups,
)
from .vocabulary import TESTS, RunsLike, name_runs

__all__ = ['BETTER', 'BLOCK_ELEMENTS', 'Evaluated', 'Replicates', 'RunsLike', 'Settings', 'TESTS', 'Transform',
           'bootstrap_fewest', 'bootstrap_means', 'bootstrap_test', 'build_comparison', 'check_block_fits',
           'check_comparable', 'checked_seed', 'evaluated', 'exact_fewest', 'fewest_queries', 'figure', 'mean_sd',
           'name_runs', 'nonzero_differences', 'pair_columns', 'pair_replicates', 'pairs_of', 'significant_where',
           'tukey_groups']
