"""TREC text arriving in pieces (a decompressing stream, a file read in chunks), checked as it arrives.

What cannot be a TREC file is refused as soon as it is seen, before it is held: a NUL byte (the
message of :func:`.format.canonical`), a line longer than :data:`MAX_LINE` bytes, or more than
:data:`MAX_BLANK_RUN` bytes of nothing but white space in a row (a flood of blank lines).  So a
compressed file that decompresses to gigabytes of one line, of newlines or of zeros costs what its
first piece costs, and a file read in chunks never holds more than one line beyond its chunk.  Each
check is a scan of the piece in C (``bytes.find``, ``bytes.count``, one regular expression search
that stops at the first printable byte), linear in the bytes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from ...errors import InputError

#: The longest line irmetrics reads (64 MiB).  trec_eval has no limit, but no ranking or judgment line
#: comes near one: the differential tests read document ids of 1 MB.
MAX_LINE = 1 << 26
#: Bytes of white space only, in a row, that end the reading (16 MiB: millions of blank lines).
MAX_BLANK_RUN = 1 << 24
_PRINTABLE = re.compile(rb'\S')


class TextGuard:
    """The checks of the module docstring over the pieces of one file, in order (:meth:`check`)."""

    def __init__(self, name: str):
        self.name = name
        self.lines = 0              # newlines before the current piece
        self.line_length = 0        # bytes of the current line seen so far (before the current piece)
        self.blank_run = 0          # bytes of white space only, in a row, ending the pieces seen
        self.blank_from = 1         # the line where that white space starts

    def check(self, piece: bytes) -> None:
        """Refuse ``piece`` (the next bytes of the file) if it shows the file cannot be TREC text."""
        nul = piece.find(b'\0')
        if nul >= 0:
            raise InputError('a NUL byte: TREC files are text (is this a binary file?), and trec_eval would '
                             'end the field there', self.name, self.lines + piece.count(b'\n', 0, nul) + 1)
        first, last = piece.find(b'\n'), piece.rfind(b'\n')
        if self.line_length + (len(piece) if first < 0 else first) > MAX_LINE:
            raise InputError(f'line longer than {MAX_LINE:,} bytes: no TREC line is (is this a TREC file?)',
                             self.name, self.lines + 1)
        if _PRINTABLE.search(piece) is None:
            if self.blank_run == 0:
                self.blank_from = self.lines + 1
            self.blank_run += len(piece)
            if self.blank_run > MAX_BLANK_RUN:
                raise InputError(f'more than {MAX_BLANK_RUN:,} bytes of blank lines in a row, from line '
                                 f'{self.blank_from}: not TREC text', self.name)
        else:
            self.blank_run = 0
        if first < 0:
            self.line_length += len(piece)
        else:
            self.lines += piece.count(b'\n')
            self.line_length = len(piece) - last - 1


def longest_line(pieces: Iterable[bytes], name: str) -> int:
    """The length in bytes of the longest line of the text arriving in ``pieces`` (its newline not
    counted), each piece checked as it arrives (:class:`TextGuard`): a line longer than :data:`MAX_LINE`
    is refused once that many bytes of it are seen, so memory holds one piece, whatever the file."""
    guard = TextGuard(name)
    longest = 0
    for piece in pieces:
        carried = guard.line_length             # the bytes of the line the piece continues
        guard.check(piece)
        newlines = np.flatnonzero(np.frombuffer(piece, dtype=np.uint8) == 10)
        if len(newlines):
            inner = int(np.diff(newlines).max()) - 1 if len(newlines) > 1 else 0
            longest = max(longest, carried + int(newlines[0]), inner)
    return max(longest, guard.line_length)
