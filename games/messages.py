"""The sentences games' pages show after a write: services return values, and the pages
put them in words here (translatable)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.result import Reason, Result, ResultError
from ratings.ranks import Rank


def entered_from_list(*, player: object, source: str, linked: bool, review: int) -> str:
    """A player entered from a rating list (``entry_add_from_list``'s answer)."""
    how = _("linked to his goref record") if linked else _("added to goref")
    queued = _(", {count} pair(s) queued for review").format(count=review) if review else ""
    return _("{player} entered from the {source} list ({how}{queued}).").format(
        player=player, source=source.upper(), how=how, queued=queued
    )


def tables_moved(count: int) -> str:
    """Tables moved on the round's tables page."""
    if not count:
        return _("No table changed.")
    return _("{count} game(s) moved to new tables: printed lists and slips follow.").format(
        count=count
    )


def table_pinned(*, player: object, table: int | None) -> str:
    """A player pinned to a table, or unpinned."""
    if table is None:
        return _("{player} is no longer pinned to a table.").format(player=player)
    return _("{player} plays at table {table} in every round paired from now on.").format(
        player=player, table=table
    )


def cup_saved() -> str:
    """The cup's options, or who goes through, saved."""
    return _("Saved: the bracket follows.")


def teams_saved() -> str:
    """A team event's settings, a team or a line-up saved."""
    return _("Saved.")


def team_round_paired(*, matches: int, games: int) -> str:
    """A team round paired."""
    return _("{matches} match(es) paired: {games} board game(s).").format(
        matches=matches, games=games
    )


def pair_entered(*, pair: object, rank: int) -> str:
    """A pair go pair or rengo team entered."""
    return _("{pair} entered as {rank}.").format(pair=pair, rank=Rank(rank))


def correction_warning(effect: object) -> str:
    """What a correction after the start changes (a ``CorrectionEffect``): the rounds
    already paired, and what the later rounds read differently; "" when nothing."""
    if effect is None:
        return ""
    paired = list(getattr(effect, "paired_rounds", ()))
    changes = list(getattr(effect, "changes", ()))
    said = {
        "handicaps": _("the handicaps of the rounds still to pair"),
        "mcmahon_start": _("the McMahon start score, and so the standings of every round"),
        "pairing_order": _("the order in which the rounds still to pair are drawn"),
    }
    what = _(", ").join(said[c] for c in changes if c in said)
    if paired:
        rounds = _(", ").join(str(n) for n in paired)
        head = _(
            "Round(s) {rounds} already paired: their games and handicaps stay as paired."
        ).format(rounds=rounds)
    else:
        head = _("No round is paired yet.")
    tail = _(" This correction changes {what}.").format(what=what) if what else ""
    return head + tail


def entries_changed(*, tournament: object, changed: int, unchanged: int, effect: object) -> str:
    """A bulk change of entries (a ``BulkChange``): how many changed, and what it changes."""
    text = _("{tournament}: {changed} entries changed, {unchanged} unchanged.").format(
        tournament=tournament, changed=changed, unchanged=unchanged
    )
    warning = correction_warning(effect) if changed else ""
    return f"{text} {warning}" if warning else text


def time_system_read(*, text: str, adjusted: int, egf_class: str) -> str:
    """The admin's line of what the files write from a tournament's time system."""
    return _("{text}: adjusted time {adjusted} min, class {cls}").format(
        text=text, adjusted=adjusted, cls=egf_class
    )


def time_system_none() -> str:
    return _("none: the files write OpenGotha's default (60 min, Canadian 15 moves / 5 min)")


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
