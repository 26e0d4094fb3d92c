"""Who may do what: role helpers shared by the API, the web pages and the services.

Roles are per tournament (director, referee, player; a superuser is every director).
Answers are booleans, ``False`` for anonymous users; the caller decides between 403
and 404 (docs/games.md, "Roles").
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Min, Q

from games.models import Game, Player, Tournament, TournamentEntry
from games.people.services.grants import FEDERATION_GROUP
from ops.users import is_authenticated


def is_superuser(user: Any) -> bool:
    return is_authenticated(user) and bool(user.is_superuser)


def is_director(
    user: Any, tournament: Tournament, *, directors: Collection[int] | None = None
) -> bool:
    """The user directs ``tournament`` (or is a superuser); ``directors``: its directors'
    user ids when the caller holds them already (a cached page), else one query."""
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    if directors is not None:
        return bool(user.pk in directors)
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


def own_tournament_id(player: Player) -> int | None:
    """The tournament that first entered ``player`` (the lowest entry id): its directors
    are his own.  Entering him elsewhere later never changes it, so a director cannot
    make a player his by entering him (docs/games.md, "A director's reach")."""
    return own_tournament_ids([player]).get(player.pk)


def own_tournament_ids(players: list[Player]) -> dict[int, int]:
    """``own_tournament_id`` of each player, in one query (and one per player with no
    entry, older data: the tournament of his first game)."""
    ids = [p.pk for p in players]
    firsts = (
        TournamentEntry.objects.filter(player_id__in=ids)
        .order_by()  # no default ordering in the GROUP BY
        .values("player_id")
        .annotate(first=Min("pk"))
        .values_list("first", flat=True)
    )
    own: dict[int, int] = dict(
        TournamentEntry.objects.filter(pk__in=firsts).values_list("player_id", "tournament_id")
    )
    for pk in set(ids) - set(own):
        game = (
            Game.objects.filter(Q(black_id=pk) | Q(white_id=pk))
            .order_by("pk")
            .values_list("tournament_id", flat=True)
            .first()
        )
        if game is not None:
            own[pk] = int(game)
    return own


def directors_of(players: list[Player]) -> dict[int, set[int]]:
    """The ids of the users directing any tournament each player is entered or plays in
    (``player_directors`` for many players, three queries)."""
    ids = [p.pk for p in players]
    pairs = [
        *TournamentEntry.objects.filter(player_id__in=ids).values_list(
            "player_id", "tournament__directors"
        ),
        *Game.objects.filter(black_id__in=ids).values_list("black_id", "tournament__directors"),
        *Game.objects.filter(white_id__in=ids).values_list("white_id", "tournament__directors"),
    ]
    out: dict[int, set[int]] = {}
    for player_id, user_id in pairs:
        if user_id is not None:
            out.setdefault(player_id, set()).add(user_id)
    return out


def is_own_director(user: Any, player: Player) -> bool:
    """``user`` directs the tournament that first entered ``player``."""
    if not is_authenticated(user):
        return False
    own = own_tournament_id(player)
    return own is not None and Tournament.objects.filter(pk=own, directors=user).exists()


def player_directors(player: Player) -> Any:
    """The users directing any tournament ``player`` is entered or plays in (a queryset)."""
    tournaments = Tournament.objects.filter(
        Q(entries__player=player) | Q(games__black=player) | Q(games__white=player)
    )
    return get_user_model().objects.filter(directed_tournaments__in=tournaments).distinct()


def can_edit_player(user: Any, player: Player) -> bool:
    """A federation official (or a superuser); the directors of the tournament that first
    entered him; any director while he is in no tournament at all.  Entering a player in
    one's own tournament never widens this (``own_tournament_id``)."""
    if not is_authenticated(user):
        return False
    if is_federation_official(user):
        return True
    if not is_any_director(user):
        return False
    own = own_tournament_id(player)
    if own is None:
        return True  # nobody's yet: neither entered nor paired anywhere
    return Tournament.objects.filter(pk=own, directors=user).exists()


def editable_players(user: Any, players: list[Player]) -> set[int]:
    """The ids among ``players`` that ``user`` may edit (``can_edit_player`` for many
    players, in three queries): an import fills ids only on these."""
    if user is None or is_federation_official(user):  # ``None``: the operator
        return {p.pk for p in players}
    if not is_any_director(user):
        return set()
    own = own_tournament_ids(players)
    mine = set(
        Tournament.objects.filter(pk__in=set(own.values()), directors=user).values_list(
            "pk", flat=True
        )
    )
    return {p.pk for p in players if own.get(p.pk) is None or own[p.pk] in mine}


def can_invite_player(user: Any, player: Player) -> bool:
    """Who puts an address on file for a player and invites him to an account: a federation
    official or his own directors (a player in no tournament has none yet)."""
    return is_federation_official(user) or is_own_director(user, player)


def can_link_account(user: Any) -> bool:
    """Only a superuser sets a player's account directly; anyone else goes through an
    invitation that the account's holder accepts (games.people.services.invitations)."""
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
