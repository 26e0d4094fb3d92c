"""The service layer: every write path for players, tournaments, games and results."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games import services
from games.models import Club, Game, GameState, ResultSubmission, SubmissionKind
from games.people import services as people
from games.services import LOCKED_MESSAGE, GameLockedError
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from ops.services import StateConflict
from ratings.ranks import Rank
from tests.factories import UserFactory, entered_player
from tests.games import sgf_samples


def fields_of(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict


# --------------------------------------------------------------------------- players


def test_director_creates_a_player_with_a_rank_and_a_new_club(director, tournament):
    player = people.player_create(
        actor=director,
        family_name=" Cho ",
        given_name="Hun",
        rank="2d",
        club="Wellington",
        country="nz",
        egd_pin="",
    )
    assert player.family_name == "Cho"
    assert player.rank == Rank.dan(2)
    assert player.country == "NZ"
    assert player.club is not None and player.club.name == "Wellington"
    assert player.egd_pin is None


def test_it_reuses_a_club_of_the_same_name(director, tournament):
    club = Club.objects.create(name="Wellington", country="NZ")
    player = people.player_create(
        actor=director, family_name="Cho", rank=Rank.kyu(3), club="wellington", country="NZ"
    )
    assert player.club == club
    assert Club.objects.count() == 1


def test_it_rejects_a_rank_off_the_ladder(director, tournament):
    with pytest.raises(ValidationError) as exc:
        people.player_create(actor=director, family_name="Cho", rank="31k")
    assert "rank" in fields_of(exc.value)


def test_it_rejects_a_malformed_egd_pin(director, tournament):
    with pytest.raises(ValidationError) as exc:
        people.player_create(actor=director, family_name="Cho", rank="1k", egd_pin="123")
    assert "egd_pin" in fields_of(exc.value)


def test_outsider_cannot_create_players(outsider):
    with pytest.raises(PermissionDenied):
        people.player_create(actor=outsider, family_name="Cho", rank="1k")


def test_player_update_changes_only_the_given_fields(director, tournament, alice):
    people.player_update(actor=director, player=alice, rank="1d", club="Auckland")
    alice.refresh_from_db()
    assert alice.rank == Rank.dan(1)
    assert alice.family_name == "Liddell"
    assert alice.club is not None and alice.club.name == "Auckland"


# --------------------------------------------------------------------------- tournaments


def test_tournament_create_uses_the_presets_even_komi_and_makes_the_actor_director(db, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    staff = UserFactory(is_staff=True)
    t = tournament_services.tournament_create(
        actor=staff,
        name="NZ Champs",
        start_date=dt.date(2026, 5, 1),
        end_date=dt.date(2026, 5, 2),
        rules="chinese",
    )
    assert t.komi == Decimal("7.5")
    assert list(t.directors.all()) == [staff]


def test_tournament_create_rejects_unknown_rules_and_odd_komi(db):
    staff = UserFactory(is_staff=True)
    kwargs = dict(
        actor=staff, name="X", start_date=dt.date(2026, 5, 1), end_date=dt.date(2026, 5, 2)
    )
    with pytest.raises(ValidationError) as exc:
        tournament_services.tournament_create(**kwargs, rules="klingon")
    assert "rules" in fields_of(exc.value)
    with pytest.raises(ValidationError) as exc:
        tournament_services.tournament_create(**kwargs, rules="nz", komi="6.3")
    assert "komi" in fields_of(exc.value)


def test_tournament_create_rejects_an_end_before_the_start(db):
    staff = UserFactory(is_staff=True)
    with pytest.raises(ValidationError):
        tournament_services.tournament_create(
            actor=staff,
            name="X",
            start_date=dt.date(2026, 5, 2),
            end_date=dt.date(2026, 5, 1),
            rules="aga",
        )


def test_a_user_without_permission_cannot_create_a_tournament(outsider):
    with pytest.raises(PermissionDenied):
        tournament_services.tournament_create(
            actor=outsider,
            name="X",
            start_date=dt.date(2026, 5, 1),
            end_date=dt.date(2026, 5, 1),
            rules="aga",
        )


def test_round_get_or_create_returns_the_same_round(director, tournament):
    first = tournament_services.round_get_or_create(actor=director, tournament=tournament, number=2)
    again = tournament_services.round_get_or_create(actor=director, tournament=tournament, number=2)
    assert first.pk == again.pk


# --------------------------------------------------------------------------- pairings


def test_game_create_takes_the_handicap_komi_of_the_tournaments_policy(director, tournament):
    """Policy nz: no komi with one stone (New Zealand Rules), the preset's from two;
    egf: half a point, one stone included."""
    black, white = entered_player(tournament), entered_player(tournament)
    nz = tournament_services.game_create(
        actor=director,
        tournament=tournament,
        round_number=1,
        black=black.pk,
        white=white.pk,
        handicap=1,
    )
    assert tournament.handicap_policy == "nz" and nz.komi == Decimal(0)
    tournament.handicap_policy = "egf"
    tournament.save()
    game = tournament_services.game_create(
        actor=director,
        tournament=tournament,
        round_number=2,
        black=black.pk,
        white=white.pk,
        handicap=3,
    )
    assert game.komi == Decimal("0.5")
    assert game.rules == "japanese"
    assert game.round.number == 2


def test_a_player_cannot_play_himself(director, tournament, alice):
    with pytest.raises(ValidationError) as exc:
        tournament_services.game_create(
            actor=director, tournament=tournament, round_number=1, black=alice, white=alice
        )
    assert "white" in fields_of(exc.value)


def test_a_player_cannot_have_two_games_in_one_round(director, tournament, game, alice):
    other = entered_player(tournament)
    with pytest.raises(ValidationError) as exc:
        tournament_services.game_create(
            actor=director, tournament=tournament, round_number=1, black=other, white=alice
        )
    assert "already has a game in round 1" in fields_of(exc.value)["white"][0]


def test_unknown_player_ids_name_the_field(director, tournament, alice):
    with pytest.raises(ValidationError) as exc:
        tournament_services.game_create(
            actor=director, tournament=tournament, round_number=1, black=alice, white=999999
        )
    assert "white" in fields_of(exc.value)


def test_only_directors_pair_games(outsider, tournament, alice, bob):
    with pytest.raises(PermissionDenied):
        tournament_services.game_create(
            actor=outsider, tournament=tournament, round_number=3, black=alice, white=bob
        )


# --------------------------------------------------------------------------- submit


def test_alice_submits_her_result(game, alice):
    game = services.game_result_submit(actor=alice.user, game=game, result="W+3.5")
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    assert game.result_display == "W+3.5"
    assert game.result_submitted_by == alice
    sub = ResultSubmission.objects.get(game=game)
    assert (sub.kind, sub.result, sub.player) == (SubmissionKind.SUBMIT, "W+3.5", alice)


def test_outsider_cannot_submit_a_result(game, outsider, director):
    for actor in (outsider, director):
        with pytest.raises(PermissionDenied):
            services.game_result_submit(actor=actor, game=game, result="B+R")
    assert not ResultSubmission.objects.exists()


@pytest.mark.parametrize("bad", ["", "B+", "X+1", "B+1.3", "?", "W+Q"])
def test_it_rejects_an_unreadable_result(game, alice, bad):
    if bad == "B+":  # a win by score with no margin is a readable claim
        services.game_result_submit(actor=alice.user, game=game, result=bad)
        return
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(actor=alice.user, game=game, result=bad)
    assert "result" in fields_of(exc.value)


def test_a_record_is_kept_with_the_submission(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+R", sgf=sgf_samples.SIMPLE
    )
    assert game.sgf == sgf_samples.SIMPLE
    assert game.sgf_warnings == []


def test_a_record_as_bytes_is_stored_as_text(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+R", sgf=sgf_samples.SIMPLE.encode()
    )
    assert game.sgf == sgf_samples.SIMPLE


def test_a_gbk_record_without_ca_is_stored_as_the_text_it_was_read_as(game, alice):
    # As the Fox server writes its records: GBK bytes and no CA.
    text = sgf_samples.SIMPLE.replace("(;", "(;PB[聂卫平]", 1)
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+R", sgf=text.encode("gbk")
    )
    assert game.sgf == text
    assert "no CA property names the charset: the text was read as GB18030" in game.sgf_warnings


def test_a_broken_record_is_refused_with_its_line_and_property_and_nothing_is_saved(game, alice):
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(
            actor=alice.user, game=game, result="B+R", sgf=sgf_samples.BROKEN
        )
    message = fields_of(exc.value)["sgf"][0]
    assert "line 3" in message and "property W" in message
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED and game.sgf == ""
    assert ResultSubmission.objects.count() == 0


def test_an_illegal_move_is_kept_as_evidence_with_a_warning(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+R", sgf=sgf_samples.ILLEGAL
    )
    assert "move 2, White Q16: occupied" in game.sgf_warnings
    assert game.sgf == sgf_samples.ILLEGAL


def test_a_record_for_another_board_size_is_refused(game, alice):
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(actor=alice.user, game=game, result="B+R", sgf=sgf_samples.NINE)
    assert "9x9" in fields_of(exc.value)["sgf"][0]


def test_a_record_whose_result_differs_gets_a_warning(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="W+2.5", sgf=sgf_samples.SIMPLE
    )
    assert any("RE[B+R]" in w for w in game.sgf_warnings)


def test_dead_stones_are_checked_against_the_final_position(game, alice):
    game = services.game_result_submit(
        actor=alice.user,
        game=game,
        result="B+10.5",
        sgf=sgf_samples.SIMPLE,
        dead_stones="D16, D4 dq",
    )
    assert game.dead_stones == ["D16", "D4", "D3"]


def test_a_dead_stone_on_an_empty_point_is_refused(game, alice):
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(
            actor=alice.user,
            game=game,
            result="B+10.5",
            sgf=sgf_samples.SIMPLE,
            dead_stones=["K10"],
        )
    assert "K10" in fields_of(exc.value)["dead_stones"][0]


def test_half_a_chain_cannot_be_dead(game, alice):
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(
            actor=alice.user,
            game=game,
            result="B+10.5",
            sgf=sgf_samples.SIMPLE,
            dead_stones=["D4"],
        )
    message = fields_of(exc.value)["dead_stones"][0]
    assert "D4" in message and "D3" in message


def test_dead_stones_come_from_the_records_markup_when_not_given(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+20.5", sgf=sgf_samples.MARKUP
    )
    assert game.dead_stones == ["D16"]


def test_without_a_record_dead_stones_are_only_read_as_points(game, alice):
    game = services.game_result_submit(
        actor=alice.user, game=game, result="B+20.5", dead_stones=["dd", "Q4"]
    )
    assert game.dead_stones == ["D16", "Q4"]
    with pytest.raises(ValidationError) as exc:
        services.game_result_submit(actor=alice.user, game=game, result="B+1.5", dead_stones="Z99")
    assert "dead_stones" in fields_of(exc.value)


def test_a_player_may_resubmit_and_the_claim_changes_hands(game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    game = services.game_result_submit(actor=bob.user, game=game, result="W+R")
    assert game.result_submitted_by == bob
    assert ResultSubmission.objects.filter(kind=SubmissionKind.SUBMIT).count() == 2


# --------------------------------------------------------------------------- confirm / contest


def test_the_opponent_confirms_and_the_game_is_locked(game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    game = services.game_result_confirm(actor=bob.user, game=game)
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED and game.is_locked and game.locked_at
    assert ResultSubmission.objects.filter(kind=SubmissionKind.CONFIRM, player=bob).count() == 1


def test_the_submitter_cannot_confirm_his_own_result(game, alice):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    with pytest.raises(StateConflict, match="your opponent must confirm"):
        services.game_result_confirm(actor=alice.user, game=game)


def test_it_rejects_a_second_confirmation(game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_confirm(actor=bob.user, game=game)
    with pytest.raises(GameLockedError):
        services.game_result_confirm(actor=bob.user, game=game)
    assert ResultSubmission.objects.filter(kind=SubmissionKind.CONFIRM).count() == 1


def test_there_is_nothing_to_confirm_before_a_submission(game, bob):
    with pytest.raises(StateConflict, match="no submitted result"):
        services.game_result_confirm(actor=bob.user, game=game)


def test_outsider_cannot_confirm(game, alice, outsider):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    with pytest.raises(PermissionDenied):
        services.game_result_confirm(actor=outsider, game=game)


def test_the_opponent_contests_and_the_game_is_disputed(game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    game = services.game_result_contest(actor=bob.user, game=game, reason="I won on time")
    assert game.state == GameState.DISPUTED
    sub = ResultSubmission.objects.get(kind=SubmissionKind.CONTEST)
    assert sub.comment == "I won on time" and sub.player == bob


def test_a_disputed_game_takes_no_more_player_submissions(game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_contest(actor=bob.user, game=game)
    with pytest.raises(StateConflict, match="disputed"):
        services.game_result_submit(actor=bob.user, game=game, result="W+T")
    with pytest.raises(StateConflict, match="disputed"):
        services.game_result_confirm(actor=bob.user, game=game)


# --------------------------------------------------------------------------- directors


def test_a_directors_audited_correction_leaves_the_dispute_to_the_referee(
    game, alice, bob, director
):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_contest(actor=bob.user, game=game)
    game = services.game_result_enter(actor=director, game=game, result="W+T", comment="clock")
    # Only the dispute's closing takes the game out of "disputed": nothing locks it before.
    assert game.state == GameState.DISPUTED and game.result_display == "W+T"
    entry = AuditEntry.objects.get(action="game.result_corrected")
    assert entry.actor == director
    assert entry.old_value["result"] == "B+R" and entry.old_value["state"] == "disputed"
    assert entry.new_value["result"] == "W+T"
    assert ResultSubmission.objects.filter(kind=SubmissionKind.DIRECTOR).count() == 1


def test_players_cannot_overrule_a_directors_entry(game, alice, bob, director):
    services.game_result_enter(actor=director, game=game, result="B+R")
    with pytest.raises(StateConflict, match="director"):
        services.game_result_submit(actor=alice.user, game=game, result="W+R")
    with pytest.raises(StateConflict, match="director"):
        services.game_result_confirm(actor=bob.user, game=game)


def test_only_directors_enter_results(game, referee, alice):
    for actor in (referee, alice.user):
        with pytest.raises(PermissionDenied):
            services.game_result_enter(actor=actor, game=game, result="B+R")


def test_a_director_finalises_with_an_audit_entry(game, director):
    services.game_result_enter(actor=director, game=game, result="B+1.5")
    game = services.game_finalise(actor=director, game=game)
    assert game.state == GameState.FINAL and game.locked_at is not None
    assert AuditEntry.objects.filter(action="game.finalised", actor=director).count() == 1


def test_a_game_without_a_result_cannot_be_finalised(game, director):
    with pytest.raises(StateConflict, match="no result"):
        services.game_finalise(actor=director, game=game)


def test_round_results_enter_sets_every_result(director, tournament, game):
    other = tournament_services.game_create(
        actor=director,
        tournament=tournament,
        round_number=1,
        black=entered_player(tournament),
        white=entered_player(tournament),
    )
    other.komi = Decimal(7)  # a jigo needs a whole-number komi
    other.save()
    games = services.round_results_enter(
        actor=director, round=game.round, results=[(game.pk, "B+R"), (other.pk, "0")]
    )
    assert [g.result_display for g in games] == ["B+R", "0"]
    assert AuditEntry.objects.filter(action="game.result_entered").count() == 2


def test_round_results_enter_is_all_or_nothing_and_names_each_bad_line(director, game):
    with pytest.raises(ValidationError) as exc:
        services.round_results_enter(
            actor=director,
            round=game.round,
            results=[(game.pk, "B+R"), (424242, "W+R"), (game.pk, "W+R"), ("x", "B+1")],
        )
    errors = fields_of(exc.value)["results"]
    assert errors[0].startswith("line 2, game 424242")
    assert errors[1].startswith(f"table {game.table}, line 3, game {game.pk}")
    assert errors[2].startswith("line 4")
    game.refresh_from_db()
    assert game.result_display == "" and not ResultSubmission.objects.exists()


# --------------------------------------------------------------------------- locked games


@pytest.fixture(params=["confirmed", "final"])
def locked_game(request, game, alice, bob, director):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    if request.param == "confirmed":
        return services.game_result_confirm(actor=bob.user, game=game)
    return services.game_finalise(actor=director, game=game)


def _attempts(game, alice, bob, director):
    yield "resubmit", lambda: services.game_result_submit(actor=alice.user, game=game, result="W+R")
    yield (
        "opponent submit",
        lambda: services.game_result_submit(actor=bob.user, game=game, result="W+R"),
    )
    yield "confirm", lambda: services.game_result_confirm(actor=bob.user, game=game)
    yield "contest", lambda: services.game_result_contest(actor=bob.user, game=game)
    yield "enter", lambda: services.game_result_enter(actor=director, game=game, result="W+R")
    yield "finalise", lambda: services.game_finalise(actor=director, game=game)
    yield "update", lambda: tournament_services.game_update(actor=director, game=game, komi="0.5")


def test_nothing_changes_a_locked_game(locked_game, alice, bob, director):
    before = Game.objects.values().get(pk=locked_game.pk)
    submissions = ResultSubmission.objects.count()
    for name, attempt in _attempts(locked_game, alice, bob, director):
        with pytest.raises(GameLockedError) as exc:
            attempt()
        assert exc.value.message == LOCKED_MESSAGE, name
    with pytest.raises(ValidationError) as exc:
        services.round_results_enter(
            actor=director, round=locked_game.round, results=[(locked_game.pk, "W+R")]
        )
    assert LOCKED_MESSAGE in fields_of(exc.value)["results"][0]
    assert Game.objects.values().get(pk=locked_game.pk) == before
    assert ResultSubmission.objects.count() == submissions
