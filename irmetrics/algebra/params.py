"""Typed parameter declarations shared by all measure definitions.

A :class:`Param` names a parameter, its type constraint, its default and its
documentation.  Constraints validate eagerly (when a measure is built) and
return the canonical value (``int`` for a cutoff, ``float`` for ``p``, a
sorted tuple of pairs for a gain map), so that equal measures compare equal.

The parameters most measures share (``cutoff``, ``rel``, ``judged_only``) are
declared here once; a measure family only declares what is its own.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..constraints import Bool, Choice, Constraint, Float, GainMap, Int, Level
from ..errors import MeasureError


class _Sentinel:
    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name


#: The parameter is optional and has no value (e.g. ``nDCG`` without a cutoff).
NOT_PROVIDED: Any = _Sentinel('NOT_PROVIDED')
#: The parameter must be given before the measure can be computed.
REQUIRED: Any = _Sentinel('REQUIRED')


def integer_literal(text: str) -> int:
    """The integer a decimal literal in a measure name writes (``'10'`` in ``P@10``, ``P_10``, ``ndcg@10``).

    Python converts at most 4,300 digits to an integer and raises ValueError beyond; that is a
    :class:`MeasureError` here, as every other unreadable measure name.
    """
    try:
        return int(text)
    except ValueError:
        raise MeasureError(f'the number {text[:12]}... has too many digits ({len(text)})') from None


class Param(NamedTuple):
    """Declaration of one measure parameter.

    ``default`` is the value used when the parameter is not given: a concrete
    value, :data:`NOT_PROVIDED` (optional, no value) or :data:`REQUIRED`.
    """

    name: str
    constraint: Constraint
    default: Any
    doc: str

    def validate(self, value: Any) -> Any:
        return self.constraint(self.name, value)

    def with_default(self, default: Any, doc: str | None = None) -> Param:
        """The same parameter with another default (e.g. a cutoff that is required)."""
        return Param(self.name, self.constraint, default, doc or self.doc)

    def with_doc(self, doc: str) -> Param:
        return Param(self.name, self.constraint, self.default, doc)


# --- parameters shared by many measures --------------------------------------------------
CUTOFF = Param('cutoff', Int(minimum=1), NOT_PROVIDED,
               'rank cutoff k: only the top k documents of the ranking are considered')
CUTOFF_REQUIRED = CUTOFF.with_default(REQUIRED)
REL = Param('rel', Level(minimum=0), 1,
            'minimum relevance grade counted as relevant (inclusive); 0 counts every document judged 0 or '
            'more (trec_eval -l 0); a real number (1.5) compares real-valued grades')
JUDGED_ONLY = Param('judged_only', Bool(), False,
                    'remove unjudged documents (absent from the qrels, or judged with a negative grade) '
                    'from the ranking before computing (trec_eval -J)')
GAINS = Param('gains', GainMap(), NOT_PROVIDED,
              'custom gain per relevance grade, e.g. {1:1,2:3,3:7}; grades not listed keep their value as '
              'gain, negative grades gain 0')
#: How per-query values aggregate, for the measures where trec_eval offers a geometric mean too.
AGGREGATION = Param('agg', Choice('mean', 'gmean'), 'mean',
                    "'mean': the arithmetic mean over queries; 'gmean': the geometric mean, each value floored "
                    'at 1e-5 (GEOMETRIC_MEAN_FLOOR) first, as trec_eval\'s gm_map and gm_bpref')
#: The floor trec_eval puts under each value before a geometric mean (its MIN_GEO_MEAN).
GEOMETRIC_MEAN_FLOOR = 1e-5
#: How documents with equal scores are ordered: every measure takes it (:class:`~.measure.MeasureDef` adds it).
TIES = Param('ties', Choice('trec_eval', 'expected'), 'trec_eval',
             "'trec_eval': tied documents in trec_eval's order (document id descending); 'expected': the exact "
             'expected value over every order of the tied documents, equally likely (McSherry and Najork, ECIR '
             "2008), where the measure's family has one (docs/checking.md)")
P_PERSISTENCE = Param('p', Float(0, 1, low_open=True, high_open=True), 0.8,
                      'persistence: probability that the user goes on to the next rank')
