"""The ``irmetrics`` command line: a thin layer over the public API.

    irmetrics QRELS RUN MEASURE... [-q] [-n] [-p PLACES] [--provider NAME] [--format FORMAT]
              [--memory-limit SIZE] [--dask ADDRESS]
    irmetrics QRELS RUN [RUN...] -m MEASURE... [options]      several runs, one table
    irmetrics compare QRELS RUN RUN... -m MEASURE... [options]      paired significance tests
    irmetrics gate QRELS RUN --against STORED.json                  a regression gate for CI
    irmetrics fuse RUN RUN... [--method METHOD] [-o OUT]             runs fused into one  |  irmetrics fuse --list
    irmetrics measures [NAME...]  |  irmetrics providers
    irmetrics trec_eval [trec_eval options] QRELS RUN          trec_eval's command line and output
    irmetrics rag NUGGETS ASSIGNMENTS [ANSWERS] -m MEASURE...  RAG answers: nuggets and citation support
    irmetrics ties | agree | kappa | judges | pool | qrels-stats | judged | unjudged | discriminate | swap-rates
              | reproduce ...                                  checking the evaluation (docs/checking.md)

Modules: :mod:`.args` (grammar), :mod:`.evaluate` (the evaluation command), :mod:`.compare` (the
comparison command), :mod:`.fuse_command` (``irmetrics fuse``; with :mod:`.fusion_options`, which
``compare --fuse`` reads too), :mod:`.gate`, the commands checking the evaluation (:data:`CHECKS`: :mod:`.ties`,
:mod:`.agree`, :mod:`.kappa`, :mod:`.judges`, :mod:`.pool`, :mod:`.qrels_stats`, :mod:`.judged`, :mod:`.unjudged`,
:mod:`.trust_commands`), :mod:`.sources` (files and ir_datasets ids), :mod:`.formats` (table, tsv, csv, json,
jsonl, trec_eval),
:mod:`.catalog` (measure and provider descriptions, also behind docs/measures.md),
:mod:`.progress` (the progress bar), :mod:`.cluster` (``--dask``: a Dask client; Dask is imported
only then), :mod:`.trec_eval_command` (``irmetrics trec_eval``, with :mod:`.gnu_getopt` and
:mod:`.trec_layout`, the layout ``--trec-eval`` prints too), :mod:`.rag_command` (``irmetrics rag``).
Every user error is one line on stderr
and exit status 2.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from ..errors import IrmetricsError, IrmetricsWarning, strict
from ..rendering.text import printable
from .args import EXIT_USAGE, UsageError
from .args import evaluate_parser as build_parser  # noqa: F401  (the evaluation command's parser)
from .evaluate import resolve_measures  # noqa: F401

if TYPE_CHECKING:
    from .trec_eval_command import Invocation

EXIT_INTERRUPTED = 130
#: The commands checking the evaluation (docs/checking.md): each the module of this package and its function.
CHECKS = {'ties': ('ties', 'run'), 'agree': ('agree', 'run'), 'kappa': ('kappa', 'run'),
          'judges': ('judges', 'run'), 'pool': ('pool', 'run'),
          'qrels-stats': ('qrels_stats', 'run'), 'judged': ('judged', 'run'), 'unjudged': ('unjudged', 'run'),
          'discriminate': ('trust_commands', 'discriminate'), 'swap-rates': ('trust_commands', 'swaps'),
          'reproduce': ('trust_commands', 'reproduce')}


def run(args: argparse.Namespace, out: TextIO | None = None) -> None:
    """Evaluate as the parsed command line ``args`` says, writing to ``out`` (default stdout)."""
    from . import evaluate
    evaluate.run(args, out or sys.stdout)


def _fail(message: str) -> int:
    sys.stderr.write(f'irmetrics: error: {printable(message)}\n')     # a file name's ESC or newline shown, not obeyed
    return EXIT_USAGE


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    """Warnings as one line on stderr: irmetrics' own as 'irmetrics: warning: ...', others as Python shows them."""
    if issubclass(category, IrmetricsWarning):
        sys.stderr.write(f'irmetrics: warning: {printable(str(message))}\n')
    else:
        _python_show_warning(message, category, filename, lineno, file, line)


_python_show_warning = warnings.showwarning


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from . import args as grammar
    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:                      # started with standard output closed (irmetrics ... >&-)
        if sys.stderr is not None:
            _fail('standard output is closed: nowhere to write the results')
        return EXIT_USAGE
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            warnings.simplefilter('always', IrmetricsWarning)
            return _main(grammar, argv)
    except UsageError as ex:
        return _fail(f'{ex} (see {ex.hint})')
    except IrmetricsError as ex:
        return _fail(str(ex))
    except OSError as ex:
        if isinstance(ex, BrokenPipeError):
            return _quiet_broken_pipe()
        return _fail(f'{ex.filename}: {ex.strerror}' if ex.filename and ex.strerror else str(ex))
    except MemoryError:
        return _fail('out of memory: the machine (or its ulimit) cannot hold this work; a run file larger '
                     'than memory is evaluated in chunks with --memory-limit')
    except KeyboardInterrupt:
        sys.stderr.write('irmetrics: interrupted\n')
        return EXIT_INTERRUPTED


def _main(grammar: ModuleType, argv: list[str]) -> int:
    if argv and argv[0] == 'trec_eval':
        from .trec_eval_command import parse_invocation
        _trec_eval(parse_invocation(argv[1:]))
        sys.stdout.flush()
        return 0
    command, args = grammar.parse(argv)
    with strict(getattr(args, 'strict', False)):
        if command == 'measures':
            from . import catalog
            text = (catalog.measures_table() if not args.names else
                    '\n'.join(catalog.measure_text(catalog.find_definition(n)) for n in args.names))
            sys.stdout.write(text)
        elif command == 'compare':
            from . import compare
            compare.run(args, sys.stdout)
        elif command == 'rag':
            from . import rag_command
            rag_command.run(args, sys.stdout)
        elif command == 'fuse':
            from . import fuse_command
            fuse_command.run(args, sys.stdout)
        elif command == 'gate':
            from . import gate
            status = gate.run(args, sys.stdout)
            sys.stdout.flush()
            return status
        elif command in CHECKS:
            import importlib
            module, function = CHECKS[command]
            getattr(importlib.import_module(f'.{module}', __name__), function)(args, sys.stdout)
        elif command == 'providers':
            from . import catalog
            sys.stdout.write(catalog.providers_table())
        else:
            run(args)
    sys.stdout.flush()
    return 0


def _trec_eval(invocation: Invocation) -> None:
    """``irmetrics trec_eval``: help, version, or trec_eval's output, written as UTF-8 bytes (ids and run
    tags that are not valid UTF-8 go out as they came in)."""
    from . import trec_eval_command as command
    if invocation.version:
        sys.stdout.write(command.version_text())
    elif invocation.help:
        sys.stdout.write(command.help_text(invocation))
    else:
        sys.stdout.flush()
        binary = sys.stdout.buffer
        command.run(invocation, lambda text: binary.write(text.encode('utf-8', 'surrogateescape')))
        binary.flush()


def _quiet_broken_pipe() -> int:
    """The reader closed the pipe (``irmetrics ... | head``): stop without a traceback at exit, with
    status 1 (not everything was written), and nothing on stderr (the reader chose to stop)."""
    import os
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1
