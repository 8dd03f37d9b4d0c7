"""The hand-computed case of tests/measures (trec_eval's conventions, from the formulas), shared by the
tests of each measure family (tests/measures/test_<family>.py) and of the conventions across them.

The main case, query ``q`` (R = 4 relevant documents: a, c, e, f):

    rank  doc  qrels     rank  doc  qrels
     1    x    -         5    c    1
     2    a    2         6    y    -
     3    b    0         7    e    3
     4    d    -1        (f: 1 and g: 0 are judged but not retrieved)

x and y are unjudged (absent from the qrels), d is judged -1 (pooled but unjudged: never relevant).
"""
import math

import pytest

import irmetrics as irm
from irmetrics import (
    AP,
    RR,
    Bpref,
    IPrec,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetAP,
    SetF,
    SetP,
    SetR,
    Success,
    infAP,
    nDCG,
)

QRELS = {'q': {'a': 2, 'b': 0, 'c': 1, 'd': -1, 'e': 3, 'f': 1, 'g': 0}}
RUN = {'q': {'x': 10.0, 'a': 9.0, 'b': 8.0, 'd': 7.0, 'c': 6.0, 'y': 5.0, 'e': 4.0}}
EPS = 0.00001
log2 = math.log2


def value(measure, qrels=QRELS, run=RUN, query='q'):
    """The value of ``measure`` on ``query`` (the main case by default)."""
    found = [m.value for m in irm.iter_calc([measure], qrels, run) if m.query_id == query]
    assert len(found) == 1
    return found[0]


def approx(x):
    return pytest.approx(x, abs=1e-12)


HAND_COMPUTED = [
    # P@k: relevant in the top k, over k (k even when fewer documents were retrieved)
    (P@1, 0.0), (P@2, 1 / 2), (P@4, 1 / 4), (P@5, 2 / 5), (P@10, 3 / 10), (P@1000, 3 / 1000),
    # R@k: relevant in the top k, over R
    (R@1, 0.0), (R@5, 2 / 4), (R@10, 3 / 4),
    # AP: precision at each relevant rank, over R (unretrieved relevant documents add 0)
    (AP, (1 / 2 + 2 / 5 + 3 / 7) / 4),
    (AP@5, (1 / 2 + 2 / 5) / 4),                     # the cutoff keeps the divisor R, not min(R, k)
    (AP@1, 0.0),
    (RR, 1 / 2), (RR@1, 0.0), (RR@2, 1 / 2), (RR(rel=3), 1 / 7),
    (Rprec, 1 / 4),                                  # top R = 4: x a b d
    (Success@1, 0.0), (Success@2, 1.0), (Success(rel=3)@6, 0.0), (Success(rel=3)@7, 1.0),
    # Bpref: N = 2 judged non-relevant (b, g); a has none above, c and e have b above
    (Bpref, (1 + (1 - 1 / min(4, 2)) + (1 - 1 / min(4, 2))) / 4),
    # infAP: positions j are 0-based in the full ranking, non-pooled x and y are skipped, d is unjudged
    (infAP, (1 / 2                                                        # a at j = 1: nothing above
             + 1 / 5 + (4 / 5) * (3 / 4) * ((1 + EPS) / (1 + 1 + 2 * EPS))  # c at j = 4: a, b, d above
             + 1 / 7 + (6 / 7) * (4 / 6) * ((2 + EPS) / (2 + 1 + 2 * EPS))  # e at j = 6: a, b, d, c above
             ) / 4),
    # nDCG: linear gains, log2(rank + 1) discount; the ideal ranking holds every judged document
    (nDCG, (2 / log2(3) + 1 / log2(6) + 3 / log2(8)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG@5, (2 / log2(3) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG@2, (2 / log2(3)) / (3 + 2 / log2(3))),     # the ideal ranking is cut at k too
    (nDCG(gains={1: 1, 2: 3, 3: 7}), (3 / log2(3) + 1 / log2(6) + 7 / log2(8))
     / (7 + 3 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG(gains={3: 0}), (2 / log2(3) + 1 / log2(6)) / (2 + 1 / log2(3) + 1 / log2(4))),    # unlisted: gain = grade
    (nDCG(gains={0: 1}), (2 / log2(3) + 1 / log2(4) + 1 / log2(6) + 3 / log2(8))
     / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5) + 1 / log2(6) + 1 / log2(7))),
    # set measures: 3 relevant among 7 retrieved, R = 4
    (SetP, 3 / 7), (SetP(relative=True), 3 / min(7, 4)), (SetR, 3 / 4), (SetAP, 3 * 3 / (7 * 4)),
    (SetF, 2 * (3 / 7) * (3 / 4) / (3 / 7 + 3 / 4)),
    (SetF(beta=2), (1 + 2) * (3 / 7) * (3 / 4) / (2 * (3 / 7) + 3 / 4)),            # trec_eval: beta, not beta²
    (SetF(beta=0.5), (1 + 0.5) * (3 / 7) * (3 / 4) / (0.5 * (3 / 7) + 3 / 4)),
    (SetF(beta=0), 3 / 7),
    (NumQ, 1), (NumRel, 4), (NumRet, 7), (NumRet(rel=1), 3), (irm.parse_measure('NumRelRet'), 3),
    # rel=2: relevant are a and e (R = 2); judged non-relevant are b, c, f, g
    (P(rel=2)@5, 1 / 5), (AP(rel=2), (1 / 2 + 2 / 7) / 2), (R(rel=2)@5, 1 / 2), (Rprec(rel=2), 1 / 2),
    (RR(rel=2), 1 / 2), (Bpref(rel=2), (1 + (1 - min(2, 2) / min(2, 4))) / 2), (NumRel(rel=2), 2),
    (NumRet(rel=2), 2), (SetP(rel=2), 2 / 7), (SetR(rel=2), 2 / 2), (IPrec(rel=2)@1, 2 / 7),
    (infAP(rel=2), (1 / 2 + 1 / 7 + (6 / 7) * (4 / 6) * ((1 + EPS) / (1 + 2 + 2 * EPS))) / 2),
    # judged_only: x, y (unjudged) and d (judged -1) are removed: the ranking is a b c e
    (P(judged_only=True)@2, 1 / 2), (P(judged_only=True)@4, 3 / 4), (AP(judged_only=True), (1 + 2 / 3 + 3 / 4) / 4),
    (RR(judged_only=True), 1.0), (Rprec(judged_only=True), 3 / 4), (Success(judged_only=True)@1, 1.0),
    (R(judged_only=True)@3, 2 / 4), (SetP(judged_only=True), 3 / 4), (SetAP(judged_only=True), 9 / (4 * 4)),
    (SetF(judged_only=True), 2 * (3 / 4) * (3 / 4) / (3 / 4 + 3 / 4)),
    (nDCG(judged_only=True), (2 + 1 / log2(4) + 3 / log2(5)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG(judged_only=True)@1, 2 / 3),
    (IPrec(judged_only=True)@0.5, 3 / 4),            # reached at c (rank 3: 2/3), e gives 3/4 at rank 4
]
HAND_MEASURES = list(dict.fromkeys(m for m, _ in HAND_COMPUTED))


def cases_of(*families):
    """The hand-computed (measure, expected value) pairs of the measures of ``families`` (bare measures),
    as pytest parameters named by the measure."""
    definitions = {f.definition for f in families}
    found = [(m, v) for m, v in HAND_COMPUTED if m.definition in definitions]
    assert found, families
    return [pytest.param(m, v, id=repr(m)) for m, v in found]
