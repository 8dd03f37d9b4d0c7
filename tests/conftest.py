"""Shared test settings.

Markers, set here from what each test module imports (so a new test is marked without a thought):
``reference`` for the tests that compare with a reference tool (pytrec_eval, ir_measures, ranx, PyTerrier, ...)
and ``slow`` for those that start a cluster or a JVM or generate many cases; ``pytest -m "not reference and not
slow"`` is the quick loop of the core rooms (CONTRIBUTING.md).  Under pytest-xdist (``-n auto``), the tests that
start a JVM (PyTerrier, Spark) run in one worker and those that compile ranx's numba kernels in one worker, so each
start-up is paid once a run (``--dist loadgroup``).

Hypothesis runs a moderate number of examples by default, the same ones every run (derandomized: a
CI run does not fail on an example an earlier run never met), so that the whole suite stays fast on a
small machine; ``HYPOTHESIS_PROFILE=thorough`` runs many more, freshly drawn (for a nightly job or
before a release).
"""
import ast
import functools
import os
import re
from pathlib import Path

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


#: The reference tools a test may compare irmetrics with (top-level module names).
REFERENCE_TOOLS = {'pytrec_eval', 'ir_measures', 'ranx', 'trectools', 'cwl_eval', 'pyndeval', 'pyterrier', 'recbole',
                   'torchmetrics', 'sklearn', 'statsmodels', 'repro_eval', 'krippendorff', 'pyspark'}
#: What makes a test slow: a cluster, a JVM, or many generated cases (a test that is slow for another reason, such as
#: starting processes or reading a million lines, says so with ``@pytest.mark.slow``).
SLOW_TOOLS = {'distributed', 'dask', 'pyspark', 'pyterrier', 'hypothesis'}
#: Tools whose start-up is shared by running their tests in one xdist worker.
START_UP_GROUPS = {'pyterrier': 'jvm', 'pyspark': 'jvm', 'ranx': 'numba'}
SLOW_FIXTURES = {'dask_client'}
REFERENCE_FIXTURES = {'ir_measures_pipeline'}


#: ``import x`` or ``from x import`` in the text of code a test runs in a new interpreter.
IMPORT_IN_TEXT = re.compile(r'(?:^|[\s;,\'"])(?:import|from)\s+([A-Za-z_]\w*)')


@functools.cache
def imported_modules(path: Path) -> frozenset[str]:
    """The top-level modules a test file imports, anywhere in it: at its top, inside functions, through
    ``reference('name')`` (reference_tools.py), and in the code it gives a new interpreter (``python -c``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split('.')[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split('.')[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'reference'
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value.split('.')[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.update(IMPORT_IN_TEXT.findall(node.value))
    return frozenset(names)


def pytest_collection_modifyitems(config, items):
    for item in items:
        modules = imported_modules(Path(item.path))
        fixtures = set(getattr(item, 'fixturenames', ()))
        if modules & REFERENCE_TOOLS or fixtures & REFERENCE_FIXTURES:
            item.add_marker(pytest.mark.reference)
        if modules & SLOW_TOOLS or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
        groups = sorted({START_UP_GROUPS[m] for m in modules & set(START_UP_GROUPS)})
        if groups:
            item.add_marker(pytest.mark.xdist_group(groups[0]))
