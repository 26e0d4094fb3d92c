"""Who may do what: role helpers shared by the API, the web pages and the services.

Roles are per tournament (director, referee, player; a superuser is every director).
Answers are booleans, ``False`` for anonymous users; the caller decides between 403
and 404 (docs/games.md, "Roles").
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q

from games.groups import FEDERATION_GROUP
from games.models import Game, Player, Tournament
from ops.services import is_authenticated


def is_superuser(user: Any) -> bool:
    return is_authenticated(user) and bool(user.is_superuser)


def is_director(user: Any, tournament: Tournament) -> bool:
    """The user directs ``tournament`` (or is a superuser)."""
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def directed_by(user: Any) -> Q:
    """A filter on tournaments: those ``user`` directs (all of them for a superuser)."""
    if is_superuser(user):
        return Q()
    return Q(directors=user)


def is_referee(user: Any, tournament: Tournament) -> bool:
    """The user referees ``tournament`` (or is a superuser)."""
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return tournament.referees.filter(pk=user.pk).exists()


def is_federation_official(user: Any) -> bool:
    """A superuser, or a member of the "Federation officials" group (named by a superuser
    only; directing tournaments, staff status or the Directors group never make one)."""
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=FEDERATION_GROUP).exists())


def is_any_director(user: Any) -> bool:
    """Directs at least one tournament, or is staff: may create players."""
    if not is_authenticated(user):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return Tournament.objects.filter(directors=user).exists()


def can_edit_player(user: Any, player: Player) -> bool:
    """A superuser; or a director, for a player entered or playing in a tournament he
    directs, or in none at all yet.  A player of other tournaments only is theirs to edit."""
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    if not is_any_director(user):
        return False
    if player.entries.filter(tournament__directors=user).exists():
        return True  # entered in one of his tournaments
    games = Game.objects.filter(Q(black=player) | Q(white=player))
    if games.filter(tournament__directors=user).exists():
        return True
    # Nobody's yet: neither paired nor entered anywhere.
    return not games.exists() and not player.entries.exists()


def can_link_account(user: Any) -> bool:
    """Only a superuser sets a player's account directly; anyone else goes through an
    invitation that the account's holder accepts (games.services.invitations)."""
    return is_superuser(user)


def can_create_tournament(user: Any) -> bool:
    """Staff, or holds the ``games.add_tournament`` permission."""
    if not is_authenticated(user):
        return False
    return bool(user.is_staff or user.has_perm("games.add_tournament"))


def player_for(user: Any) -> Player | None:
    """The player profile linked to ``user``, or ``None``."""
    if not is_authenticated(user):
        return None
    try:
        player: Player = user.player
    except ObjectDoesNotExist:
        return None
    return player


def is_participant(user: Any, game: Game) -> bool:
    """The user plays in ``game`` (as Black or White)."""
    player = player_for(user)
    return player is not None and player.pk in (game.black_id, game.white_id)


def can_see_submissions(user: Any, game: Game) -> bool:
    """The claims about a game's result are for its players, directors and referees."""
    if not is_authenticated(user):
        return False
    return (
        is_participant(user, game)
        or is_director(user, game.tournament)
        or is_referee(user, game.tournament)
    )


def can_enter_results(user: Any, game: Game) -> bool:
    """Directors enter, correct and finalise any result of their tournament."""
    return is_director(user, game.tournament)


def can_change_game(user: Any, game: Game) -> bool:
    """Pairing details (players, table, handicap, komi) are the directors' business."""
    return is_director(user, game.tournament)
