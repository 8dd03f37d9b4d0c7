"""``irmetrics fuse``: several runs combined into one (:func:`irmetrics.fuse`), written as a run file.

The fused run goes to ``-o OUT`` (TREC text; Parquet when OUT ends in ``.parquet``), or as TREC text to
standard output without ``-o`` (or with ``-o -``), so that it can be piped into the evaluation command
(``irmetrics fuse a b | irmetrics qrels - AP``).  An output that is one of the inputs is refused before
anything is read.  The run's tag is ``--name`` or the method and the runs' names, ``rrf(bm25,dense)``.

``irmetrics fuse --list`` prints every method (its aliases, parameters and defaults, whether it takes
weights, what it reads, formula and citation) and every normalisation, from the fusion room's own tables.
"""
from __future__ import annotations

import argparse
import re
from typing import TextIO

from ..api.run_names import named_runs
from ..data.output_files import check_output
from ..data.paths import compression_of
from ..data.run import Run
from ..data.writing import run_table, write_trec_to
from ..errors import OutputError
from ..fusion import fuse, normalise
from ..fusion.methods import ALIASES, METHODS
from ..fusion.trained import TRAINED
from .catalog import fitted_table, labelled
from .fusion_options import fused_name
from .sources import load_qrels, load_run


def run(args: argparse.Namespace, out: TextIO) -> None:
    if args.list:
        out.write(listing())
        return
    paths = named_runs(args.runs)
    check_output(args.output, [*paths.values(), args.train_qrels, *args.train_runs], '-o')
    if args.output and compression_of(args.output):
        raise OutputError(f'-o {args.output!r}: the fused run is written uncompressed; write to standard output '
                          f'and compress it (irmetrics fuse ... | gzip > {args.output})')
    runs = {name: load_run(path, args.duplicates) for name, path in paths.items()}
    train = None if args.train_qrels is None else (load_qrels(args.train_qrels, args.qrels_duplicates),
                                                    [load_run(p, args.duplicates) for p in args.train_runs])
    fused = fuse(runs, method=args.method, norm=args.norm, weights=args.weights, depth=args.depth, name=args.name,
                 train=train, in_sample=args.in_sample, **dict(args.param))
    write_run(fused, args.output, args.name or fused_name(fused.source, list(runs)), out)


def write_run(run: Run, output: str | None, tag: str, out: TextIO) -> None:
    """``run`` as Parquet (``output`` ending in ``.parquet``), else as TREC text tagged ``tag``, to ``output``
    or to ``out`` (``None`` or ``'-'``)."""
    if output is None or output == '-':
        out.flush()
        write_trec_to(run_table(run), out.buffer, tag)
        out.buffer.flush()
    elif output.lower().endswith('.parquet'):
        run.to_parquet(output)
    else:
        run.to_trec(output, tag)


# --- irmetrics fuse --list ---------------------------------------------------------------------------------
def _parameter(name: str, default: object) -> str:
    return f'{name} (required)' if default is None else f'{name}={default!r}'


def listing() -> str:
    """The methods (those needing no training first) and normalisations for the terminal, as ``irmetrics
    measures`` lists measures."""
    known = {**METHODS, **TRAINED}
    aliases = {name: sorted(a for a, target in ALIASES.items() if target == name) for name in known}
    rows = [[m.name, ', '.join(_parameter(k, d) for k, (d, _) in m.params.items()) or '-',
             'yes' if m.weighted else 'no', m.default_norm or 'none',
             'yes' if m.trained else 'no', ', '.join(aliases[m.name]) or '-'] for m in known.values()]
    out = ['Fusion methods (irmetrics fuse RUN RUN... --method NAME [--param NAME=VALUE] [--weights W,W,...])', '',
           fitted_table(['method', 'parameters', 'weights', 'default norm', 'trained', 'aliases'], rows)]
    for m in known.values():
        out += [m.name, labelled('  formula', m.formula), labelled('  citation', m.citation), '']
    formulas = norm_formulas()
    out += ['Normalisations (--norm NAME; default auto: a method\'s default norm above), each run\'s scores of a',
            "query; x a score, r its rank, n the run's documents, C the query's candidates (every run's)", '',
            fitted_table(['norm', 'formula'], [[name, formulas.get(name, '')] for name in normalise.NORMALISATIONS])]
    return '\n'.join(out)


def norm_formulas() -> dict[str, str]:
    """Each normalisation's formula, read from the table of :mod:`irmetrics.fusion.normalise`'s docstring (its
    one statement of them): the rows between the table's two rules, ``name`` then the formula."""
    table = re.split(r'^=+ =+$', normalise.__doc__ or '', flags=re.MULTILINE)[1]
    out: dict[str, str] = {}
    for line in table.strip('\n').splitlines():
        row = re.match(r'``([^`]+)``\s+(.*)', line)
        if row:
            name = row.group(1)
            out[name] = row.group(2).strip()
        else:
            out[name] += ' ' + line.strip()
    return {name: formula.replace('``', '') for name, formula in out.items()}

