"""Where the command line's qrels and runs come from: files, or an ir_datasets dataset id for qrels.

A qrels argument that names an existing file is read as a TREC qrels file.  Otherwise, as in
ir_measures, it may be an ir_datasets id (``msmarco-passage/dev/small``) when ir_datasets is
installed (``pip install "irmetrics[ir_datasets]"``).  ir_datasets is imported only then.
"""
from __future__ import annotations

import os
from argparse import Namespace
from types import ModuleType

from ..data.input_kinds import TREC_FILE, classify
from ..data.inputs import to_qrels, to_run
from ..data.paths import has_input_suffix
from ..data.qrels import Qrels
from ..data.run import Run
from ..data.trec.reader import read_trec_qrels
from ..errors import InputError

IR_DATASETS_INSTALL = 'pip install "irmetrics[ir_datasets]"'


def load_qrels(arg: str, duplicates: str = 'error', grades: str = 'real') -> Qrels:
    """Qrels from a file (TREC or Parquet), or from an ir_datasets dataset when ``arg`` is not a file; with
    ``grades='trec_eval'`` (``--grades``) a TREC file's grades are read as trec_eval 10 reads their text (C's
    ``atol``: ``1e-3`` is 1), and the evaluation's option takes the integer part of any other input's."""
    if grades == 'trec_eval' and os.path.isfile(arg) and classify(arg, 'qrels') is TREC_FILE:
        return read_trec_qrels(arg, duplicates=duplicates, grades=grades)
    if os.path.exists(arg) or not _could_be_dataset_id(arg):
        return to_qrels(arg, duplicates=duplicates)
    try:
        import ir_datasets
    except ImportError:
        raise InputError(f'no such file, and ir_datasets is not installed to read it as a dataset id '
                         f'(install it with: {IR_DATASETS_INSTALL})', arg) from None
    return _dataset_qrels(ir_datasets, arg, duplicates)


def command_qrels(args: Namespace, path: str | None = None) -> Qrels:
    """The qrels an evaluating command names (``path``; by default its QRELS), read with its
    ``--qrels-duplicates`` and ``--grades``."""
    return load_qrels(args.qrels if path is None else path, args.qrels_duplicates, args.grades)


def load_run(arg: str, duplicates: str) -> Run:
    """A run from a file: TREC text, a Parquet file or a directory of Parquet files; ``-``: TREC text on
    standard input (as ``irmetrics trec_eval`` reads it)."""
    return to_run(run_source(arg), duplicates=duplicates)


def run_source(arg: str) -> str | bytes:
    """What a run argument names: the path, or for ``-`` the TREC text on standard input (as bytes)."""
    if arg == '-':
        from ..data.trec.reader import read_stdin
        return read_stdin()
    return arg


def _could_be_dataset_id(arg: str) -> bool:
    """ir_datasets ids are names joined by '/': not absolute or relative paths, no file suffix
    (:func:`irmetrics.data.paths.has_input_suffix`)."""
    return bool(arg) and not arg.startswith(('.', '/', '~', '\\')) and not has_input_suffix(arg)


def _dataset_qrels(ir_datasets: ModuleType, dataset_id: str, duplicates: str) -> Qrels:
    import dataclasses
    import logging
    where = f'ir_datasets:{dataset_id}'
    try:
        dataset = ir_datasets.load(dataset_id)
    except KeyError:
        raise InputError('no such file, and no ir_datasets dataset of that id', dataset_id) from None
    if not dataset.has_qrels():
        raise InputError('this ir_datasets dataset has no qrels', where)
    # ir_datasets logs download attempts on stderr; irmetrics reports a failure in one line instead.
    logging.disable(logging.CRITICAL)
    try:
        records = list(dataset.qrels_iter())
    except Exception as ex:     # noqa: BLE001 - downloads fail in many ways (network, disk, checksum)
        reason = str(ex.args[0]) if ex.args else type(ex).__name__
        raise InputError(f'the qrels are not available offline and could not be downloaded ({reason}); '
                         f'see the ir_datasets documentation of {dataset_id!r} for how to obtain them',
                         where) from None
    finally:
        logging.disable(logging.NOTSET)
    return dataclasses.replace(to_qrels(records, duplicates=duplicates), source=where)
