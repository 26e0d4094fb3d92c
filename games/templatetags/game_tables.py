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
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_SENTINEL = 987654321


@functools.cache
def _url(name: str) -> tuple[str, str]:
    prefix, _, suffix = reverse(name, args=[_SENTINEL]).partition(str(_SENTINEL))
    return prefix, suffix


def url_for(name: str, pk: Any) -> str:
    prefix, suffix = _url(name)
    return f"{prefix}{int(pk)}{suffix}"


def _row(g: Any) -> tuple[Any, ...]:
    return (
        "" if g.table is None else g.table,
        url_for("games:player", g.black_id),
        g.black.full_name,
        getattr(g, "black_rank", None) or g.black.rank,  # the rank at entry, when known
        url_for("games:player", g.white_id),
        g.white.full_name,
        getattr(g, "white_rank", None) or g.white.rank,
        g.handicap or "",
        g.komi,
        g.result_display or "–",
        g.state,
        g.get_state_display(),
        url_for("games:game", g.pk),
    )


ROW = (
    '<tr><td class="num">{}</td>'
    '<td><a href="{}">{}</a> <span class="muted">{}</span></td>'
    '<td><a href="{}">{}</a> <span class="muted">{}</span></td>'
    '<td class="num">{}</td><td class="num">{}</td><td>{}</td>'
    '<td><span class="state state-{}">{}</span></td>'
    '<td><a href="{}">game</a></td></tr>\n'
)


@register.simple_tag
def game_rows(games: Iterable[Any]) -> SafeString:
    """The games table of a round or a tournament page (every value escaped)."""
    rows = [_row(g) for g in games]
    body = (
        format_html_join("", ROW, rows)
        if rows
        else format_html('<tr><td colspan="8" class="muted">{}</td></tr>', "No games.")
    )
    return format_html(
        '<table class="games">\n<thead><tr><th class="num">Table</th><th>Black</th>'
        '<th>White</th><th class="num">H</th><th class="num">Komi</th><th>Result</th>'
        "<th>State</th><th></th></tr></thead>\n<tbody>\n{}</tbody>\n</table>",
        body,
    )


def number(value: float) -> str:
    """``value|floatformat:"-1"`` without its per-call localisation: a whole value as an
    integer, any other to one decimal (half up, as floatformat rounds)."""
    exact = Decimal(repr(value))
    if exact == exact.to_integral_value():
        return str(int(exact))
    return str(exact.quantize(_TENTH, ROUND_HALF_UP))


_TENTH = Decimal("0.1")


@register.simple_tag
def standings_rows(rows: Iterable[tuple[Any, list[str]]], printable: bool = False) -> SafeString:
    """The rows of the standings table (``_standings_table.html``): 760 players were some
    190 ms of template nodes, a ``{% url %}`` and four ``floatformat`` a row."""
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
        out.append(
            f'    <tr id="player-{int(player.pk)}" class="{css}">'
            f'<td class="num">{place}</td><td class="num">{n}</td>'
            f"<td>{name}</td><td>{rank}</td><td>{escape(entry.club)}</td>"
            + "".join(f'<td class="cell">{escape(c)}</td>' for c in cells)
            + "".join(f'<td class="num">{number(v)}</td>' for v in row.values.values())
            + "</tr>\n"
        )
    return mark_safe("".join(out))  # every value above is escaped or a number
