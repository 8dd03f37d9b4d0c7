"""matplotlib figures inside the other formats (each result's room draws its own figures)."""
from __future__ import annotations

import io
from typing import Any


def figure_svg(fig: Any) -> str:
    """The figure as an inline ``<svg>`` element (no XML prologue), for an HTML page."""
    buffer = io.StringIO()
    fig.savefig(buffer, format='svg')
    text = buffer.getvalue()
    return text[text.index('<svg'):]
