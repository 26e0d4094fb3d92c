"""Go's own words in the reader's language (docs/i18n.md, "Go terms"): ``rank`` writes a
rank as the locale's players write it (3d, 3段, 3단, 3段; 5k, 5級, 5급, 5级), and
``result_words`` a game's result as a sentence ("Black wins by resignation",
"黒の中押し勝ち").  Loaded as ``{% load go_words %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine.result import Reason, Result, ResultError
from games.engine.types import Color
from ratings.ranks import Rank, RankError

register = template.Library()


def _as_rank(value: Any) -> Rank | None:
    if isinstance(value, Rank):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Rank(value)
    try:
        return Rank.parse(str(value))
    except RankError:
        return None


@register.filter
def rank(value: Any) -> str:
    """A rank (a ``Rank``, a ladder index or its text) in the locale's notation; text that
    is no rank comes back as it is."""
    r = _as_rank(value)
    if r is None:
        return "" if value is None else str(value)
    if r.is_honorary:
        return pgettext("rank", "9p+")
    if r.is_kyu:
        return pgettext("rank", "{n}k").format(n=-r.index)
    return pgettext("rank", "{n}d").format(n=r.index + 1)


def _result(value: Any) -> Result | None:
    if isinstance(value, Result):
        return value
    try:
        return Result.parse(str(value))
    except ResultError:
        return None


@register.filter
def result_words(value: Any) -> str:
    """A result (a ``Result`` or its SGF text, such as ``B+R`` or ``W+3.5``) in words;
    empty for none, the text itself when it is no result."""
    if value in (None, ""):
        return ""
    if value == "both win":  # OpenGotha's both-win, shown as its name (Game.result_display)
        return _("both win")
    result = _result(value)
    if result is None:
        return str(value)
    if result.reason is Reason.DRAW:
        return _("jigo (draw)")
    if result.reason is Reason.VOID:
        return _("void: no result")
    if result.reason is Reason.UNKNOWN or result.winner is None:
        return _("result unknown")
    black = result.winner is Color.BLACK
    if result.reason is Reason.SCORE and result.margin is not None:
        points = number_format(result.margin, decimal_pos=1 if result.margin % 1 else 0)
        if black:
            return _("Black wins by {points} points").format(points=points)
        return _("White wins by {points} points").format(points=points)
    words = {
        (True, Reason.RESIGNATION): _("Black wins by resignation"),
        (False, Reason.RESIGNATION): _("White wins by resignation"),
        (True, Reason.TIME): _("Black wins on time"),
        (False, Reason.TIME): _("White wins on time"),
        (True, Reason.FORFEIT): _("Black wins by forfeit"),
        (False, Reason.FORFEIT): _("White wins by forfeit"),
    }
    return words.get((black, result.reason)) or (_("Black wins") if black else _("White wins"))


@register.filter
def rules_name(code: str) -> str:
    """A rules preset's name (``games.engine.rules.PRESETS``) in the reader's language."""
    names = {
        "chinese": _("Chinese"),
        "japanese": _("Japanese"),
        "nz": _("New Zealand"),
        "aga": _("AGA"),
        "wmsg": _("WMSG"),
        "wga": _("WGA"),
        "first-capture": _("first capture"),
        "tromp-taylor": _("Tromp-Taylor"),
    }
    return names.get(code, code)


@register.filter
def colour(value: str) -> str:
    """Black or White (``Black``, ``White``, ``B``, ``W``) in the reader's language."""
    if value in ("Black", "B", "black"):
        return _("Black")
    if value in ("White", "W", "white"):
        return _("White")
    return value


@register.filter
def outcome(value: str) -> str:
    """A game's outcome from one player's side (``games.selectors.outcome_for``) in words."""
    words = {
        "win": _("win"),
        "loss": _("loss"),
        "win by forfeit": _("win by forfeit"),
        "loss by forfeit": _("loss by forfeit"),
        "jigo": _("jigo"),
        "void": _("void"),
        "both_win": _("both win"),
        "disputed": _("disputed"),
        "not confirmed yet": _("not confirmed yet"),
    }
    return words.get(value, value)
