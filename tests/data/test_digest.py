"""The hashes processes compare before joining their values (irmetrics.data.digest): equal for the same judgments,
items and excluded cells whatever form and row order they come in, different when one grade, document, query order
or cell differs."""
import numpy as np
import scipy.sparse as sp

import irmetrics as irm
from irmetrics.data.arrays import Exclusions
from irmetrics.data.digest import digest

JUDGMENTS = {'q1': {'d1': 1, 'd2': 0, 'd3': 2}, 'q2': {'d1': 3}}


def test_the_judgments_hash_ignores_form_and_row_order_and_sees_every_difference():
    same = irm.to_qrels(JUDGMENTS).digest()
    rows = [('q1', 'd3', 2), ('q1', 'd1', 1), ('q1', 'd2', 0), ('q2', 'd1', 3)]
    assert irm.to_qrels(irm.Qrels.from_columns(*map(list, zip(*rows, strict=True)))).digest() == same
    changed = [{'q1': {'d1': 1, 'd2': 0, 'd3': 1}, 'q2': {'d1': 3}},       # a grade
               {'q1': {'d1': 1, 'd2': 0, 'd4': 2}, 'q2': {'d1': 3}},       # a document
               {'q2': {'d1': 3}, 'q1': {'d1': 1, 'd2': 0, 'd3': 2}},       # the order of the queries (the users)
               {'q1': {'d1': 1, 'd2': 0, 'd3': 2}}]                        # a query
    assert len({same, *(irm.to_qrels(j).digest() for j in changed)}) == 5
    matrix = np.array([[1, 0, 2], [0, 3, 0]])
    assert irm.to_qrels(matrix).digest() == irm.to_qrels(sp.csr_matrix(matrix)).digest()


def test_items_and_excluded_cells_hash_their_values():
    assert irm.Items([3, 1, 2], users=5).digest() == irm.Items(np.array([3.0, 1.0, 2.0]), users=5).digest()
    assert len({irm.Items([3, 1, 2], users=5).digest(), irm.Items([3, 1, 2], users=6).digest(),
                irm.Items([3, 1, 3], users=5).digest(), irm.Items(users=5).digest()}) == 4
    cells = np.array([[0, 1, 0], [1, 0, 0]])
    assert Exclusions(cells).digest() == Exclusions(sp.csr_matrix(cells)).digest() != Exclusions(cells.T).digest()
    assert digest(np.arange(3), None) == digest(np.arange(3), None) != digest(np.arange(3, dtype=np.int32), None)
