"""Signals that end the program cleanly: what a block opened (a spill directory, an output's temporary
file) is removed when a SIGTERM or SIGHUP stops it, as it is after an exception."""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def ended_by_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP end the program by raising SystemExit (status 128 + the
    signal's number, as a shell reports a killed program), so that what the block opened is cleaned up
    (a spill directory, an output's temporary file); SIGINT already raises KeyboardInterrupt.  Only in the
    main thread, and only for a signal whose handler is the default one (an application's own handler is
    left alone); the handlers are restored when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)
    saved: dict[int, Any] = {}
    for number in (signal.SIGTERM, getattr(signal, 'SIGHUP', None)):
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            saved[number] = signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
