"""Shared test settings.

Hypothesis runs a moderate number of examples by default, the same ones every run (derandomized: a
CI run does not fail on an example an earlier run never met), so that the whole suite stays fast on a
small machine; ``HYPOTHESIS_PROFILE=thorough`` runs many more, freshly drawn (for a nightly job or
before a release).
"""
import os

import pytest
from hypothesis import HealthCheck, settings
from reader_paths import PATHS, forced

settings.register_profile('default', max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile('thorough', max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'default'))


@pytest.fixture(params=PATHS)
def layout(request):
    """Run a test under both implementations of the input path (see reader_paths.py)."""
    with forced(request.param):
        yield request.param


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


@pytest.fixture(scope='session')
def dask_client():
    """A distributed LocalCluster of two worker processes (one thread each), started once per session."""
    import logging

    import distributed
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=':0',
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
