"""A progress bar on stderr for slow jobs: shown only when stderr is a terminal and after a delay.

The command is a few steps (read the qrels; read and evaluate each run), each one call into the
library, so the bar counts steps (with the share done and the time left at the pace so far) and names
the current one; a ticker thread redraws it so that the elapsed time moves during a long step.
Nothing appears for a job that ends within the delay (about a second; ``IRMETRICS_PROGRESS_DELAY``
sets it in seconds), with ``--quiet``, or when stderr is not a terminal.  tqdm is imported only when
a bar may be shown.
"""
from __future__ import annotations

import os
import sys
import threading
from typing import TextIO

DEFAULT_DELAY = 1.0
_TICK = 0.2


class Progress:
    """Counts ``total`` steps; use as a context manager and call :meth:`step` before each step."""

    def __init__(self, total: int, enabled: bool, stream: TextIO | None = None):
        self.total = total
        self.done = 0
        self.stage = ''
        self._bar = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if enabled:
            from tqdm import tqdm
            self._bar = tqdm(total=total, desc='irmetrics', file=stream or sys.stderr, leave=False,
                             delay=_delay(), miniters=0, unit='step', dynamic_ncols=True,
                             bar_format='{desc}: {n_fmt}/{total_fmt} {percentage:3.0f}% |{bar}| '
                                        '{elapsed}<{remaining}')

    def step(self, stage: str) -> None:
        """Mark the previous step done and name the one that starts."""
        if self.stage:
            self.done += 1
        self.stage = stage

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._thread = threading.Thread(target=self._tick, name='irmetrics-progress', daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None and self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._bar.close()

    def _tick(self) -> None:
        # Only this thread touches the bar until it stops, so no locking is needed.
        bar = self._bar
        assert bar is not None
        while not self._stop.wait(_TICK):
            bar.set_description_str(f'irmetrics: {self.stage}', refresh=False)
            bar.update(self.done - bar.n)


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get('IRMETRICS_PROGRESS_DELAY', DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


def wanted(quiet: bool, stream: TextIO | None = None) -> bool:
    """Whether a bar may be shown: not quiet, and the stream is a terminal."""
    stream = stream or sys.stderr
    return not quiet and hasattr(stream, 'isatty') and stream.isatty()
