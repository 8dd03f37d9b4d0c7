"""Every ``>>>`` example in the package's docstrings runs, from the repository's root (the examples read
``examples/``), and prints what the docstring says; none is skipped."""
import doctest
import importlib
import pathlib

import pytest
from repo_paths import ROOT

import irmetrics
from irmetrics.api import custom

MODULES = sorted('.'.join(path.relative_to(ROOT).with_suffix('').parts).removesuffix('.__init__')
                 for path in (ROOT / 'irmetrics').rglob('*.py') if '>>> ' in path.read_text(encoding='utf-8'))


def test_the_package_has_examples_and_skips_none():
    assert len(MODULES) >= 12
    for name in MODULES:
        source = pathlib.Path(importlib.import_module(name).__file__).read_text(encoding='utf-8')
        assert '+SKIP' not in source, name


@pytest.mark.parametrize('name', MODULES)
def test_docstring_examples(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    defined = set(custom.custom_measures())
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(importlib.import_module(name), name, globs={'irmetrics': irmetrics})
    try:
        for test in tests:
            runner.run(test)
    finally:
        for measure in set(custom.custom_measures()) - defined:        # a custom measure an example defined
            custom.undefine(measure)
    assert sum(len(test.examples) for test in tests) > 0
    assert runner.failures == 0, f'{runner.failures} of {runner.tries} examples of {name} failed (output above)'
