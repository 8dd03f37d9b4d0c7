"""Command-line grammar: the evaluation command and the ``compare`` / ``measures`` / ``providers`` commands,
and the judgments' ``kappa`` / ``pool`` / ``qrels-stats`` / ``judged`` / ``unjudged`` (docs/checking.md).

    irmetrics QRELS RUN MEASURE...              one run; as in ir_measures
    irmetrics QRELS RUN [RUN...] -m MEASURE...  any number of runs: with -m, every word after QRELS is a run
    irmetrics compare QRELS RUN RUN... -m MEASURE...   paired significance tests between runs
    irmetrics ties QRELS RUN -m MEASURE...      how much of each measure is the order of tied documents
    irmetrics discriminate | swap-rates | reproduce ...  checks of the evaluation (:mod:`.trust_commands`)
    irmetrics fuse RUN RUN... [-o OUT]          several runs fused into one (:mod:`.fuse_command`)
    irmetrics measures [NAME...]                the measures, or one measure's formula and conventions
    irmetrics providers                         the engines and whether they are installed
    irmetrics trec_eval [OPTIONS] QRELS RUN     trec_eval's command line and output (:mod:`.trec_eval_command`)

A usage error is one line on stderr and exit status 2, like every user error.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..data.policies import DUPLICATES, GRADES, QRELS_DUPLICATES
from ..rendering.formats import FORMATS

EXIT_USAGE = 2
COMMANDS = ('compare', 'gate', 'measures', 'providers', 'fuse',
            # checking the evaluation itself (docs/checking.md)
            'ties', 'agree', 'kappa', 'judges', 'pool', 'qrels-stats', 'judged', 'unjudged', 'discriminate',
            'swap-rates', 'reproduce', 'rag')

USAGE = '''irmetrics QRELS RUN MEASURE... [options]
       irmetrics QRELS RUN [RUN...] -m MEASURE [-m MEASURE...] [options]
       irmetrics compare QRELS RUN RUN... -m MEASURE [options]
       irmetrics gate QRELS RUN --against STORED.json [options]
       irmetrics fuse RUN RUN... [--method METHOD] [-o OUT] [options]  |  irmetrics fuse --list
       irmetrics measures [NAME...]
       irmetrics providers
       irmetrics trec_eval [trec_eval options] QRELS RUN
       irmetrics rag NUGGETS ASSIGNMENTS [ANSWERS] -m MEASURE [--compare | --against OTHER]  RAG answers (docs/rag.md)
   checking the evaluation (docs/checking.md):
       irmetrics ties QRELS RUN -m MEASURE [options]
       irmetrics agree QRELS RUN RUN... -m MEASURE (--qrels-b QRELS_B | -m MEASURE_B) [options]
       irmetrics agree --runs RUN_A RUN_B [--depth K] [-q]
       irmetrics kappa QRELS_A QRELS_B [--rel N]
       irmetrics judges QRELS LLM_QRELS RUN RUN RUN... [-m MEASURE] [--threshold N]
       irmetrics pool RUN... --depth K [--qrels QRELS] [-o FILE]
       irmetrics qrels-stats QRELS [--rel N]
       irmetrics judged QRELS RUN... [-k K]...
       irmetrics unjudged QRELS RUN -m MEASURE... [--grade G]
       irmetrics discriminate QRELS RUN RUN... -m MEASURE [options]
       irmetrics swap-rates QRELS RUN RUN... -m MEASURE [options]
       irmetrics reproduce QRELS --original BASE ADV --reproduced BASE ADV -m MEASURE [options]'''

EPILOG = '''measures: irmetrics/ir_measures syntax (AP, nDCG@10, "P(rel=2)@5"), trec_eval names (map,
ndcg_cut.10, P.5,10, official) or several in one quoted word ("nDCG@10 P@5"). Quote measures
with parentheses. QRELS may be an ir_datasets id when ir_datasets is installed.

examples:
  irmetrics qrels.txt run.txt AP nDCG@10 "P(rel=2)@5"
  irmetrics qrels.txt bm25.txt dense.txt -m "AP nDCG@10"      # one row per run (named bm25, dense)
  irmetrics qrels.txt BM25=runs/a.txt BM25+RM3=runs/b.txt -m AP  # runs named NAME=PATH
  irmetrics --trec-eval -q qrels.txt run.txt official           # trec_eval's layout
  irmetrics compare qrels.txt bm25.txt dense.txt -m AP --baseline bm25      # significance tests
  irmetrics compare qrels.txt bm25.txt dense.txt -m AP --baseline bm25 --risk 1   # and URisk, TRisk, GeoRisk
  irmetrics fuse bm25.txt dense.txt --method rrf -o hybrid.txt  # a fused run (irmetrics fuse --list)
  irmetrics compare qrels.txt bm25.txt dense.txt -m AP --fuse rrf   # the runs and their fusion
  irmetrics agree qrels.txt a.txt b.txt c.txt -m AP --qrels-b llm.txt  # tau, tau_AP, RBO of system rankings
  irmetrics trec_eval -q -c -m all_trec qrels.txt run.txt       # trec_eval's command line and output
  irmetrics measures nDCG                                       # formula, parameters, conventions
  irmetrics --dask local:4 qrels.txt run.parquet -m AP          # through Dask (irmetrics[dask])

full reference: docs/cli.md in the irmetrics source tree'''


class UsageError(Exception):
    """A command line that does not parse; printed as one line, with where to read the usage."""

    hint = 'irmetrics --help'


class _Parser(argparse.ArgumentParser):
    """The commands' parsers: errors are UsageErrors, and a long option is only its whole name (an
    abbreviation could be taken for another option: --output for --output_format)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs['allow_abbrev'] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class _EvaluateParser(_Parser):
    """Options may come between the positional words; the words are then split into runs and measures."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:   # as argparse's overloads allow
        args = self.parse_intermixed_args(args, namespace)
        if args.measure:
            args.runs, args.measures = args.words, args.measure
            if not args.runs:
                raise UsageError('no run given: irmetrics QRELS RUN [RUN...] -m MEASURE')
        else:
            if len(args.words) < 2:
                missing = 'a run and measures' if not args.words else 'measures'
                raise UsageError(f'no {missing} given: irmetrics QRELS RUN MEASURE... '
                                 f'(or irmetrics QRELS RUN [RUN...] -m MEASURE...)')
            args.runs, args.measures = args.words[:1], args.words[1:]
        if args.no_summary and not args.by_query:
            raise UsageError('-n/--no_summary only makes sense with -q/--by_query')
        if args.trec_eval and len(args.runs) > 1:
            raise UsageError("--trec-eval prints one run (trec_eval's layout has no run column); give one run")
        if args.runs.count('-') > 1:
            raise UsageError('standard input (-) can be one run only')
        if args.dask and '-' in args.runs:
            raise UsageError("a run on standard input (-) is read here, not by Dask's workers: give its file")
        if args.dask and args.memory_limit is not None:
            raise UsageError('--memory-limit bounds evaluation in this process; with --dask the workers\' memory '
                             'is the cluster\'s (give one or the other)')
        if args.format is None and not args.trec_eval:
            args.format = 'table' if sys.stdout.isatty() else 'tsv'
        return args


def integer(text: str) -> int:
    """An integer option's value, at most :data:`~irmetrics.constraints.MAX_INTEGER` in magnitude (what numpy's
    int64 holds), so that no option overflows; each command checks its option's own bounds."""
    from ..constraints import MAX_INTEGER
    return _whole(text, -MAX_INTEGER, MAX_INTEGER, "is too large: at most 2**63 - 1 in magnitude, what numpy's int64 "
                                                   "holds")


