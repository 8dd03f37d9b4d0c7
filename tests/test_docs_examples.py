"""The command-line examples in README.md and docs/*.md print what the docs say they print.

Every ``$ irmetrics ...`` line followed by output in a fenced block is run from the repository root
(only when the files it names exist there, i.e. the ``examples/`` ones) and its output compared
with the block's lines; a ``...`` line stands for any number of lines.  An example showing a table
(first line ``run ...``, ``query ...`` or ``measure ...``) is run with ``-f table``, as a terminal
would show it; stderr counts as output, for the error examples.
"""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
TABLE_HEADS = ('run ', 'query ', 'measure ')


def examples():
    out = []
    for path in DOCS:
        if not path.exists():
            continue
        lines = path.read_text(encoding='utf-8').splitlines()
        for i, line in enumerate(lines):
            if not line.startswith('$ irmetrics'):
                continue
            expected = []
            for following in lines[i + 1:]:
                if not following.strip() or following.startswith(('$ ', '```')):
                    break
                expected.append(following)
            args = shlex.split(line[2:], comments=True)[1:]
            files = [a for a in args if '/' in a and not a.startswith('-')]
            if expected and files and all((ROOT / f).exists() for f in files):
                out.append(pytest.param(args, expected, id=f'{path.name}:{i + 1}'))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where a '...' line in ``expected`` matches any run of lines."""
    pattern = ''.join('(?:.*\n)*?' if e.strip() == '...' else re.escape(e) + '\n' for e in expected)
    return re.fullmatch(pattern, ''.join(a + '\n' for a in actual)) is not None


EXAMPLES = examples()


def test_the_docs_have_runnable_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize('args, expected', EXAMPLES)
def test_example_output(args, expected):
    if expected[0].startswith(TABLE_HEADS) and not {'-f', '--format', '--trec-eval'} & set(args):
        args = [*args, '-f', 'table']
    proc = subprocess.run([sys.executable, '-m', 'irmetrics', *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, COLUMNS='200'))
    actual = (proc.stdout + proc.stderr).splitlines()
    assert matches(expected, actual), '\n'.join(['expected:', *expected, 'got:', *actual])
