"""The Python examples of docs/checking.md's section "Do two evaluations rank systems alike" run as
doctests, in a copy of ``examples/`` with the input files the page defines, and print what the page says
(its ``$ irmetrics`` lines are run by tests/docs/test_examples.py)."""
import doctest
import os
import shutil

from repo_paths import EXAMPLES, ROOT

PAGE = ROOT / 'docs' / 'checking.md'
HEADING = '## Do two evaluations rank systems alike'


def section() -> list[str]:
    lines = PAGE.read_text(encoding='utf-8').splitlines()
    start = lines.index(HEADING)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith('## ')), len(lines))
    return lines[start:end]


def blocks(lines: list[str], opening: str) -> list[tuple[str, str]]:
    """(info string, text) of the fenced blocks whose info string starts with ``opening``."""
    out, info, body = [], None, []
    for line in lines:
        if info is None:
            if line.startswith('```' + opening):
                info, body = line[3:], []
        elif line.startswith('```'):
            out.append((info, ''.join(b + '\n' for b in body)))
            info = None
        else:
            body.append(line)
    return out


def test_the_sections_python_examples_print_what_the_page_says(tmp_path):
    lines = section()
    shutil.copytree(EXAMPLES, tmp_path / 'examples')
    for info, text in blocks(lines, 'text file='):
        (tmp_path / info.split('file=')[1].strip()).write_text(text)
    code = ''.join(text for _, text in blocks(lines, 'python'))
    assert code.count('>>>') >= 15
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        test = doctest.DocTestParser().get_doctest(code, {}, 'checking.md', str(PAGE), 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
    finally:
        os.chdir(here)
    assert runner.failures == 0 and runner.tries == code.count('>>>')
