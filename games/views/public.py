"""Public pages served from the cache: the whole page for a visitor with no session, a
cached fragment for everyone else, both kept compressed (docs/operations.md, "Caching"
and "Compression")."""

from __future__ import annotations

import functools
import gzip
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe

from games.engine.names import folded
from games.models import Presence, Round, TournamentEntry
from ops import cache
from ops.compress import MIN_BYTES, Page, accepts_gzip, gzipped
from ratings.ranks import Rank

# The context variable that collects a page's cached fragments (``splice_mark``).
FRAGMENTS = "spliced_fragments"
# Stands for a fragment in the rendered page until it is spliced in: random per process,
# and an HTML comment, which no escaped text can contain.
_MARK = f"<!--fragment-{secrets.token_hex(16)}-->"
# GZipMiddleware's own BREACH padding (0-99 random bytes in the gzip header).
_PADDING = 100


def lazy_context(compute: Callable[[], dict[str, Any]], keys: Iterable[str]) -> dict[str, Any]:
    """Context values computed on first use, all from one call of ``compute``: a page
    whose cached fragment is still good never runs its queries."""
    once = functools.cache(compute)
    return {key: SimpleLazyObject(functools.partial(lambda k: once()[k], key)) for key in keys}


class _NotCached(Exception):
    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def visitor_cached(
    request: HttpRequest, key: str, names: list[str], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The whole page from the cache for a visitor with no session (nothing on it is his),
    until one of ``names`` is bumped, compressed once (``ops.compress``); anyone else gets
    ``page()``, itself built around a cached fragment."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return page()

    def build() -> Page:
        response = page()
        if response.status_code != 200:
            raise _NotCached(response)
        content = response.content
        if response.get("Content-Encoding") == "gzip":  # built around a compressed fragment
            content = gzip.decompress(content)
        return Page.of(content.decode(response.charset or "utf-8"), csp_nonce(request))

    try:
        # ".gz2": a page kept by an earlier release has other fields.
        cached_page = cache.cached(
            f"{key}.gz2", names, build, max_age=settings.GOREF_VISITOR_STALE_SECONDS
        )
    except _NotCached as refused:
        return refused.response
    # A Content-Security-Policy nonce is per request: this one's, not the first's.
    nonce = csp_nonce(request)
    if cached_page.size < MIN_BYTES or not accepts_gzip(request):
        response = HttpResponse(cached_page.body(nonce))
    else:
        # No secret is on a visitor's page (no session, no CSRF token), so compressing it
        # gives BREACH nothing to find (docs/operations.md, "Compression").
        response = HttpResponse(cached_page.gzipped(nonce))
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def csp_nonce(request: HttpRequest) -> str:
    """The request's CSP nonce when a CSP middleware gives it one (else empty)."""
    # django-csp's nonce is lazy and reads as false until first turned into text.
    nonce = getattr(request, "csp_nonce", None)
    return "" if nonce is None else str(nonce)


# "Where do I play" (games.tournament.views.round_where): its rows and its search, the
# same on the server (``?q=``) and in static/games/round_where.js.
MAX_QUERY = 80


@dataclass(frozen=True, slots=True)
class WhereRow:
    """One table of a round as a player looks for it."""

    table: int | None
    black: str
    black_rank: str
    white: str
    white_rank: str
    handicap: int
    komi: Decimal
    names: str  # both names folded for the search, "|" between them


@dataclass(frozen=True, slots=True)
class RestRow:
    """An entrant without a game in the round: a bye, absent, or not paired."""

    name: str
    rank: str
    why: str
    names: str


def where_tables(rnd: Round, query: str = "") -> dict[str, Any]:
    """The round's tables and, once it is paired, who does not play in it, each kept
    when ``query`` matches (two queries, the entries and the games, none per row)."""
    # Only the columns shown: a 760-player round spent half its time loading the rest.
    names = ("family_name", "given_name", "declared_rank")
    entries = {
        e.player_id: e
        for e in TournamentEntry.objects.filter(tournament_id=rnd.tournament_id)
        .select_related("player")
        .only("player_id", "rank", "participation", *(f"player__{n}" for n in names))
    }
    shown: dict[int, str] = {}
    ranks = {
        pid: shown.get(e.rank) or shown.setdefault(e.rank, str(Rank(e.rank)))
        for pid, e in entries.items()
    }
    games = list(
        rnd.games.select_related("black", "white")
        .only(
            "table",
            "handicap",
            "komi",
            "black_id",
            "white_id",
            "round_id",
            *(f"{c}__{n}" for c in ("black", "white") for n in names),
        )
        .order_by("table", "id")
    )
    rows = [
        WhereRow(
            table=g.table,
            black=g.black.full_name,
            black_rank=ranks.get(g.black_id) or str(g.black.rank),
            white=g.white.full_name,
            white_rank=ranks.get(g.white_id) or str(g.white.rank),
            handicap=g.handicap,
            komi=g.komi,
            names=f"{folded(g.black.full_name)}|{folded(g.white.full_name)}",
        )
        for g in games
    ]
    paired = {g.black_id for g in games} | {g.white_id for g in games}
    resting = [
        RestRow(
            name=e.player.full_name,
            rank=ranks[pid],
            why=_NOT_PLAYING.get(e.presence(rnd.number), "not paired"),
            names=folded(e.player.full_name),
        )
        for pid, e in entries.items()
        if games and pid not in paired
    ]
    resting.sort(key=lambda r: r.names)
    return {
        "rows": [r for r in rows if matches(r, query)],
        "resting": [r for r in resting if matches(r, query)],
        "total": len(rows),
    }


_NOT_PLAYING: dict[str, str] = {Presence.BYE: "bye", Presence.ABSENT: "absent"}


def matches(row: WhereRow | RestRow, query: str) -> bool:
    """Whether one of the row's players has every word of ``query`` in his name."""
    words = folded(query).split()
    return not words or any(all(w in name for w in words) for name in row.names.split("|"))


def splice_mark(context: Any, fragment: Page) -> SafeString:
    """What a template writes for a cached ``fragment``: a mark that ``render_spliced``
    replaces with it, or the fragment's text when the page is not rendered that way."""
    holder = context.get(FRAGMENTS)
    if holder is None:
        return mark_safe(fragment.body().decode())
    holder.append(fragment)
    return mark_safe(_MARK)


def render_spliced(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """``render``, with the page's cached fragments (``splice_mark``) joined in as they
    were compressed when cached: only the text around them (the user's header, forms
    with his CSRF token) is compressed per request.  A client that does not take gzip
    gets them decompressed."""
    fragments: list[Page] = context.setdefault(FRAGMENTS, [])
    response = render(request, template, context)
    if not fragments:
        return response
    around = response.content.split(_MARK.encode())
    if len(around) != len(fragments) + 1:  # a fragment rendered twice, or its mark lost
        raise RuntimeError(f"{template}: {len(fragments)} fragments, {len(around) - 1} marks")
    parts: list[bytes | Page] = [around[0]]
    for fragment, after in zip(fragments, around[1:], strict=True):
        parts += [fragment, after]
    if accepts_gzip(request):
        # The text around holds a CSRF token: padded as GZipMiddleware pads (BREACH).
        response.content = gzipped(parts, padding=_PADDING)
        response["Content-Encoding"] = "gzip"
    else:
        response.content = b"".join(p if isinstance(p, bytes) else p.body() for p in parts)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
