"""docs/rag.md: its Python blocks run as they are, in order, in one namespace, from the repository's root."""
from page_blocks import python_blocks, run_python_blocks
from repo_paths import ROOT


def test_the_python_blocks_of_the_rag_page_run(monkeypatch):
    assert len(python_blocks('rag.md')) == 4
    monkeypatch.chdir(ROOT)
    namespace = run_python_blocks('rag.md')
    assert namespace['comparison'].runs == ('bm25_llm', 'dense_llm')
    assert '| t3 |' in namespace['support']['bm25_llm'].render('markdown', by_query=True)
    assert 'means over 3 topics' in namespace['comparison'].render('markdown')
    assert namespace['found'].judgments.names == ('manual', 'automatic')
