"""Text as it leaves goref in a file: no control character may forge a line or a cell."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean(text: str) -> str:
    """``text`` with every control character (newline, tab, ...) replaced by a space."""
    return _CONTROL.sub(" ", text)


def decode(data: bytes, fallback: str = "iso8859_15") -> str:
    """A text file's bytes as text: UTF-8 when they are (pairgoth and editors write it; a
    byte-order mark is dropped), else ``fallback``, the code page OpenGotha writes, which
    decodes any bytes."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return data.decode(fallback)