def seed(text: str) -> int:
    """A random seed: an integer from 0 to 2**128 - 1 (what a comparison records for a seed of None)."""
    from ..comparing.settings import MAX_SEED
    return _whole(text, 0, MAX_SEED, 'is not a seed: 0 to 2**128 - 1')


def _whole(text: str, low: int, high: int, problem: str) -> int:
    """``text`` as an integer from ``low`` to ``high``, else an argparse error: not an integer, or ``problem``
    (a number of too many digits is never converted)."""
    if not re.fullmatch(r'\s*[+-]?[0-9]+\s*', text):
        raise argparse.ArgumentTypeError(f'{text[:40]!r} is not an integer')
    digits = text.strip().lstrip('+-').lstrip('0')
    if len(digits) > len(str(max(-low, high))) or not low <= int(text) <= high:
        shown = text.strip() if len(text.strip()) <= 50 else f'{text.strip()[:20]}... ({len(digits)} digits)'
        raise argparse.ArgumentTypeError(f'{shown} {problem}')
    return int(text)


def level(text: str) -> int | float:
    """A grade threshold (``--rel``): an integer (:func:`integer`), or a finite real number (``1.5``), for
    real-valued grades; the command's own check refuses a negative one where it must."""
    if re.fullmatch(r'\s*[+-]?[0-9]+\s*', text):
        return integer(text)
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text[:40]!r} is not a number') from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f'{text[:40]!r} is not a finite number')
    return value


def places(text: str) -> int:
    """Decimal places: 0 to :data:`~irmetrics.rendering.formats.MAX_PLACES`, or -1 for every digit."""
    from ..rendering.formats import MAX_PLACES
    value = integer(text)
    if not -1 <= value <= MAX_PLACES:
        raise argparse.ArgumentTypeError(f'{text} is not a number of places (0 to {MAX_PLACES}, or -1 for every '
                                         f'digit)')
    return value


def memory_limit(text: str) -> int:
    from ..data.budget import parse_size
    from ..errors import OptionError
    try:
        return parse_size(text, 'memory limit')
    except OptionError as ex:
        raise argparse.ArgumentTypeError(str(ex)) from None


#: Local Dask workers a core, at most: each is a process of its own, and more than a few a core only
#: wait for a core and take memory.
MAX_WORKERS_PER_CORE = 4


def dask_address(text: str) -> str:
    if text.startswith('local:') and not (text[6:].isascii() and text[6:].isdigit() and int(text[6:]) > 0):
        raise argparse.ArgumentTypeError(f'{text!r}: local:N needs a number of workers N >= 1')
    most = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
    if text.startswith('local:') and int(text[6:]) > most:
        raise argparse.ArgumentTypeError(f'{text!r}: at most {most} local workers on this machine '
                                         f'({MAX_WORKERS_PER_CORE} a core: more only wait for the cores)')
    return text


def _qrels_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument('qrels', metavar='QRELS', help='qrels file (TREC format) or an ir_datasets id')


def _measures_option(p: argparse.ArgumentParser) -> None:
    """``-m``, required: the measures of the commands checking the evaluation."""
    p.add_argument('-m', '--measure', action='append', required=True, metavar='MEASURE',
                   help='a measure (or several, space-separated); repeatable')


