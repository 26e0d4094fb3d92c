"""The sentences games' pages show after a write: services return values, and the pages
put them in words here (translatable)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.result import Reason, Result, ResultError


def entered_from_list(*, player: object, source: str, linked: bool, review: int) -> str:
    """A player entered from a rating list (``entry_add_from_list``'s answer)."""
    how = _("linked to his goref record") if linked else _("added to goref")
    queued = _(", {count} pair(s) queued for review").format(count=review) if review else ""
    return _("{player} entered from the {source} list ({how}{queued}).").format(
        player=player, source=source.upper(), how=how, queued=queued
    )


def held_games(held: list[tuple[Any, str]]) -> str:
    """The games a bulk finalise left (``Finalised.held``), each with why."""
    why = {
        "disputed": _("under an open dispute: the referee rules first"),
        "marking": _("its players are still marking dead stones"),
    }
    lines = [
        _("{where} ({black} v {white}): {why}").format(
            where=_("table {table}").format(table=g.table)
            if g.table
            else _("game {pk}").format(pk=g.pk),
            black=g.black,
            white=g.white,
            why=why.get(reason, reason),
        )
        for g, reason in held
    ]
    return _("Left as they are: {games}.").format(games="; ".join(lines))


def finalised(*, count: int, where: str, held: list[tuple[Any, str]]) -> str:
    """A bulk finalise's answer (``games_finalise``): how many are final, and which it left."""
    done = _("{count} result(s) of {where} are final.").format(count=count, where=where)
    return f"{done} {held_games(held)}" if held else done


def result_words(text: str) -> str:
    """An RE string in words, as the result buttons say it ("B+R": "Black wins by
    resignation", "W+6.5": "White wins by 6.5 points"); "" for none; as given if unread."""
    if not text:
        return ""
    if text == "both win":
        return _("Both players win")
    try:
        result = Result.parse(text)
    except ResultError:
        return text
    if result.reason is Reason.DRAW:
        return _("Draw (jigo)")
    if result.reason is Reason.VOID:
        return _("Void: no result")
    if result.reason is Reason.UNKNOWN or result.winner is None:
        return _("Result unknown")
    who = _("Black") if result.winner.letter == "B" else _("White")
    how = {
        Reason.RESIGNATION: _("{who} wins by resignation"),
        Reason.TIME: _("{who} wins on time"),
        Reason.FORFEIT: _("{who} wins by forfeit"),
    }.get(result.reason)
    if how is None:
        how = (
            _("{who} wins by {margin} points").replace("{margin}", f"{result.margin:f}")
            if result.margin is not None
            else _("{who} wins by counting")
        )
    return how.format(who=who)
