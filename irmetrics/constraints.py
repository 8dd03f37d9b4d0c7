"""Constraint objects: one declaration validates a value wherever it comes from.

A constraint checks a raw value eagerly and returns its canonical form (``int`` for a cutoff, a sorted
tuple of pairs for a gain map), so that equal inputs compare equal.  Measure parameters
(:mod:`irmetrics.algebra.params`) and the options of the API and the command line (:class:`Option`:
``duplicates``, ``test``, ``correction``, ...) are declared with the same objects, so every invalid
value gets the same kind of message: what was given, for which parameter or option, what is expected.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, NamedTuple

from .errors import IrmetricsError, MeasureError, OptionError

#: The largest magnitude of an integer parameter or option: what numpy's int64 holds (and trec_eval's C long,
#: whose atol stops a larger cutoff there).  An :class:`Int` without a bound of its own on a side is bounded
#: by it there, so that no cutoff, count or grade overflows an array's integers.
MAX_INTEGER = 2 ** 63 - 1


class Constraint:
    """Validates a raw parameter value and returns its canonical form."""

    description = 'a value'

    def check(self, value: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, name: str, value: Any, what: str = 'parameter',
                 error: type[IrmetricsError] = MeasureError) -> Any:
        """``value`` checked and made canonical, or ``error`` naming ``what`` (a measure's parameter, an
        option) ``name``, the value and what was expected."""
        try:
            return self.check(value)
        except (TypeError, ValueError) as ex:
            raise error(f'invalid value {shown(value)} for {what} {name!r}: expected {self.description}'
                        + (f' ({ex})' if str(ex) else '')) from None

    def repr_value(self, value: Any) -> str:
        return repr(value)


def shown(value: Any) -> str:
    """``repr(value)``, but an integer of more than 40 digits by its size (Python writes at most 4,300 digits,
    and a message needs none of them)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 132:
        return f'{"-" if value < 0 else ""}<an integer of {value.bit_length()} bits>'
    return repr(value)


class Int(Constraint):
    """An integer (numpy's too), optionally bounded (bools and non-integral floats are refused)."""

    def __init__(self, minimum: int | None = None, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum
        bounds = [f'>= {minimum}'] if minimum is not None else []
        bounds += [f'<= {maximum}'] if maximum is not None else []
        self.description = 'an integer' + (' ' + ' and '.join(bounds) if bounds else '')

    def check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError('')
        value = int(value)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError('')
        if (self.maximum is None and value > MAX_INTEGER) or (self.minimum is None and value < -MAX_INTEGER):
            raise ValueError(f'{"at most 2**63 - 1" if value > 0 else "at least -(2**63 - 1)"}: what numpy\'s int64 '
                             f'holds')
        return value


class Float(Constraint):
    """A finite real number in an interval (numpy's too); ints are accepted and stored as floats."""

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
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError('')
        value = float(value)
        if not math.isfinite(value):
            raise ValueError('')
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise ValueError('')
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            raise ValueError('')
        return value


class Level(Constraint):
    """A grade threshold (``rel``): an integer, or a finite real number, for real-valued grades (0.5, 2.7); a
    whole real number is its integer (``2.0`` is ``2``), so that equal thresholds are one measure."""

    def __init__(self, minimum: int | None = None):
        self.whole, self.real = Int(minimum=minimum), Float(minimum)
        self.description = 'a number' + (f' >= {minimum}' if minimum is not None else '')

    def check(self, value: Any) -> Any:
        if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
            real = self.real.check(value)
            return self.whole.check(int(real)) if real.is_integer() else real
        return self.whole.check(value)


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


#: The greatest gain a gain map takes (2^960, 9.7e288): a sum of 2^40 discounted gains (as many
#: documents as a run can hold) stays finite in a double, so no value is an overflow.
MAX_GAIN = 2.0 ** 960


class GainMap(Constraint):
    """A mapping {grade: gain} of grades >= 0 to gains from 0 to :data:`MAX_GAIN`; stored as a sorted tuple
    of pairs (a gain that is a whole number below 2^53 as an int)."""

    description = 'a mapping {grade: gain} from grades >= 0 to numbers >= 0 and <= 2**960 (9.7e288)'

    def check(self, value: Any) -> Any:
        if isinstance(value, tuple):
            value = dict(value)
        if not isinstance(value, dict) or not value:
            raise TypeError('')
        out = []
        for grade, gain in value.items():
            if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
                raise TypeError('')
            if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not 0 <= gain <= MAX_GAIN:
                raise TypeError('')
            out.append((int(grade), int(gain) if float(gain).is_integer() and gain < 2 ** 53 else float(gain)))
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


class Option(NamedTuple):
    """A keyword option of the API or the command line: its name and its constraint; an invalid value is an
    :class:`~irmetrics.errors.OptionError` naming the option, whatever room the option belongs to."""

    name: str
    constraint: Constraint

    def check(self, value: Any) -> Any:
        """``value`` checked and made canonical (raises :class:`~irmetrics.errors.OptionError`)."""
        return self.constraint(self.name, value, 'option', OptionError)

    @property
    def choices(self) -> tuple[str, ...]:
        """The accepted values of a :class:`Choice` option (for the command line's ``choices``)."""
        assert isinstance(self.constraint, Choice)
        return self.constraint.choices
