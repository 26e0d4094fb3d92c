"""Who may do what with a dispute: the tournament's referees rule first, its chief referee
hears the first appeal, its committee of three the second (WMSG 2008 rules, Appendix 1,
item 10); directors see and close disputes but do not rule; the parties are the two
players.  Answers are booleans; callers choose 403 or 404 (docs/referee.md).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q

from games import permissions
from games.models import Game, Tournament
from ops.users import is_authenticated
from referee.models import Dispute, Level, TournamentOfficials


def _user_id(user: Any) -> int | None:
    if not is_authenticated(user):
        return None
    return int(user.pk)


def officials_of(tournament: Tournament) -> TournamentOfficials | None:
    try:
        officials: TournamentOfficials = tournament.officials
    except ObjectDoesNotExist:
        return None
    return officials


def is_chief_referee(user: Any, tournament: Tournament) -> bool:
    officials = officials_of(tournament)
    uid = _user_id(user)
    return uid is not None and officials is not None and officials.chief_referee_id == uid


def is_committee_member(user: Any, tournament: Tournament) -> bool:
    officials = officials_of(tournament)
    uid = _user_id(user)
    return uid is not None and officials is not None and uid in officials.committee_ids


def is_official(user: Any, tournament: Tournament) -> bool:
    """Sees every dispute of the tournament: referees, chief, committee, directors."""
    return (
        permissions.is_referee(user, tournament)
        or permissions.is_director(user, tournament)
        or is_chief_referee(user, tournament)
        or is_committee_member(user, tournament)
    )


def plays_in(user: Any, tournament: Tournament) -> bool:
    """The user has a game in ``tournament`` (as Black or White)."""
    player = permissions.player_for(user)
    if player is None:
        return False
    return (
        Game.objects.filter(tournament=tournament)
        .filter(Q(black=player) | Q(white=player))
        .exists()
    )


def can_see_officials_page(user: Any, tournament: Tournament) -> bool:
    """The desk's officials page: the tournament's officials and players see it (directors
    change it); anyone else gets 404."""
    return is_official(user, tournament) or plays_in(user, tournament)


def can_name_officials(user: Any, tournament: Tournament) -> bool:
    return permissions.is_director(user, tournament)


def can_assign(user: Any, dispute: Dispute) -> bool:
    """A director assigns a referee; a referee of the tournament may take an unassigned
    dispute himself.  Nobody who plays in the game does either."""
    tournament = dispute.game.tournament
    if is_party(user, dispute.game):
        return False
    if permissions.is_director(user, tournament):
        return True
    return permissions.is_referee(user, tournament) and dispute.assigned_referee_id in (
        None,
        _user_id(user),
    )


PARTY_REFUSAL = "You play in this game: an official who does not play in it decides."


def conflict_of_interest(user: Any, dispute: Dispute) -> str | None:
    """Why ``user`` may not act as an official on ``dispute`` (he plays in its game), or None."""
    return PARTY_REFUSAL if is_party(user, dispute.game) else None


def is_party(user: Any, game: Game) -> bool:
    return permissions.is_participant(user, game)


def can_see_dispute(user: Any, dispute: Dispute) -> bool:
    """Closed disputes are public with their game; open ones are the parties' and officials'."""
    if dispute.is_closed:
        return True
    game = dispute.game
    return is_party(user, game) or is_official(user, game.tournament)


def can_raise_dispute(user: Any, game: Game) -> bool:
    """A player on his own game, or the tournament's referees and directors."""
    return (
        permissions.is_participant(user, game)
        or permissions.is_referee(user, game.tournament)
        or permissions.is_director(user, game.tournament)
    )


def can_rule(user: Any, dispute: Dispute) -> bool:
    """The official whose turn it is at the dispute's current level, never a party."""
    tournament = dispute.game.tournament
    if is_party(user, dispute.game):
        return False
    if dispute.level == 1:
        if not permissions.is_referee(user, tournament):
            return False
        assigned = dispute.assigned_referee_id
        return assigned is None or assigned == _user_id(user) or permissions.is_superuser(user)
    if dispute.level == 2:
        return is_chief_referee(user, tournament)
    return is_committee_member(user, tournament)


def who_rules(dispute: Dispute) -> str:
    """Whom ``can_rule`` allows, as the refusal to show anyone else."""
    return {
        Level.REFEREE: "Only the tournament's referee (the one assigned, if any) rules on this dispute.",
        Level.CHIEF: "Only the tournament's chief referee rules on this appeal.",
        Level.COMMITTEE: "Only the members of the arbitration committee vote on this appeal.",
    }[Level(dispute.level)]


def can_close(user: Any, dispute: Dispute) -> bool:
    tournament = dispute.game.tournament
    if is_party(user, dispute.game):
        return False
    return (
        permissions.is_referee(user, tournament)
        or permissions.is_director(user, tournament)
        or is_chief_referee(user, tournament)
    )
