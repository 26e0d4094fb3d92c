"""Role helpers: who directs, referees, plays, and may see what."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, Permission

from games import permissions as perms
from tests.factories import PlayerFactory, TournamentFactory, UserFactory


def test_directors_direct_only_their_own_tournament(director, tournament):
    assert perms.is_director(director, tournament)
    assert not perms.is_director(director, TournamentFactory())


def test_a_superuser_directs_and_referees_everything(superuser, tournament):
    assert perms.is_director(superuser, tournament)
    assert perms.is_referee(superuser, tournament)


def test_the_referee_is_not_a_director(referee, tournament):
    assert perms.is_referee(referee, tournament)
    assert not perms.is_director(referee, tournament)


def test_anonymous_users_have_no_role(tournament, game):
    for nobody in (AnonymousUser(), None):
        assert not perms.is_director(nobody, tournament)
        assert not perms.is_referee(nobody, tournament)
        assert perms.player_for(nobody) is None
        assert not perms.is_participant(nobody, game)
        assert not perms.can_see_submissions(nobody, game)
        assert not perms.is_any_director(nobody)
        assert not perms.can_create_tournament(nobody)


def test_player_for_finds_the_linked_player(alice, outsider):
    assert perms.player_for(alice.user) == alice
    assert perms.player_for(outsider) is None


def test_the_players_are_the_participants(game, alice, bob, outsider, director):
    assert perms.is_participant(alice.user, game)
    assert perms.is_participant(bob.user, game)
    assert not perms.is_participant(outsider, game)
    assert not perms.is_participant(director, game)


def test_a_player_of_another_game_is_not_a_participant(game):
    stranger = PlayerFactory(user=UserFactory())
    assert not perms.is_participant(stranger.user, game)
    assert not perms.can_see_submissions(stranger.user, game)


def test_submissions_are_for_players_directors_and_referees(
    game, alice, director, referee, outsider
):
    for who in (alice.user, director, referee):
        assert perms.can_see_submissions(who, game)
    assert not perms.can_see_submissions(outsider, game)


def test_who_may_create_players_and_tournaments(director, tournament, outsider):
    assert perms.is_any_director(director)
    assert not perms.is_any_director(outsider)
    assert perms.is_any_director(UserFactory(is_staff=True))
    assert not perms.can_create_tournament(director)
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert perms.can_create_tournament(user)
