"""Players' names as imports and searches compare them (docs/tournaments.md, "One person
across events"): case, accents, punctuation, spacing and the order of the names ignored.
Pure: the standard library only."""

from __future__ import annotations

import unicodedata

# Letters that NFKD does not take apart into a base letter and an accent (the same
# table is in static/games/round_where.js, which filters as a phone user types; a
# change here changes stored name keys: Player.name_key would need recomputing).
_LETTERS = str.maketrans({"ß": "ss", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "œ": "oe", "ı": "i"})


def folded(text: str) -> str:
    """A text without case or accents ("Müller" = "muller")."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold().translate(_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_key(family_name: str, given_name: str) -> str:
    """The words of both names, folded and sorted: "Jean-Pierre DUPONT", "Dupont Jean Pierre"
    and "dupont, jean pierre" share one key."""
    text = folded(f"{family_name} {given_name}")
    words = "".join(c if c.isalnum() else " " for c in text).split()
    return " ".join(sorted(words))[:170]


# Scripts whose names are written family name first with no space between the parts:
# Han (Chinese, Japanese kanji), kana and Hangul.
_CLOSED_SCRIPTS = ("CJK UNIFIED IDEOGRAPH", "HIRAGANA", "KATAKANA", "HANGUL")


def _closed(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(
        unicodedata.name(c, "").startswith(_CLOSED_SCRIPTS) for c in letters
    )


def display_name(family_name: str, given_name: str) -> str:
    """A player's name as his own script writes it: family name first (the Go world's
    order, the EGD's as well), joined with no space when both parts are in Chinese,
    Japanese or Korean script (李昌镐, 井山裕太, 이창호), else with one."""
    family, given = family_name.strip(), given_name.strip()
    if _closed(family) and _closed(given):
        return family + given
    return f"{family} {given}".strip()
