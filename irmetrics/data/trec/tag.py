"""The run tag trec_eval reports as ``runid``: the tag field of the last line of the run file."""
from __future__ import annotations

import re
from collections.abc import Iterator

from .format import Data, FileData

_FIELD = re.compile(rb'[^ \t\v\f\r]+')          # a field: a run of bytes that are not separators
_BLOCK = 1 << 16


def last_tag(data: Data) -> str | None:
    """The 6th field of the last line that is neither blank nor a comment (None when there is none).

    A large file is read from its end, a block at a time, not whole.
    """
    for line in _lines_from_end(data):
        fields = _FIELD.findall(line)
        if fields and not fields[0].startswith(b'#'):
            return fields[5].decode('utf-8', 'surrogateescape') if len(fields) > 5 else None
    return None


def _lines_from_end(data: Data) -> Iterator[bytes]:
    if not isinstance(data, FileData):
        yield from reversed(data.split(b'\n'))
        return
    with open(data.path, 'rb') as f:
        end, rest = data.size, b''
        while end > 0:
            start = max(0, end - _BLOCK)
            f.seek(start)
            lines = (f.read(end - start) + rest).split(b'\n')
            rest = lines[0]                         # may continue in the block before
            yield from reversed(lines[1:])
            end = start
        yield rest
