"""``--dask ADDRESS``: a client of a running Dask scheduler, or of a local cluster (``local[:N]``).

Dask is imported only here, only when ``--dask`` is given; without ``irmetrics[dask]`` installed
the error says how to install it.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import InputError, ProviderError

DASK_INSTALL = 'pip install "irmetrics[dask]"'


@contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A distributed client for ``address`` (``local`` or ``local:N``: start a cluster of N worker
    processes, one thread each, default one per core), closed on exit."""
    try:
        import distributed
    except ImportError:
        raise ProviderError(f'--dask needs Dask and distributed; install them with: {DASK_INSTALL}') from None
    cluster = None
    if address == 'local' or address.startswith('local:'):
        workers = int(address[6:]) if address != 'local' else (os.cpu_count() or 1)
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=':0', silence_logs=logging.CRITICAL)
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(address)        # waits as long as Dask's distributed.comm.timeouts.connect
        except (OSError, ValueError, TypeError) as ex:
            raise InputError(f'cannot reach the Dask scheduler: {ex}', address) from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
