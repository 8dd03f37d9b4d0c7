"""The ``irmetrics`` command line: a thin layer over the public API.

    irmetrics QRELS RUN MEASURE... [-q] [-n] [-p PLACES] [--provider NAME] [--format FORMAT]
              [--memory-limit SIZE] [--dask ADDRESS]
    irmetrics QRELS RUN [RUN...] -m MEASURE... [options]      several runs, one table
    irmetrics measures [NAME...]  |  irmetrics providers

Modules: :mod:`.args` (grammar), :mod:`.evaluate` (the evaluation command), :mod:`.sources`
(files and ir_datasets ids), :mod:`.formats` (table, tsv, csv, json, jsonl, trec_eval),
:mod:`.catalog` (measure and provider descriptions, also behind docs/measures.md),
:mod:`.progress` (the progress bar), :mod:`.cluster` (``--dask``: a Dask client; Dask is imported
only then).  Every user error is one line on stderr and exit status 2.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import IrmetricsError
from .args import EXIT_USAGE, UsageError
from .args import evaluate_parser as build_parser  # noqa: F401  (the evaluation command's parser)
from .evaluate import resolve_measures  # noqa: F401

EXIT_INTERRUPTED = 130


def run(args, out=None) -> None:
    """Evaluate as the parsed command line ``args`` says, writing to ``out`` (default stdout)."""
    from . import evaluate
    evaluate.run(args, out or sys.stdout)


def _fail(message: str) -> int:
    sys.stderr.write(f'irmetrics: error: {message}\n')
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from . import args as grammar
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        command, args = grammar.parse(argv)
        if command == 'measures':
            from . import catalog
            text = (catalog.measures_table() if not args.names else
                    '\n'.join(catalog.measure_text(catalog.find_definition(n)) for n in args.names))
            sys.stdout.write(text)
        elif command == 'providers':
            from . import catalog
            sys.stdout.write(catalog.providers_table())
        else:
            run(args)
        sys.stdout.flush()
    except UsageError as ex:
        return _fail(f'{ex} (see irmetrics --help)')
    except IrmetricsError as ex:
        return _fail(str(ex))
    except OSError as ex:
        if isinstance(ex, BrokenPipeError):
            return _quiet_broken_pipe()
        return _fail(f'{ex.filename}: {ex.strerror}' if ex.filename and ex.strerror else str(ex))
    except KeyboardInterrupt:
        sys.stderr.write('irmetrics: interrupted\n')
        return EXIT_INTERRUPTED
    return 0


def _quiet_broken_pipe() -> int:
    """The reader closed the pipe (``irmetrics ... | head``): stop without a traceback at exit."""
    import os
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0
