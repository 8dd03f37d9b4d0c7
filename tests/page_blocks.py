"""The Python blocks of a page of docs/, run as they are, in order, in one namespace (irmetrics' warnings
ignored: a page shows what a user runs, the tests of the rooms check the warnings)."""
import re
import warnings

from repo_paths import ROOT

import irmetrics as irm


def python_blocks(page: str) -> list[str]:
    """The ```python blocks of ``docs/<page>``, in order."""
    text = (ROOT / 'docs' / page).read_text(encoding='utf-8')
    return re.findall(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)


def run_python_blocks(page: str) -> dict:
    """The namespace the blocks of ``docs/<page>`` leave, run in the current directory."""
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        for block in python_blocks(page):
            exec(compile(block, f'docs/{page}', 'exec'), namespace)   # noqa: S102
    return namespace
