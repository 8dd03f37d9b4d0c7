"""docs/rag.md: its Python blocks run as they are, in order, in one namespace, from the repository's root."""
import re
import warnings

from repo_paths import ROOT

import irmetrics as irm


def test_the_python_blocks_of_the_rag_page_run(monkeypatch):
    text = (ROOT / 'docs' / 'rag.md').read_text(encoding='utf-8')
    blocks = re.findall(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 4
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        for block in blocks:
            exec(compile(block, 'docs/rag.md', 'exec'), namespace)   # noqa: S102
    assert namespace['comparison'].runs == ('bm25_llm', 'dense_llm')
    assert '| t3 |' in namespace['support']['bm25_llm'].render('markdown', by_query=True)
    assert 'means over 3 topics' in namespace['comparison'].render('markdown')
    assert namespace['found'].judgments.names == ('manual', 'automatic')