def _evaluation_options(p: argparse.ArgumentParser) -> None:
    """The options the evaluation and compare commands share: engine and duplicates."""
    p.add_argument('--provider', metavar='NAME', help='force one provider (engine): see irmetrics providers')
    p.add_argument('--dialect', choices=['irmetrics', 'trec_eval', 'ranx'],
                   help="read measure names in one dialect only; default: a word means what the dialects that "
                        "read it agree on, and a word they read differently (recall) is an error "
                        "(docs/conventions.md)")
    _duplicates_options(p)
    p.add_argument('--grades', choices=GRADES.choices, default='real',
                   help="fractional grades (0.5, 2.7): real (default: kept, real-valued gains, compared with rel as "
                        "real numbers) or trec_eval (each grade's integer part, a TREC file's text read as trec_eval "
                        "10 reads it: 1e-3 is 1; docs/conventions.md)")
    p.add_argument('--strict', action='store_true',
                   help='suspicious input is an error (exit 2), not a warning: no run query in the qrels, qrels '
                        'queries missing from the run, blank lines, a relevance level no grade reaches')


def _resampling_memory_option(p: argparse.ArgumentParser) -> None:
    """``--memory-limit`` of the commands that resample: what the resamples may take."""
    p.add_argument('--memory-limit', '--memory_limit', dest='memory_limit', type=memory_limit, default=None,
                   metavar='SIZE', help='the memory the resamples may take (512M, 4G, ...; default: half of the '
                                        'memory): beyond, they are drawn again for each statistic, with the same '
                                        'numbers; a limit below one block of resamples (160 MiB) is refused')


def _ties_option(p: argparse.ArgumentParser) -> None:
    p.add_argument('--ties', choices=['trec_eval', 'expected'], default=None,
                   help="how documents with equal scores are ordered, for every measure: trec_eval's order "
                        "(the default) or the exact expectation over every order (ties='expected'; measures "
                        'without one are an error; docs/checking.md)')


def _duplicates_options(p: argparse.ArgumentParser, run: bool = True) -> None:
    """``--duplicates`` (a run's) and ``--qrels-duplicates``."""
    if run:
        p.add_argument('--duplicates', choices=DUPLICATES.choices, default='error',
                       help='a document retrieved twice for a query: error (default, as trec_eval), or keep the '
                            'first, last or highest-scored occurrence')
    p.add_argument('--qrels-duplicates', '--qrels_duplicates', dest='qrels_duplicates',
                   choices=QRELS_DUPLICATES.choices, default='error',
                   help='a document judged more than once for a query (several iterations): an error for '
                        'measures that read one grade per document (default, as trec_eval), or use its highest '
                        'grade (subtopic qrels)')


def evaluate_parser() -> argparse.ArgumentParser:
    from .. import __version__
    p = _EvaluateParser(prog='irmetrics', usage=USAGE, epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                description='Evaluate TREC runs against qrels with IR measures, exactly as trec_eval '
                            'ranks and counts (see docs/conventions.md).')
    p.add_argument('qrels', metavar='QRELS', help='qrels file (TREC format; .gz/.bz2/.xz/.zst accepted; or Parquet) '
                   'or an ir_datasets id')
    p.add_argument('words', nargs='*', metavar='RUN|MEASURE',
                   help='without -m: one RUN then MEASUREs; with -m: RUNs (TREC files, Parquet files or '
                        'directories of Parquet files)')
    p.add_argument('-m', '--measure', action='append', default=[], metavar='MEASURE',
                   help='a measure (or several, space-separated); repeatable. With -m every word after QRELS '
                        'is a run')
    p.add_argument('-q', '--by_query', '--by-query', action='store_true',
                   help='per-query values, then the aggregates (query "all")')
    p.add_argument('-n', '--no_summary', '--no-summary', action='store_true',
                   help='with -q: leave out the aggregates')
    p.add_argument('-p', '--places', type=places, default=None,
                   help='decimal places (default: 4 for table, tsv and --trec-eval; every digit for csv, json '
                        'and jsonl; -1: every digit)')
    out = p.add_mutually_exclusive_group()
    out.add_argument('-f', '--format', '-o', '--output_format', dest='format', choices=FORMATS, default=None,
                     metavar='FORMAT', help=f'output format: {", ".join(FORMATS)} (default: table on a '
                                            'terminal, else tsv, the ir_measures layout)')
    out.add_argument('--trec-eval', '--trec_eval', dest='trec_eval', action='store_true',
                     help="trec_eval's three-column layout and measure names (one run)")
    _evaluation_options(p)
    _ties_option(p)
    p.add_argument('--memory-limit', '--memory_limit', dest='memory_limit', type=memory_limit, default=None,
                   metavar='SIZE', help='evaluate a run file larger than this (512M, 4G, ...; default: half of the '
                                        'memory) in chunks of complete queries, with the same numbers '
                                        '(docs/scaling.md)')
    p.add_argument('--dask', type=dask_address, default=None, metavar='ADDRESS',
                   help='evaluate through Dask: a scheduler address (tcp://host:8786), or local[:N] for a local '
                        'cluster of N worker processes (needs irmetrics[dask]; docs/scaling.md)')
    p.add_argument('--quiet', action='store_true', help='no progress bar')
    p.add_argument('--version', action='version', version=f'irmetrics {__version__}')
    return p


def measures_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics measures', description='List the measures, or describe some: formula, '
                'parameters and defaults, aliases, trec_eval names, providers, conventions, citation.')
    p.add_argument('names', nargs='*', metavar='NAME',
                   help='a measure name, alias, measure string (nDCG@10) or trec_eval name (ndcg_cut)')
    return p


def providers_parser() -> argparse.ArgumentParser:
    return _Parser(prog='irmetrics providers',
                   description='The providers (engines), whether each is installed, and how to install it.')


