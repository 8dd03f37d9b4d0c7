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


@pytest.fixture(scope='session')
def dask_client():
    """A distributed LocalCluster of two worker processes (one thread each), started once per session."""
    distributed = pytest.importorskip('distributed')
    import logging
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
