"""Entries, participation, settings and the lifecycle: services and /api/v1/."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games import services
from games.models import GameState, TournamentEntry
from games.people import services as people
from games.tournament import services as tournament_services
from games.tournament.services.pairings import mcmahon_handicap
from ops.models import AuditEntry
from ops.services import StateConflict
from tests.factories import GameFactory, PlayerFactory, enter
from tests.games.api_helpers import assert_error

URL = "/api/v1/tournaments/"


# --------------------------------------------------------------------------- services


def test_an_entry_copies_the_players_rank_club_and_country(director, tournament, alice):
    entry = tournament_services.entry_add(actor=director, tournament=tournament, player=alice)
    assert (entry.rank, entry.country, entry.rating, entry.final) == (-3, "NZ", None, True)
    assert AuditEntry.objects.filter(action="entry.added", object_id=str(entry.pk)).exists()


def test_an_entry_rank_may_differ_from_the_declared_rank(director, tournament, alice):
    entry = tournament_services.entry_add(
        actor=director, tournament=tournament, player=alice, rank="1d"
    )
    assert entry.rank == 0 and alice.declared_rank == -3


def test_a_player_is_entered_once(director, tournament, alice):
    tournament_services.entry_add(actor=director, tournament=tournament, player=alice)
    with pytest.raises(ValidationError, match="already entered"):
        tournament_services.entry_add(actor=director, tournament=tournament, player=alice)


def test_only_directors_enter_players(outsider, tournament, alice):
    with pytest.raises(PermissionDenied):
        tournament_services.entry_add(actor=outsider, tournament=tournament, player=alice)


def test_a_game_between_players_not_entered_is_refused(tournament, alice, bob):
    enter(tournament, alice)
    with pytest.raises(ValidationError) as e:
        tournament_services.game_create(
            actor=None, tournament=tournament, round_number=1, black=alice, white=bob
        )
    assert "not entered" in str(e.value.message_dict["white"])


def test_an_absent_player_is_not_paired(director, tournament, alice, bob):
    a, _ = enter(tournament, alice, bob)
    tournament_services.entry_participation_set(
        actor=director, entry=a, round_number=2, presence="a"
    )
    with pytest.raises(ValidationError, match="absent in round 2"):
        tournament_services.game_create(
            actor=None, tournament=tournament, round_number=2, black=alice, white=bob
        )
    tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=alice, white=bob
    )


def test_participation_is_one_letter_per_round(director, tournament, alice):
    (entry,) = enter(tournament, alice)
    tournament_services.entry_participation_set(
        actor=director, entry=entry, round_number=3, presence="b"
    )
    entry.refresh_from_db()
    assert entry.participation == "ppb"
    assert [entry.presence(n) for n in (1, 3, 5)] == ["p", "b", "p"]
    tournament_services.entry_participation_set(
        actor=director, entry=entry, round_number=3, presence="p"
    )
    entry.refresh_from_db()
    assert entry.participation == ""


def test_a_player_with_a_game_stays_playing_in_that_round(director, game):
    entry = TournamentEntry.objects.get(player=game.black)
    with pytest.raises(StateConflict, match="has a game in round 1"):
        tournament_services.entry_participation_set(
            actor=director, entry=entry, round_number=1, presence="a"
        )


def test_withdrawal_is_absence_from_a_round_on(director, game):
    game.tournament.number_of_rounds = 4
    game.tournament.save()
    entry = TournamentEntry.objects.get(player=game.black)
    tournament_services.entry_withdraw(actor=director, entry=entry, from_round=2)
    entry.refresh_from_db()
    assert entry.participation == "paaa"
    with pytest.raises(StateConflict, match="already has a game in round 1"):
        tournament_services.entry_withdraw(actor=director, entry=entry, from_round=1)


def test_a_round_past_the_last_is_refused(director, tournament, alice):
    (entry,) = enter(tournament, alice)
    with pytest.raises(ValidationError, match="has 5 rounds"):
        tournament_services.entry_participation_set(
            actor=director, entry=entry, round_number=6, presence="a"
        )


def test_entry_rank_is_corrected_after_the_start_with_the_rounds_paired(director, game):
    entry = TournamentEntry.objects.get(player=game.black)
    game.tournament.refresh_from_db()
    assert game.tournament.is_started
    tournament_services.entry_update(actor=director, entry=entry, rank="5d")
    entry.refresh_from_db()
    assert entry.rank == 4
    row = AuditEntry.objects.filter(action="entry.changed").latest("pk")
    assert row.old_value == {"rank": -3}
    assert row.new_value["rank"] == 4 and row.new_value["paired_rounds"] == [1]


def test_a_rank_change_after_the_start_does_not_change_the_entry(director, game):
    people.player_update(actor=director, player=game.black, rank="5d")
    entry = TournamentEntry.objects.get(player=game.black)
    assert entry.rank == -3


def test_mcmahon_handicap_from_the_entry_ranks(tournament, alice, bob):
    a, b = enter(tournament, alice, bob)
    tournament.handicap_threshold = 0  # 1d
    a.rank, b.rank = 2, -3  # 3d against 3k: 3d counts as 1d, 3 ranks less 1
    assert mcmahon_handicap(tournament, a, b) == (2, a)
    tournament.handicap_correction = 0
    assert mcmahon_handicap(tournament, a, b) == (3, a)
    tournament.handicap_cap = 2
    assert mcmahon_handicap(tournament, b, a) == (2, a)
    b.rank = 1
    assert mcmahon_handicap(tournament, a, b)[0] == 0


def test_a_mcmahon_pairing_gives_the_weaker_player_black(tournament, alice, bob):
    tournament.handicap_policy = "mcmahon"
    tournament.save()
    a, _ = enter(tournament, alice, bob)
    TournamentEntry.objects.filter(pk=a.pk).update(rank=-8)
    game = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=bob, white=alice, handicap=None
    )
    assert (game.black, game.white, game.handicap) == (alice, bob, 5)


def test_the_nz_advice_uses_the_entry_ranks(tournament, alice, bob):
    a, _ = enter(tournament, alice, bob)
    TournamentEntry.objects.filter(pk=a.pk).update(rank=-9)  # 9k against bob's 2k
    game = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=bob, white=alice, handicap=None
    )
    assert game.black == alice and game.handicap == 7


# --------------------------------------------------------------------------- settings


def test_settings_changes_are_audited_with_before_and_after(director, tournament):
    tournament_services.tournament_settings_update(
        actor=director, tournament=tournament, system="swiss", number_of_rounds=4
    )
    row = AuditEntry.objects.get(action="tournament.settings_changed")
    assert row.old_value == {"system": "mcmahon", "number_of_rounds": 5}
    assert row.new_value == {"system": "swiss", "number_of_rounds": 4}


def test_unknown_criteria_are_refused(director, tournament):
    with pytest.raises(ValidationError, match="Unknown criterion SOSX"):
        tournament_services.tournament_settings_update(
            actor=director, tournament=tournament, criteria=["MMS", "SOSX"]
        )


def test_the_floor_cannot_be_above_the_bar(director, tournament):
    with pytest.raises(ValidationError, match="floor"):
        tournament_services.tournament_settings_update(
            actor=director, tournament=tournament, mm_bar="5k", mm_floor="1d"
        )


# --------------------------------------------------------------------------- lifecycle


def test_close_waits_for_every_result(director, game):
    with pytest.raises(StateConflict, match="1 game of this tournament has no final result"):
        tournament_services.tournament_close(actor=director, tournament=game.tournament)


def test_a_closed_tournament_takes_no_more_entries_or_games(
    director, tournament, alice, bob, settings
):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    enter(tournament, alice, bob)
    tournament_services.tournament_close(actor=director, tournament=tournament)
    with pytest.raises(StateConflict):
        tournament_services.game_create(
            actor=None, tournament=tournament, round_number=1, black=alice, white=bob
        )
    with pytest.raises(StateConflict):
        tournament_services.entry_add(actor=director, tournament=tournament, player=PlayerFactory())
    with pytest.raises(StateConflict, match="already closed"):
        tournament_services.tournament_close(actor=director, tournament=tournament)


def test_closing_a_rated_tournament_queues_its_rating_update(
    director, tournament, django_capture_on_commit_callbacks, monkeypatch, settings
):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    from ratings import services as ratings_services

    published: list[int] = []
    monkeypatch.setattr(ratings_services, "_publish", published.append)
    GameFactory(tournament=tournament, state=GameState.FINAL, locked_at="2026-03-08T10:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.tournament_close(actor=director, tournament=tournament)
    assert len(published) == 1
    assert AuditEntry.objects.filter(action="tournament.closed").exists()


# --------------------------------------------------------------------------- API


def test_anyone_lists_the_entries_with_their_participation(api, director, tournament, alice):
    (entry,) = enter(tournament, alice)
    tournament_services.entry_participation_set(
        actor=director, entry=entry, round_number=2, presence="a"
    )
    body = api.get(f"{URL}{tournament.pk}/entries/").json()
    assert body[0]["player"]["family_name"] == "Liddell"
    assert body[0]["rank"] == "3k"
    assert body[0]["participation"] == ["play", "absent", "play", "play", "play"]
    assert_error(api.get(f"{URL}424242/entries/"), 404)


def test_a_director_enters_a_player_with_his_entry_rank(api_as, director, tournament, alice):
    response = api_as(director).post(
        f"{URL}{tournament.pk}/entries/", {"player": alice.pk, "rank": "2k"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["rank"] == "2k"


def test_entry_input_errors_name_the_field(api_as, director, outsider, tournament, alice):
    url = f"{URL}{tournament.pk}/entries/"
    assert_error(api_as(director).post(url, {"player": alice.pk, "rank": "3x"}), 400, "rank")
    assert_error(api_as(director).post(url, {"player": 424242}), 400, "player")
    assert_error(api_as(outsider).post(url, {"player": alice.pk}), 403)


def test_a_director_changes_participation_and_withdraws(api_as, director, tournament, alice):
    (entry,) = enter(tournament, alice)
    url = f"{URL}{tournament.pk}/entries/{entry.pk}/"
    body = api_as(director).patch(
        url, {"participation": [{"round": 1, "presence": "bye"}], "withdraw_from": 4}, format="json"
    )
    assert body.status_code == 200, body.content
    assert body.json()["participation"] == ["bye", "play", "play", "absent", "absent"]


def test_settings_on_the_tournament(api_as, director, tournament):
    url = f"{URL}{tournament.pk}/"
    body = api_as(director).get(url).json()
    assert body["system"] == "mcmahon" and body["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    assert body["points"] == {"nbw_absent": 0, "nbw_bye": 1, "mms_absent": 0.5, "mms_bye": 1}
    assert body["handicap_policy"]["kind"] == "nz" and body["state"] == "open"
    response = api_as(director).patch(
        url,
        {
            "rounds": 6,
            "mm_bar": "3d",
            "criteria": ["MMS", "SOSM", "DC"],
            "egf_class": "B",
            "handicap_policy": {"kind": "mcmahon", "correction": 2, "threshold": "2d"},
            "points": {"mms_absent": 0},
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["rounds"], body["mm_bar"], body["egf_class"]) == (6, "3d", "B")
    assert body["handicap_policy"]["threshold"] == "2d" and body["points"]["mms_absent"] == 0
    assert_error(api_as(director).patch(url, {"criteria": ["XYZ"]}, format="json"), 400)
    assert_error(api_as(director).patch(url, {"points": {"mms_bye": 0.3}}, format="json"), 400)


def test_close_over_the_api(api_as, director, outsider, game, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    url = f"{URL}{game.tournament_id}/close/"
    assert_error(api_as(outsider).post(url), 403)
    assert_error(api_as(director).post(url), 409)
    services.game_result_enter(actor=director, game=game, result="B+R")
    services.game_finalise(actor=director, game=game)
    response = api_as(director).post(url)
    assert response.status_code == 200 and response.json()["state"] == "closed"
