"""Shared test settings.

Hypothesis runs a moderate number of examples by default so that the whole
suite stays fast on a small machine; ``HYPOTHESIS_PROFILE=thorough`` runs many
more (for a nightly job or before a release).
"""
import os

import pytest
from hypothesis import HealthCheck, settings

from irmetrics.data import ids
from irmetrics.data.trec import reader as trec_reader

settings.register_profile('default', max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile('thorough', max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'default'))


@pytest.fixture(params=['python', 'arrow'])
def layout(request, monkeypatch):
    """Run a test under both implementations of the input path.

    ``python``: small TREC files split by Python's string methods, ids in numpy object arrays (the
    path of small inputs).  ``arrow``: Arrow's CSV reader and Arrow string ids, with their own
    duplicate detection and tie ordering (the path of inputs above the size thresholds).
    """
    if request.param == 'arrow':
        monkeypatch.setattr(trec_reader, 'SMALL_FILE', -1)
        monkeypatch.setattr(ids, 'ARROW_MIN_ROWS', 0)
    return request.param


@pytest.fixture
def here(tmp_path):
    """A directory holding the CLI tests' shared inputs (qrels, a.run, b.run; see cli_support)."""
    from cli_support import write_inputs
    write_inputs(tmp_path)
    return tmp_path


@pytest.fixture
def ir_measures_pipeline():
    """ir_measures with its default pipeline and provider registry restored after the test, whatever
    ``irmetrics.use_in_ir_measures`` (or a failing test) did to them."""
    import ir_measures
    providers = list(ir_measures.DefaultPipeline.providers)
    registry = dict(ir_measures.providers.registry)
    yield ir_measures
    ir_measures.DefaultPipeline.providers[:] = providers
    ir_measures.providers.registry.clear()
    ir_measures.providers.registry.update(registry)
