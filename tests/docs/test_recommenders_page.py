"""docs/recommenders.md: its Python blocks run as they are, in order, in one namespace (the training loop on torch
tensors, masking, logging, the integer matrix that reads two ways, the beyond-accuracy measures)."""
import re
import warnings

from repo_paths import ROOT

import irmetrics as irm


def test_the_python_blocks_of_the_recommenders_page_run():
    text = (ROOT / 'docs' / 'recommenders.md').read_text(encoding='utf-8')
    blocks = re.findall(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 5
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        for block in blocks:
            exec(compile(block, 'docs/recommenders.md', 'exec'), namespace)   # noqa: S102
    assert set(namespace['results'].aggregated) == {'nDCG@10', 'R@20', 'P@10', 'RR@10'}
