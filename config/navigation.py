"""What the header shows a signed-in user: the referee desk to officials, his own games
(with how many wait for his confirmation) to a player.  Two small queries per page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.selectors import games_awaiting_confirmation
from ops.services import is_authenticated
from referee.selectors import official_tournaments


def header(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not is_authenticated(user):
        return {}
    player = getattr(user, "player", None) if user is not None else None
    return {
        "nav_official": bool(
            getattr(user, "is_superuser", False) or official_tournaments(user).exists()
        ),
        "nav_player": player,
        "nav_waiting": games_awaiting_confirmation(player).count() if player else 0,
    }
