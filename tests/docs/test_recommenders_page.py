"""docs/recommenders.md: its Python blocks run as they are, in order, in one namespace (the training loop on torch
tensors, masking, logging, the integer matrix that reads two ways, the beyond-accuracy measures)."""
from page_blocks import python_blocks, run_python_blocks


def test_the_python_blocks_of_the_recommenders_page_run():
    assert len(python_blocks('recommenders.md')) >= 5
    namespace = run_python_blocks('recommenders.md')
    assert set(namespace['results'].aggregated) == {'nDCG@10', 'R@20', 'P@10', 'RR@10'}