_TEST_RESAMPLES = 'resamples of the randomisation, bootstrap and Tukey tests (default 10000)'


def _comparison_options(p: argparse.ArgumentParser, resamples: int | None = 10000,
                        resamples_help: str = _TEST_RESAMPLES) -> None:
    """The options of a paired comparison: baselines, tests, correction, intervals, resamples, seed (``compare``
    and ``rag --compare``; ``resamples``: the default, None where the command chooses it)."""
    from ..comparing import TESTS
    from ..comparing.corrections import METHODS
    from ..comparing.intervals import METHODS as CI_METHODS
    p.add_argument('--baseline', metavar='NAME|PATH', action='append',
                   help='compare every run with this one (by its name, path or file stem); repeat for several '
                        'baselines; default: every pair')
    p.add_argument('--test', action='append', choices=list(TESTS), metavar='TEST',
                   help=f'{", ".join(TESTS)} (default t); repeat for several')
    p.add_argument('--correction', choices=list(METHODS), metavar='METHOD',
                   help=f'multiple-comparison correction: {", ".join(METHODS)} (default: none)')
    p.add_argument('--correction-scope', '--correction_scope', dest='correction_scope', choices=['measure', 'all'],
                   default='measure', help='correct within each measure (default) or over all measures')
    p.add_argument('--alpha', type=float, default=0.05, help='significance level (default 0.05)')
    p.add_argument('--ci', type=float, default=0.95, help='confidence level of the intervals (default 0.95)')
    p.add_argument('--ci-method', '--ci_method', dest='ci_method', choices=list(CI_METHODS), default='t',
                   help='intervals: t (default), bootstrap (percentile) or bca')
    p.add_argument('--resamples', type=integer, default=resamples, metavar='N', help=resamples_help)
    p.add_argument('--seed', type=seed, default=0, metavar='N', help='random seed (default 0)')


class _CompareParser(_Parser):
    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:   # as argparse's overloads allow
        args = self.parse_intermixed_args(args, namespace)
        if not args.measure:
            raise UsageError('no measures given: irmetrics compare QRELS RUN RUN... -m MEASURE')
        args.tests = args.test or ['t']
        return args


def compare_parser() -> argparse.ArgumentParser:
    from .fusion_options import fusion
    p = _CompareParser(prog='irmetrics compare',
                       usage='irmetrics compare QRELS RUN RUN... -m MEASURE [--fuse METHOD]... [options]',
                       description='Compare runs with paired significance tests: means, differences with '
                                   'confidence intervals, effect sizes, wins/ties/losses and p-values, corrected '
                                   'for multiple comparisons (see docs/comparing.md).')
    _qrels_argument(p)
    p.add_argument('runs', nargs='*', metavar='RUN', help='two or more run files, each PATH (named by its '
                   'file\'s stem) or NAME=PATH')
    p.add_argument('-m', '--measure', action='append', default=[], metavar='MEASURE',
                   help='a measure (or several, space-separated); repeatable')
    _comparison_options(p)
    _resampling_memory_option(p)
    _format_options(p)
    p.add_argument('--output', metavar='FILE', help='write the output to FILE instead of stdout ("-": stdout)')
    p.add_argument('--ranks', action='store_true',
                   help='also print each measure\'s leaderboard: ranks with bootstrap intervals over the queries')
    p.add_argument('--slices', metavar='FILE', help='compare within slices of the queries (FILE: lines QUERY_ID '
                   'SLICE), the correction over every slice')
    p.add_argument('--risk', '--risk-weight', dest='risk', type=float, default=None, metavar='WEIGHT',
                   help='also print the risk against the one --baseline: each run\'s URisk and TRisk, losses weighing '
                        '1 + WEIGHT times a gain (WEIGHT >= 0, e.g. 1), and every run\'s GeoRisk (docs/checking.md)')
    p.add_argument('--fuse', type=fusion, action='append', default=[], metavar='[NAME=]METHOD[:ITEM,...]',
                   help='also compare the fusion of all the runs by METHOD, one that needs no training (irmetrics '
                        'fuse --list), named NAME or as written; items: one weight a run, NAME=VALUE parameters, '
                        'norm=NORM (rrf, rrf:k=20, wsum:0.3,0.7, hybrid=wsum:0.3,0.7,norm=zmuv); repeatable')
    p.add_argument('--show', type=lambda text: [w for w in text.replace(',', ' ').split() if w], default=[],
                   metavar='delta,p', help='also show, beside each mean, each run\'s difference from the baseline '
                   '(delta) and its corrected p-value (p); csv, tsv and json hold them already')
    _evaluation_options(p)
    _ties_option(p)
    p.add_argument('--quiet', action='store_true', help='no progress bar')
    return p


class _FuseParser(_Parser):
    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:   # as argparse's overloads allow
        words = list(sys.argv[1:] if args is None else args)
        for i in reversed(range(len(words) - 1)):    # --weights -0.5,1: a value, not an option (argparse's guess)
            if words[i] == '--weights':
                words[i:i + 2] = [f'--weights={words[i + 1]}']
        args = self.parse_intermixed_args(words, namespace)
        if args.list:
            return args
        if len(args.runs) < 2:
            raise UsageError(f'fusing takes two runs or more, got {len(args.runs)}: irmetrics fuse RUN RUN... '
                             f'--method METHOD (irmetrics fuse --list: the methods)')
        if (args.train_qrels is None) != (not args.train_runs):
            raise UsageError('a trained method takes --train-qrels QRELS and --train-run RUN... together')
        if args.train_runs and len(args.train_runs) != len(args.runs):
            raise UsageError(f'--train-run: one training run for each of the {len(args.runs)} runs, in their order; '
                             f'got {len(args.train_runs)}')
        return args


