"""What the header shows a signed-in user: the referee desk to officials, his own games
(with how many wait for his confirmation) to a player.

No query on a warm cache: what the header knows of the user (is he an official, which
player is he) is cached under his ``user:<id>`` version, which the services bump when he
is named or unnamed an official or his player record is linked or unlinked; the count
of his games waiting is cached under his player's ``player:<id>`` version, which every
saved game of his bumps (docs/operations.md, "The page cache")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from games import cache as versions
from games.models import Player
from games.selectors import games_awaiting_confirmation
from ops.pages.cache import cached, read_with_user
from ops.users import is_authenticated
from referee.selectors import official_tournaments


@dataclass(frozen=True)
class NavUser:
    """What the header knows of a user, kept under his ``user:<id>`` version."""

    official: bool
    player_id: int | None
    player_name: str


@dataclass(frozen=True)
class NavPlayer:
    pk: int
    full_name: str


def header(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not is_authenticated(user) or user is None:
        return {}
    facts = cached(f"nav:user:{user.pk}", [versions.user(user.pk)], lambda: _user_facts(user))
    player, waiting = None, 0
    if facts.player_id is not None:
        pk = facts.player_id
        player = NavPlayer(pk, facts.player_name)
        waiting = cached(f"nav:waiting:{pk}", [versions.player(pk)], lambda: _waiting(pk))
        read_with_user(user.pk, [versions.player(pk)])  # his next header: one round trip
    return {
        # is_superuser is on the request's user already: read live, never cached
        "nav_official": bool(getattr(user, "is_superuser", False) or facts.official),
        "nav_player": player,
        "nav_waiting": waiting,
    }


def _user_facts(user: Any) -> NavUser:
    player = Player.objects.filter(user=user).first()
    return NavUser(
        official=official_tournaments(user).exists(),
        player_id=None if player is None else player.pk,
        player_name="" if player is None else player.full_name,
    )


def _waiting(player_id: int) -> int:
    return games_awaiting_confirmation(Player(pk=player_id)).count()
