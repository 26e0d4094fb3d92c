"""Text as it leaves goref in a file: no control character may forge a line or a cell."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean(text: str) -> str:
    """``text`` with every control character (newline, tab, ...) replaced by a space."""
    return _CONTROL.sub(" ", text)
