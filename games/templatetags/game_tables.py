"""Tables of many games, built in Python: ``{% game_rows games %}``.

A tournament page of 200 games was some 18,000 template nodes, a ``{% url %}``
each per link; here every URL is reversed once and each row is one string.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from html import escape
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.messages import result_words

register = template.Library()

_SENTINEL = 987654321


@functools.cache
def _url(name: str) -> tuple[str, str]:
    prefix, _, suffix = reverse(name, args=[_SENTINEL]).partition(str(_SENTINEL))
    return prefix, suffix


def url_for(name: str, pk: Any) -> str:
    prefix, suffix = _url(name)
    return f"{prefix}{int(pk)}{suffix}"


def _row(
    g: Any, player_url: tuple[str, str], game_url: tuple[str, str], said: dict[Any, str]
) -> str:
    black_rank = getattr(g, "black_rank", None) or g.black.rank  # the rank at entry, if known
    white_rank = getattr(g, "white_rank", None) or g.white.rank
    return (
        f'<tr><td class="num">{"" if g.table is None else int(g.table)}</td>'
        f'<td><a href="{player_url[0]}{int(g.black_id)}{player_url[1]}">'
        f'{escape(g.black.full_name)}</a> <span class="muted">{escape(str(black_rank))}</span></td>'
        f'<td><a href="{player_url[0]}{int(g.white_id)}{player_url[1]}">'
        f'{escape(g.white.full_name)}</a> <span class="muted">{escape(str(white_rank))}</span></td>'
        f'<td class="num">{escape(str(g.handicap or ""))}</td>'
        f'<td class="num">{escape(str(g.komi))}</td><td>{_said(g, said)}</td>'
        f'<td><span class="state state-{escape(g.state)}">{said.get(g.state) or _state(g, said)}'
        f"</span></td>"
        f'<td><a href="{game_url[0]}{int(g.pk)}{game_url[1]}">game</a></td></tr>\n'
    )


def _said(g: Any, said: dict[Any, str]) -> str:
    """The result as shown, worked out once per distinct result (a few dozen in 3,800 games)."""
    key = (g.result_winner, g.result_reason, g.result_margin)
    text = said.get(key)
    if text is None:
        shown = g.result_display
        # Short in the table; in words on hover or a long press, as the result buttons say it.
        text = said[key] = (
            f'<abbr title="{escape(result_words(shown))}">{escape(shown)}</abbr>' if shown else "–"
        )
    return text


def _state(g: Any, said: dict[Any, str]) -> str:
    text = said[g.state] = escape(str(g.get_state_display()))
    return text


@register.simple_tag
def game_rows(games: Iterable[Any]) -> SafeString:
    """The games table of a round or a tournament page (every value escaped): f-strings
    rather than ``format_html`` per row, which was half the cost of 3,800 rows."""
    player_url, game_url = _url("games:player"), _url("games:game")
    said: dict[Any, str] = {}
    body = "".join([_row(g, player_url, game_url, said) for g in games]) or (
        '<tr><td colspan="8" class="muted">No games.</td></tr>'
    )
    return mark_safe(  # every value in the rows is escaped or an integer
        '<table class="games">\n<thead><tr><th class="num">Table</th><th>Black</th>'
        '<th>White</th><th class="num">H</th><th class="num">Komi</th><th>Result</th>'
        f"<th>State</th><th></th></tr></thead>\n<tbody>\n{body}</tbody>\n</table>"
    )


def number(value: float) -> str:
    """``value|floatformat:"-1"`` without its per-call localisation: a whole value as an
    integer, any other to one decimal (half up, as floatformat rounds)."""
    exact = Decimal(repr(value))
    if exact == exact.to_integral_value():
        return str(int(exact))
    return str(exact.quantize(_TENTH, ROUND_HALF_UP))


_TENTH = Decimal("0.1")


# The criteria that are a score (wins, McMahon score, points): on a phone the place, the
# name and these come first, and the rest scrolls (docs/tournaments.md, "Standings").
SCORES = ("MMS", "NBW", "STS", "CPS")


@register.filter
def scores_first(criteria: Iterable[str]) -> tuple[list[str], list[str]]:
    """``criteria`` split into the scores and the rest, each in its order."""
    names = list(criteria)
    return [c for c in names if c in SCORES], [c for c in names if c not in SCORES]


@register.simple_tag
def standings_rows(
    rows: Iterable[tuple[Any, list[str]]], printable: bool = False, criteria: Iterable[str] = ()
) -> SafeString:
    """The rows of the standings table (``_standings_table.html``): 760 players were some
    190 ms of template nodes, a ``{% url %}`` and four ``floatformat`` a row.  Columns:
    place, name, the scores, line number, rank, club, the rounds, the other criteria."""
    scores, rest = scores_first(criteria)
    ranks: dict[int, str] = {}
    out = []
    for n, (row, cells) in enumerate(rows, start=1):
        player, entry = row.player, row.entry
        rank = ranks.get(entry.rank)
        if rank is None:
            rank = ranks[entry.rank] = escape(str(entry.get_rank_display()))
        name = escape(player.full_name)
        if not printable:
            name = f'<a href="{url_for("games:player", player.pk)}">{name}</a>'
        css = ("unplaced" if row.place is None else "") + (
            " page-break" if printable and n % 40 == 0 else ""
        )
        place = "" if row.place is None else row.place
        values = row.values
        out.append(
            f'    <tr id="player-{int(player.pk)}" class="{css}">'
            f'<td class="num">{place}</td><td class="name">{name}</td>'
            + "".join(f'<td class="num score">{number(values[c])}</td>' for c in scores)
            + f'<td class="num">{n}</td><td>{rank}</td><td>{escape(entry.club)}</td>'
            + "".join(f'<td class="cell">{escape(c)}</td>' for c in cells)
            + "".join(f'<td class="num">{number(values[c])}</td>' for c in rest)
            + "</tr>\n"
        )
    return mark_safe("".join(out))  # every value above is escaped or a number
