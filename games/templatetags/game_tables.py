"""Tables of many games, built in Python: ``{% game_rows games %}``.

A tournament page of 200 games was some 18,000 template nodes, a ``{% url %}``
each per link; here every URL is reversed once and each row is one string.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

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
