"""Generate the measure reference (docs/measures.md) from the measure definitions.

    python -m irmetrics.docs            # write docs/measures.md (run from the repository root)
    python -m irmetrics.docs --check    # exit 1 if docs/measures.md is out of date
    python -m irmetrics.docs -          # print to stdout

The text comes from :func:`irmetrics.cli.catalog.measures_markdown`, which reads every registered
definition, alias, trec_eval name and provider pattern.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_PATH = Path('docs') / 'measures.md'
REGENERATE = 'python -m irmetrics.docs'


def render() -> str:
    import irmetrics  # noqa: F401  (registers every measure and provider)

    from .cli.catalog import measures_markdown
    return measures_markdown()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m irmetrics.docs', description=__doc__.splitlines()[0])
    parser.add_argument('path', nargs='?', default=str(DEFAULT_PATH),
                        help=f'where to write (default: {DEFAULT_PATH}; - for stdout)')
    parser.add_argument('--check', action='store_true', help='only check that the file is up to date')
    args = parser.parse_args(argv)
    text = render()
    if args.path == '-':
        sys.stdout.write(text)
        return 0
    path = Path(args.path)
    if args.check:
        current = path.read_text(encoding='utf-8') if path.exists() else ''
        if current != text:
            sys.stderr.write(f'{path} is out of date with the measure definitions; regenerate it with: '
                             f'{REGENERATE}\n')
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
