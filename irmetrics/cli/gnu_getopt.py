"""Command-line options read as GNU ``getopt_long`` reads them (what trec_eval uses).

Short options cluster (``-qc``) and take their value attached or as the next word (``-l2``, ``-l 2``);
long options take it after ``=`` or as the next word (``--measure=map``, ``--measure map``) and may be
shortened to any unambiguous prefix (``--query``); options and operands may come in any order (the
operands are permuted to the end); ``--`` ends the options, and ``-`` alone is an operand.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """One option: its letter, its long name, and whether each form takes a value."""

    letter: str
    long: str
    value: bool
    long_value: bool | None = None     # the long form differs (trec_eval's --Output_old_results_format)

    @property
    def long_takes_value(self) -> bool:
        return self.value if self.long_value is None else self.long_value


class GetoptError(Exception):
    """A command line that does not parse, with getopt's reason."""


def parse(argv: Sequence[str], options: Sequence[Option]) -> tuple[list[tuple[Option, str | None]], list[str]]:
    """(the options given, in order, each with its value or None; the operands)."""
    by_letter = {o.letter: o for o in options}
    found: list[tuple[Option, str | None]] = []
    operands: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == '--':
            operands += words[i:]
            break
        if word.startswith('--'):
            name, eq, value = word[2:].partition('=')
            option = _long(name, options)
            if not option.long_takes_value:
                if eq:
                    raise GetoptError(f"option '--{option.long}' doesn't allow an argument")
                found.append((option, None))
                continue
            if not eq:
                if i == len(words):
                    raise GetoptError(f"option '--{option.long}' requires an argument")
                value, i = words[i], i + 1
            found.append((option, value))
        elif word.startswith('-') and word != '-':
            letters = word[1:]
            while letters:
                letter, letters = letters[0], letters[1:]
                if letter not in by_letter:
                    raise GetoptError(f"invalid option -- '{letter}'")
                option = by_letter[letter]
                if not option.value:
                    found.append((option, None))
                    continue
                if not letters:
                    if i == len(words):
                        raise GetoptError(f"option requires an argument -- '{letter}'")
                    letters, i = words[i], i + 1
                found.append((option, letters))
                break
        else:
            operands.append(word)
    return found, operands


def _long(name: str, options: Sequence[Option]) -> Option:
    """The option a long name (or an unambiguous prefix of one) names."""
    exact = [o for o in options if o.long == name]
    if exact:
        return exact[0]
    prefixed = [o for o in options if o.long.startswith(name)] if name else []
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        choices = ' '.join(f"'--{o.long}'" for o in prefixed)
        raise GetoptError(f"option '--{name}' is ambiguous; possibilities: {choices}")
    raise GetoptError(f"unrecognized option '--{name}'")
