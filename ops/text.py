"""``check_visible_text``: names are visible text only.

A newline in a name forges a line in a fixed-column export, and a bidi override
(U+202E) shows a name reversed; neither has a place in a person's, club's or
tournament's name.  Refused with a ``ValidationError`` naming the field.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

# Controls (NUL, tab, newline), format characters (bidi overrides and isolates,
# zero-width joiners), line and paragraph separators.  ratings.exports replaces the
# same set on output.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def invisible_characters(value: str) -> list[str]:
    """The invisible characters in ``value``, as ``U+XXXX`` codes (each once, in order)."""
    seen: dict[str, None] = {}
    for ch in value:
        if unicodedata.category(ch) in INVISIBLE_CATEGORIES:
            seen[f"U+{ord(ch):04X}"] = None
    return list(seen)


def check_visible_text(**fields: object) -> None:
    """``ValidationError`` naming each field whose text holds an invisible character."""
    errors = {}
    for name, value in fields.items():
        if isinstance(value, str):
            bad = invisible_characters(value)
            if bad:
                errors[name] = (
                    "Only visible characters: no line breaks, tabs or direction controls "
                    f"({', '.join(bad[:5])})."
                )
    if errors:
        raise ValidationError(errors)


def small_number(text: str | None, digits: int = 18) -> int | None:
    """``text`` as a non-negative whole number of at most ``digits`` ASCII digits, else
    None: for ids and page numbers typed into a URL or a form.  ``str.isdigit`` alone
    lets through "²" (which ``int`` refuses) and 5,000 digits (over ``int``'s 4,300-digit
    limit, and no database id): both were 500s."""
    if not text or len(text) > digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