def fuse_parser() -> argparse.ArgumentParser:
    from ..fusion.normalise import NORMALISATIONS
    from .fusion_options import param, weights
    norms = ['auto', 'none', *NORMALISATIONS]
    p = _FuseParser(prog='irmetrics fuse', usage='irmetrics fuse RUN RUN... [--method METHOD] [-o OUT] [options]\n'
                                                 '       irmetrics fuse --list',
                    description='Fuse runs into one (hybrid retrieval, metasearch) with one of ranx\'s methods: per '
                                'query, every document of any run with its fused score, ranked by trec_eval\'s rule. '
                                'Written to OUT (TREC text; Parquet for a name ending in .parquet) or, without -o, '
                                'as TREC text to standard output (docs/cli.md).')
    p.add_argument('runs', nargs='*', metavar='RUN', help=f'two or more {RUN_FILES}')
    p.add_argument('--list', action='store_true', help='print every method and normalisation, then exit')
    p.add_argument('--method', default='rrf', metavar='METHOD', help='the fusion method (default rrf; see --list)')
    p.add_argument('--norm', choices=norms, default='auto', metavar='NORM',
                   help=f'normalise each run\'s scores of a query first: {", ".join(norms)} (default auto: none for '
                        f'the methods that read ranks, min-max for the others)')
    p.add_argument('--weights', type=weights, metavar='W,W,...',
                   help='one weight a run, in their order, for the weighted methods (default: equal)')
    p.add_argument('--param', type=param, action='append', default=[], metavar='NAME=VALUE',
                   help='a parameter of the method (k=60 for rrf; see --list); repeatable')
    p.add_argument('--depth', type=integer, default=None, metavar='K',
                   help='keep the first K documents of each fused ranking (default: all)')
    p.add_argument('--name', metavar='NAME', help="the fused run's tag (default: the method and the runs, "
                                                  "rrf(bm25,dense))")
    p.add_argument('-o', '--output', metavar='OUT', help='write the fused run to OUT (never one of the inputs; '
                                                         '"-": standard output, as without -o)')
    p.add_argument('--train-qrels', '--train_qrels', dest='train_qrels', metavar='QRELS',
                   help='a trained method\'s judgments of training queries')
    p.add_argument('--train-run', '--train_run', dest='train_runs', nargs='+', action='extend', default=[],
                   metavar='RUN', help='a trained method\'s runs of the training queries, one for each RUN, in their '
                                       'order')
    p.add_argument('--in-sample', '--in_sample', dest='in_sample', action='store_true',
                   help='let a trained method fuse queries it was trained on (refused otherwise: its scores would be '
                        'fitted to the very judgments they are evaluated on)')
    _duplicates_options(p)
    return p


def gate_parser() -> argparse.ArgumentParser:
    from ..comparing import TESTS
    from ..comparing.corrections import METHODS
    p = _Parser(prog='irmetrics gate', usage='irmetrics gate QRELS RUN --against STORED.json [-m MEASURE] [options]',
                description='A regression gate for CI: evaluate RUN and compare it, query by query, with the '
                            'per-query values stored by an earlier evaluation (irmetrics QRELS RUN -m MEASURES -q '
                            '-f json > STORED.json); exit 1 when a measure is significantly worse (or dropped by '
                            'more than --margin), 0 when none is.')
    _qrels_argument(p)
    p.add_argument('run', metavar='RUN', help='the run to gate (PATH or NAME=PATH)')
    p.add_argument('--against', required=True, metavar='STORED.json',
                   help="irmetrics' JSON of one run evaluated with -q (the per-query values)")
    p.add_argument('-m', '--measure', action='append', default=[], metavar='MEASURE',
                   help='the measures to gate on (default: every measure stored)')
    p.add_argument('--test', choices=list(TESTS), default='t', metavar='TEST',
                   help=f'{", ".join(TESTS)} (default t)')
    p.add_argument('--correction', choices=[*METHODS, 'none'], default='holm', metavar='METHOD',
                   help=f'correction over the measures: {", ".join(METHODS)} or none (default holm)')
    p.add_argument('--alpha', type=float, default=0.05, help='significance level (default 0.05)')
    p.add_argument('--margin', type=float, default=None, metavar='X',
                   help='also fail when a mean drops by more than X, whatever the test says')
    p.add_argument('-p', '--places', type=places, default=4, help='decimal places (default 4)')
    _evaluation_options(p)
    return p


def ties_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics ties', usage='irmetrics ties QRELS RUN -m MEASURE [-m MEASURE...] [options]',
                description='How much of each measure is the order of documents with equal scores: its mean in '
                            "trec_eval's order, the exact expectation over every order of the tied documents, the "
                            'lowest and highest mean over those orders, and the share of queries whose value '
                            'depends on them (docs/checking.md).')
    _qrels_argument(p)
    p.add_argument('run', metavar='RUN', help='the run (TREC format or Parquet)')
    _trust_options(p, 'one row per query and measure instead of the means')
    return p


RUN_FILES = "run files, each PATH (named by its file's stem) or NAME=PATH"


def _table_options(p: argparse.ArgumentParser, by_query: str | None) -> None:
    """The output options of the commands checking the evaluation: per-query rows (``-q``, explained by
    ``by_query``, when the command has them), format, places."""
    if by_query is not None:
        p.add_argument('-q', '--by_query', '--by-query', action='store_true', help=by_query)
    _format_options(p)


