"""docs/fusion.md: its Python blocks run as they are, in order, in one namespace, from the repository's root
(they read examples/)."""
from page_blocks import python_blocks, run_python_blocks
from repo_paths import ROOT

import irmetrics as irm


def test_the_python_blocks_of_the_fusion_page_run(monkeypatch):
    assert len(python_blocks('fusion.md')) >= 4
    monkeypatch.chdir(ROOT)
    namespace = run_python_blocks('fusion.md')
    assert namespace['tuning'].score == irm.calc_aggregate(['nDCG@10'], namespace['qrels'],
                                                           namespace['tuning'].run)['nDCG@10']
    assert 'wsum (cv)' in namespace['comparison'].render('markdown')
