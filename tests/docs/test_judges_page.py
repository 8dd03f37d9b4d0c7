"""docs/judges.md: its Python examples run as doctests, in order, from the repository's root (they read
examples/), and print what the page says (its ``$ irmetrics`` lines are run by tests/docs/test_examples.py)."""
import doctest
import re

from repo_paths import ROOT

PAGE = ROOT / 'docs' / 'judges.md'


def test_the_python_examples_of_the_judges_page_print_what_it_says(monkeypatch):
    text = PAGE.read_text(encoding='utf-8')
    blocks = re.findall(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    test = parser.get_doctest('\n'.join(blocks), {}, 'docs/judges.md', str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 12