def _format_options(p: argparse.ArgumentParser) -> None:
    """``-f FORMAT`` (one of :data:`~irmetrics.rendering.formats.FORMATS`) and ``-p PLACES``, as every command
    printing a result takes them."""
    p.add_argument('-f', '--format', choices=FORMATS, default='table', metavar='FORMAT',
                   help=f'output format: {", ".join(FORMATS)} (default table)')
    p.add_argument('-p', '--places', type=places, default=None,
                   help='decimal places (default: 4 in table, markdown, latex and html; every digit in csv and json)')


def kappa_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics kappa', usage='irmetrics kappa QRELS_A QRELS_B [--rel N] [options]',
                description="Agreement between two qrels on the (query, document) pairs both judge: Cohen's kappa "
                            'of relevant (grade >= --rel) against not, the weighted kappas and Krippendorff\'s alpha '
                            'of the grades, the pairs judged by both or one, and the confusion of grades '
                            '(docs/checking.md).')
    p.add_argument('qrels_a', metavar='QRELS_A', help='the first qrels (TREC file; e.g. human assessors)')
    p.add_argument('qrels_b', metavar='QRELS_B', help='the second qrels (e.g. an LLM judge)')
    p.add_argument('--rel', type=level, default=1, help="the lowest relevant grade of Cohen's kappa (default 1; a "
                                                        "real number, 1.5, for real-valued grades)")
    _table_options(p, "Cohen's kappa of each query instead")
    _duplicates_options(p, run=False)
    return p


def judges_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics judges',
                usage='irmetrics judges QRELS LLM_QRELS RUN RUN RUN... [-m MEASURE] [--threshold N] [options]',
                description="Can a judge's qrels (an LLM's grades) stand in for people's when ranking these runs? "
                            "The agreement of the grades on the pairs both judge (Cohen's kappa of the grades and "
                            "at --threshold, Krippendorff's alpha, the confusion) and of the runs' leaderboards "
                            "under each (Kendall's tau-b, tau_AP, Spearman, Pearson with bootstrap intervals over the "
                            'topics, RBO, the agreement among the top runs) (see docs/judges.md).')
    _qrels_argument(p)
    p.add_argument('llm_qrels', metavar='LLM_QRELS', help="the judge's qrels (e.g. an LLM's grades)")
    p.add_argument('runs', nargs='+', metavar='RUN', help=f'three or more {RUN_FILES}')
    p.add_argument('-m', '--measure', action='append', metavar='MEASURE',
                   help='the measure ranking the runs (default nDCG@10)')
    p.add_argument('--threshold', type=integer, default=2,
                   help='the lowest relevant grade of the binarised kappa (default 2)')
    p.add_argument('--top', type=integer, default=None, metavar='K',
                   help='the agreement among the K best runs under QRELS (default: half the runs, from 6 runs on)')
    p.add_argument('--ci', type=float, default=0.95, help='confidence level of the intervals (default 0.95)')
    p.add_argument('--resamples', type=integer, default=1000, metavar='N',
                   help='bootstrap resamples of the topics (default 1000)')
    p.add_argument('--seed', type=seed, default=0, metavar='N', help='random seed (default 0)')
    p.add_argument('--tie-variant', '--tie_variant', dest='tie_variant', choices=['a', 'b'], default='a',
                   help='tied means: a (uncertainty, default) or b (agreement), for tau_AP and RBO')
    p.add_argument('--rbo-p', '--rbo_p', dest='p', type=float, default=0.9, metavar='P',
                   help="RBO's persistence p, 0 < p < 1 (default 0.9)")
    _table_options(p, None)
    _evaluation_options(p)
    return p


def pool_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics pool', usage='irmetrics pool RUN... --depth K [--qrels QRELS] [-o FILE] [options]',
                description="The depth-K pool of the runs: every query's union of each run's top K documents in "
                            "trec_eval's order; prints each run's documents in the pool and those no other run "
                            'pooled; -o writes the pool as a qrels file to judge (grade -1: pooled, not judged).')
    p.add_argument('runs', nargs='+', metavar='RUN', help=RUN_FILES)
    p.add_argument('--depth', '-k', type=integer, required=True, help='documents of each ranking to pool')
    p.add_argument('--qrels', metavar='QRELS', help='judgments made already: their pairs are left out of the file')
    p.add_argument('-o', '--output', metavar='FILE', help='write the pairs to judge to FILE (TREC qrels format)')
    _table_options(p, 'one row per query: pool size, judged already, to judge, unique per run')
    _duplicates_options(p)
    return p


def qrels_stats_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics qrels-stats', usage='irmetrics qrels-stats QRELS [--rel N] [-q] [options]',
                description='What the qrels hold: judgments, judgments of each grade, relevant (grade >= --rel) and '
                            'their share, over all queries (-q: per query too).')
    _qrels_argument(p)
    p.add_argument('--rel', type=level, default=1, help='the lowest relevant grade (default 1; a real number, 1.5, '
                                                        'for real-valued grades)')
    _table_options(p, 'one row per query, then the whole qrels (all)')
    _duplicates_options(p, run=False)
    return p


def judged_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics judged', usage='irmetrics judged QRELS RUN... [-k K]... [options]',
                description="How much of each run's top k the qrels judge: Judged@k (judged documents over min(k, "
                            'retrieved)), averaged over the qrels\' queries.')
    _qrels_argument(p)
    p.add_argument('runs', nargs='+', metavar='RUN', help=RUN_FILES)
    p.add_argument('-k', '--cutoff', type=integer, action='append', metavar='K',
                   help='a cutoff k; repeatable (default 10 and 100)')
    _table_options(p, 'one row per run and query')
    _duplicates_options(p)
    return p


