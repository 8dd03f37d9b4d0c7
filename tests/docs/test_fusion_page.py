"""docs/fusion.md: its Python blocks run as they are, in order, in one namespace, from the repository's root
(they read examples/)."""
import re
import warnings

from repo_paths import ROOT

import irmetrics as irm


def test_the_python_blocks_of_the_fusion_page_run(monkeypatch):
    text = (ROOT / 'docs' / 'fusion.md').read_text(encoding='utf-8')
    blocks = re.findall(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        for block in blocks:
            exec(compile(block, 'docs/fusion.md', 'exec'), namespace)   # noqa: S102
    assert namespace['tuning'].score == irm.calc_aggregate(['nDCG@10'], namespace['qrels'],
                                                           namespace['tuning'].run)['nDCG@10']
    assert 'wsum (cv)' in namespace['comparison'].render('markdown')
