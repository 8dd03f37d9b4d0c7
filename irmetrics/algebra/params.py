"""Typed parameter declarations shared by all measure definitions.

A :class:`Param` names a parameter, its type constraint, its default and its
documentation.  Constraints validate eagerly (when a measure is built) and
return the canonical value (``int`` for a cutoff, ``float`` for ``p``, a
sorted tuple of pairs for a gain map), so that equal measures compare equal.

The parameters most measures share (``cutoff``, ``rel``, ``judged_only``) are
declared here once; a measure family only declares what is its own.
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple

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


class Constraint:
    """Validates a raw parameter value and returns its canonical form."""

    description = 'a value'

    def check(self, value: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, name: str, value: Any) -> Any:
        try:
            return self.check(value)
        except (TypeError, ValueError) as ex:
            raise MeasureError(f'invalid value {value!r} for parameter {name!r}: expected {self.description}'
                               + (f' ({ex})' if str(ex) else '')) from None

    def repr_value(self, value: Any) -> str:
        return repr(value)


class Int(Constraint):
    """An integer, optionally bounded (bools and non-integral floats are refused)."""

    def __init__(self, minimum: int | None = None, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum
        bounds = [f'>= {minimum}'] if minimum is not None else []
        bounds += [f'<= {maximum}'] if maximum is not None else []
        self.description = 'an integer' + (' ' + ' and '.join(bounds) if bounds else '')

    def check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError('')
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError('')
        return int(value)


class Float(Constraint):
    """A finite real number in an interval; ints are accepted and stored as floats."""

    def __init__(self, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False):
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open
        parts = []
        if low is not None:
            parts.append(f'{">" if low_open else ">="} {low:g}')
        if high is not None:
            parts.append(f'{"<" if high_open else "<="} {high:g}')
        self.description = 'a number' + (' ' + ' and '.join(parts) if parts else '')

    def check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError('')
        value = float(value)
        if not math.isfinite(value):
            raise ValueError('')
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise ValueError('')
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            raise ValueError('')
        return value


class Bool(Constraint):
    description = 'True or False'

    def check(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise TypeError('')
        return value


class Choice(Constraint):
    """One of a fixed set of strings."""

    def __init__(self, *choices: str):
        self.choices = choices
        self.description = 'one of ' + ', '.join(repr(c) for c in choices)

    def check(self, value: Any) -> Any:
        if value not in self.choices:
            raise ValueError('')
        return value


class GainMap(Constraint):
    """A mapping {grade: gain} of grades >= 0 to gains >= 0; stored as a sorted tuple of pairs."""

    description = 'a mapping {grade: gain} from grades >= 0 to numbers >= 0'

    def check(self, value: Any) -> Any:
        if isinstance(value, tuple):
            value = dict(value)
        if not isinstance(value, dict) or not value:
            raise TypeError('')
        out = []
        for grade, gain in value.items():
            if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
                raise TypeError('')
            if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not math.isfinite(gain) \
                    or gain < 0:
                raise TypeError('')
            out.append((int(grade), int(gain) if float(gain).is_integer() else float(gain)))
        return tuple(sorted(out))                       # {1:1.0} and {1:1} are one measure, written {1:1}

    def repr_value(self, value: Any) -> str:
        return '{' + ','.join(f'{g}:{v!r}' for g, v in value) + '}'


class FloatList(Constraint):
    """A non-empty sequence of numbers in an interval, stored sorted as a tuple of floats (repeats kept)."""

    def __init__(self, low: float, high: float):
        self.item = Float(low, high)
        self.description = f'a non-empty list of numbers >= {low:g} and <= {high:g}, e.g. (0.2,0.5,0.8)'

    def check(self, value: Any) -> Any:
        if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or not value:
            raise TypeError('')
        return tuple(sorted(self.item.check(v) for v in value))

    def repr_value(self, value: Any) -> str:
        return '(' + ','.join(repr(v) for v in value) + (',)' if len(value) == 1 else ')')


class IntOrChoice(Constraint):
    """An integer >= ``minimum``, or one of a few strings."""

    def __init__(self, minimum: int, *choices: str):
        self.number, self.choices = Int(minimum=minimum), choices
        self.description = f'{self.number.description} or ' + ' or '.join(repr(c) for c in choices)

    def check(self, value: Any) -> Any:
        return value if isinstance(value, str) and value in self.choices else self.number.check(value)


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
REL = Param('rel', Int(minimum=1), 1,
            'minimum relevance grade counted as relevant (inclusive)')
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
P_PERSISTENCE = Param('p', Float(0, 1, low_open=True, high_open=True), 0.8,
                      'persistence: probability that the user goes on to the next rank')