def unjudged_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics unjudged', usage='irmetrics unjudged QRELS RUN -m MEASURE... [--grade G] [options]',
                description='Each measure with the unjudged documents it reads counted as non-relevant (as trec_eval '
                            'does) and as relevant at grade G, and whether the two bound its value under any '
                            'judgment of them (yes for P, RR, DCG, ERR, RBP, ...; no for R-normalised measures such as '
                            'AP and nDCG, whose R grows too).')
    _qrels_argument(p)
    p.add_argument('run', metavar='RUN', help='the run (PATH or NAME=PATH)')
    _measures_option(p)
    p.add_argument('--grade', type=integer, default=None,
                   help='the grade of an unjudged document assumed relevant (default: the highest grade of the qrels)')
    _table_options(p, 'one row per query and measure')
    _evaluation_options(p)
    return p


def agree_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics agree',
                usage='irmetrics agree QRELS RUN RUN... -m MEASURE (--qrels-b QRELS_B | -m MEASURE_B) [options]\n'
                      '       irmetrics agree --runs RUN_A RUN_B [--depth K] [-q] [options]',
                description='Do two evaluations rank systems alike? Kendall\'s tau-b (with its p-value), tau_AP '
                            '(the first evaluation as the reference) and rank-biased overlap of the rankings of the '
                            'runs under two sets of judgments (--qrels-b) or two measures (-m twice), or both. With '
                            '--runs: do two runs rank documents alike? KTU and RBO per query, no qrels '
                            '(see docs/checking.md).')
    p.add_argument('words', nargs='*', metavar='QRELS RUN | RUN',
                   help='QRELS then two runs or more (PATH or NAME=PATH); with --runs, the two runs')
    p.add_argument('-m', '--measure', action='append', default=[], metavar='MEASURE',
                   help='the measure of the first evaluation; a second -m: the measure of the second')
    p.add_argument('--qrels-b', '--qrels_b', dest='qrels_b', metavar='QRELS_B',
                   help='the judgments of the second evaluation (default: QRELS)')
    p.add_argument('--tie-variant', '--tie_variant', dest='tie_variant', choices=['a', 'b'], default='a',
                   help='tied means: a (uncertainty, default; tau_AP is NaN, with a warning, when the first '
                        'ranking ties) or b (agreement), for tau_AP and RBO (Urbano & Marrero 2017, Corsi & Urbano '
                        '2024)')
    p.add_argument('--systems', action='store_true', help="print each system's means and ranks instead")
    p.add_argument('--plot', metavar='FILE', help='save the systems under one evaluation against the other '
                                                  '(PNG, SVG or PDF by the suffix; needs matplotlib)')
    p.add_argument('--plot-by', '--plot_by', dest='plot_by', choices=['score', 'rank'], default='score',
                   help='the plot\'s axes: the means (score, default) or the ranks')
    p.add_argument('--runs', dest='runs_mode', action='store_true',
                   help='compare two runs\' document rankings query by query: KTU and RBO (no qrels)')
    p.add_argument('--depth', type=integer, default=None, metavar='K', help='with --runs: compare the first K '
                                                                       'documents of each ranking (default: all)')
    p.add_argument('--rbo-p', '--rbo_p', dest='p', type=float, default=0.9, metavar='P',
                   help="RBO's persistence p, 0 < p < 1 (default 0.9)")
    _table_options(p, 'with --runs: each query too')
    _evaluation_options(p)
    return p


def _trust_options(p: argparse.ArgumentParser, by_query: str | None = None) -> None:
    """The measures, the output and the evaluation options of the commands of :mod:`irmetrics.trust`."""
    _measures_option(p)
    _table_options(p, by_query)
    _evaluation_options(p)


def _compared_runs(p: argparse.ArgumentParser) -> None:
    """The runs of a command comparing two or more, and the seed of its random draws."""
    p.add_argument('runs', nargs='*', metavar='RUN', help=f'two or more {RUN_FILES}')
    p.add_argument('--seed', type=seed, default=0, metavar='N', help='random seed (default 0)')


def discriminate_parser() -> argparse.ArgumentParser:
    from ..trust.discriminative_power import POWER_TESTS
    p = _Parser(prog='irmetrics discriminate', usage='irmetrics discriminate QRELS RUN RUN... -m MEASURE [options]',
                description="The discriminative power of each measure (Sakai, SIGIR 2006): the share of the pairs of "
                            "runs significantly different, and the difference in means a pair needs to be "
                            "(see docs/checking.md).")
    _qrels_argument(p)
    _compared_runs(p)
    p.add_argument('--test', choices=POWER_TESTS, default='tukey', metavar='TEST',
                   help='tukey (randomised Tukey HSD over all runs, default) or bootstrap (paired bootstrap test of '
                        'each pair)')
    p.add_argument('--alpha', type=float, default=0.05, help='significance level (default 0.05)')
    p.add_argument('--resamples', type=integer, default=1000, metavar='N', help='resamples B (default 1000)')
    _resampling_memory_option(p)
    p.add_argument('--by-pair', '--by_pair', dest='by_pair', action='store_true',
                   help='one row per pair of runs: difference, critical difference, p-value, significant')
    _trust_options(p)
    return p


