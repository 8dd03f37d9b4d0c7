"""Every ``$ irmetrics ...`` example in README.md and docs/*.md runs, and prints what the docs say.

The examples run in a temporary directory holding a copy of ``examples/`` and the input files the
document itself defines in fenced blocks whose info string names them (````` ```text file=qrels `````).
An example followed by output lines must print exactly those lines (a ``...`` line stands for any
number of lines; stderr counts as output, for the error and warning examples); an example without
output must exit with status 0.  An example showing a table (first line ``run ...``, ``query ...`` or
``measure ...``) runs with ``-f table``, as a terminal would show it.
"""
import re
import shlex
import shutil

import pytest
from cli_support import irmetrics
from repo_paths import ROOT

DOCS = [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
TABLE_HEADS = ('run ', 'query ', 'measure ')
FILE_BLOCK = re.compile(r'^```\w*\s+file=(\S+)\s*$')


def files_of(lines: list[str]) -> dict[str, str]:
    """The input files a document defines: ```` ```text file=NAME ```` blocks."""
    out, name, body = {}, None, []
    for line in lines:
        if name is None:
            m = FILE_BLOCK.match(line)
            if m:
                name, body = m.group(1), []
        elif line.startswith('```'):
            out[name], name = ''.join(b + '\n' for b in body), None
        else:
            body.append(line)
    return out


def examples():
    out = []
    for path in DOCS:
        lines = path.read_text(encoding='utf-8').splitlines()
        files = files_of(lines)
        for i, line in enumerate(lines):
            if not line.startswith('$ irmetrics'):
                continue
            expected = []
            for following in lines[i + 1:]:
                if not following.strip() or following.startswith(('$ ', '```')):
                    break
                expected.append(following)
            args = shlex.split(line[2:], comments=True)[1:]
            slow = [pytest.mark.slow] if '--dask' in args else []          # starts a cluster
            out.append(pytest.param(args, expected, files, id=f'{path.name}:{i + 1}', marks=slow))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where a '...' line in ``expected`` matches any run of lines."""
    pattern = ''.join('(?:.*\n)*?' if e.strip() == '...' else re.escape(e) + '\n' for e in expected)
    return re.fullmatch(pattern, ''.join(a + '\n' for a in actual)) is not None


EXAMPLES = examples()


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 15
    assert sum(1 for p in EXAMPLES if p.values[2]) >= 3         # some define their own input files


@pytest.mark.parametrize('args, expected, files', EXAMPLES)
def test_example_output(tmp_path, args, expected, files):
    shutil.copytree(ROOT / 'examples', tmp_path / 'examples')
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    if expected and expected[0].startswith(TABLE_HEADS) and not {'-f', '--format', '--trec-eval'} & set(args) \
            and args[0] != 'gate':                                       # the gate prints its own table only
        args = [*args, '-f', 'table']
    proc = irmetrics(*args, cwd=tmp_path, env={'COLUMNS': '200'})
    actual = (proc.stdout + proc.stderr).splitlines()
    if expected:
        assert matches(expected, actual), '\n'.join(['expected:', *expected, 'got:', *actual])
    else:
        assert proc.returncode == 0, '\n'.join(actual)
