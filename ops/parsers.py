"""``JSONParser``: Django REST framework's, refusing with 400 what it would let through.

Python's JSON decoder recurses once per nesting level, so a 2 KB body nested 1,000 deep
raises ``RecursionError`` (a 500 in DRF's parser); and PostgreSQL cannot store a NUL
character in text, so a ``"\\u0000"`` anywhere would fail at save time.  Both are
refused here, for every JSON endpoint at once.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError


def check_json_value(data: Any, *, max_depth: int) -> None:
    """``ParseError`` if ``data`` nests deeper than ``max_depth`` or holds a NUL character
    (in a key or a string).  Iterative: a deep value must not exhaust the stack here either."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise ParseError("JSON strings may not contain the NUL character (\\u0000).")
        elif isinstance(value, dict | list):
            if depth > max_depth:
                raise ParseError(f"JSON nested deeper than {max_depth} levels.")
            if isinstance(value, dict):
                stack.extend((k, depth) for k in value)
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                f"JSON nested deeper than {settings.GOREF_MAX_JSON_DEPTH} levels."
            ) from None
        check_json_value(data, max_depth=int(settings.GOREF_MAX_JSON_DEPTH))
        return data