def swap_rates_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics swap-rates', usage='irmetrics swap-rates QRELS RUN RUN... -m MEASURE [options]',
                description='Swap rates (Voorhees and Buckley, SIGIR 2002): over random disjoint halves of the '
                            'queries, how often the second half orders a pair of runs the other way, by bins of '
                            'the difference on the first half (see docs/checking.md).')
    _qrels_argument(p)
    _compared_runs(p)
    p.add_argument('--trials', type=integer, default=1000, metavar='N', help='random splits (default 1000)')
    _resampling_memory_option(p)
    p.add_argument('--size', type=integer, default=None, metavar='N',
                   help='queries in each half (default: half of the queries)')
    p.add_argument('--bin-width', '--bin_width', dest='bin_width', type=float, default=0.01, metavar='W',
                   help='width of the bins of the difference on the first half (default 0.01)')
    _trust_options(p)
    return p


def reproduce_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics reproduce',
                usage='irmetrics reproduce QRELS --original BASE ADV --reproduced BASE ADV -m MEASURE [options]',
                description='How faithful a reproduction is (Breuer et al., SIGIR 2020): the RMSE of the per-query '
                            'values of each reproduced run, the effect ratio and the delta of the relative '
                            'improvement of the advanced run over the baseline (see docs/checking.md).')
    p.add_argument('qrels', metavar='QRELS', help='qrels of the original runs (and of the reproduced ones, unless '
                                                  '--reproduced-qrels)')
    p.add_argument('--original', nargs=2, required=True, metavar=('BASE', 'ADV'),
                   help='the original baseline and advanced runs')
    p.add_argument('--reproduced', nargs=2, required=True, metavar=('BASE', 'ADV'),
                   help='their reproductions')
    p.add_argument('--reproduced-qrels', '--reproduced_qrels', dest='reproduced_qrels', metavar='QRELS',
                   help='the qrels of a reproduction on another collection (no RMSE then)')
    _trust_options(p)
    return p


def rag_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='irmetrics rag', usage='irmetrics rag NUGGETS ASSIGNMENTS [ANSWERS] -m MEASURE [--compare | '
                '--against OTHER_ASSIGNMENTS] [options]', description='RAG answers evaluated as the TREC 2024 RAG '
                'track does: nugget scores (all, vital, strict_all, strict_vital) from the AutoNuggetizer\'s '
                'assignments, citation support (support_precision, support_recall) from the answers; every run of '
                'the files, per topic (-q) and as means; --compare: paired tests over the topics, as irmetrics '
                'compare; --against: ASSIGNMENTS checked against other assignments of the same answers (the labels\' '
                'kappa and alpha, the runs\' leaderboards by -m), as irmetrics judges (see docs/rag.md).')
    p.add_argument('nuggets', metavar='NUGGETS', help='nuggets, JSON lines {qid, query, nuggets: [{text, importance}]}')
    p.add_argument('assignments', metavar='ASSIGNMENTS', help='assignments, JSON lines {qid, run_id, nuggets: '
                   '[{text, importance, assignment}]}')
    p.add_argument('answers', metavar='ANSWERS', nargs='?', help='answers with support labels, JSON lines '
                   '{run_id, topic_id, answer: [{text, citations, support}]} (for the support measures)')
    _measures_option(p)
    p.add_argument('-q', '--by_query', '--by-query', action='store_true',
                   help='per-topic values, then the means (topic "all")')
    p.add_argument('--compare', action='store_true', help='compare the runs with paired tests over the topics')
    p.add_argument('--against', metavar='OTHER_ASSIGNMENTS',
                   help='the reference assignments (e.g. manual) of the same (run, topic) answers: the agreement of '
                        'the labels and of the runs\' leaderboards by -m (one nugget score)')
    p.add_argument('--threshold', choices=['support', 'partial_support'], default='support',
                   help='--against: the lowest level counted as supported by the binarised kappa (default support)')
    p.add_argument('--top', type=integer, default=None, metavar='K',
                   help='--against: the agreement among the K best runs (default: half the runs, from 6 runs on)')
    p.add_argument('--tie-variant', '--tie_variant', dest='tie_variant', choices=['a', 'b'], default='a',
                   help='--against: tied means, a (uncertainty, default) or b (agreement), for tau_AP and RBO')
    p.add_argument('--rbo-p', '--rbo_p', dest='p', type=float, default=0.9, metavar='P',
                   help="--against: RBO's persistence p, 0 < p < 1 (default 0.9)")
    _comparison_options(p, None, 'resamples of the tests (default 10000), or with --against of the bootstrap of the '
                                 'intervals (default 1000)')
    _format_options(p)
    return p


#: The parser of each command but ``trec_eval`` (``evaluate``: ``irmetrics QRELS RUN ...``).
PARSERS: dict[str, Callable[[], argparse.ArgumentParser]] = {
    'evaluate': evaluate_parser, 'compare': compare_parser, 'gate': gate_parser, 'measures': measures_parser,
    'providers': providers_parser, 'ties': ties_parser, 'agree': agree_parser, 'kappa': kappa_parser,
    'judges': judges_parser, 'pool': pool_parser, 'qrels-stats': qrels_stats_parser, 'judged': judged_parser,
    'unjudged': unjudged_parser,
    'discriminate': discriminate_parser, 'swap-rates': swap_rates_parser, 'reproduce': reproduce_parser,
    'fuse': fuse_parser, 'rag': rag_parser}


def parse(argv: list[str]) -> tuple[str, argparse.Namespace]:
    """(command, arguments) of the commands but ``trec_eval`` (:mod:`.trec_eval_command` reads its own
    command line); raises :class:`UsageError`."""
    if argv and argv[0] in COMMANDS:
        return argv[0], PARSERS[argv[0]]().parse_args(argv[1:])
    return 'evaluate', PARSERS['evaluate']().parse_args(argv)
