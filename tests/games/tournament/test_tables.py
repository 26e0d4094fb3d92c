"""Moving tables after the pairing: the pure numbering, the service and
``/api/v1/tournaments/{id}/rounds/{R}/tables/``; a pinned player's table in the pairing."""

from __future__ import annotations

import pytest

from games.models import Game, TournamentEntry
from games.services import game_finalise, game_result_enter
from games.tournament.engine.tables import TableError, moved, numbered, shifted, swapped
from games.tournament.services.rounds import round_pair
from games.tournament.services.tables import entry_table_pin, round_tables_shift
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter
from tests.games.api_helpers import assert_error


def test_numbering_puts_pinned_games_on_their_tables_and_the_rest_in_order() -> None:
    assert numbered([10, 11, 12], {}) == {10: 1, 11: 2, 12: 3}
    assert numbered([10, 11, 12], {12: 1}) == {12: 1, 10: 2, 11: 3}
    assert numbered([10, 11, 12], {11: 40}) == {11: 40, 10: 1, 12: 2}
    # Two games pinned to one table: the better one keeps it.
    assert numbered([10, 11], {10: 5, 11: 5}) == {10: 5, 11: 1}


def test_shift_swap_and_move_keep_one_game_per_table() -> None:
    assert shifted({1: 1, 2: 2}, 100) == {1: 101, 2: 102}
    with pytest.raises(TableError):
        shifted({1: 1}, -1)
    assert swapped({1: 1, 2: 2, 3: 3}, 1, 3) == {1: 3, 2: 2, 3: 1}
    assert swapped({1: 1}, 1, 9) == {1: 9}
    with pytest.raises(TableError, match="two games"):
        moved({1: 1, 2: 2}, {1: 2})


def url(tournament, r: int = 1) -> str:  # type: ignore[no-untyped-def]
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{r}/tables/"


@pytest.fixture
def paired(tournament, director):  # type: ignore[no-untyped-def]
    """Eight players (4d down to 3k), round 1 paired: four games on tables 1-4."""
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([3, 2, 1, 0, -1, -2, -3, -3], start=1)
    ]
    tournament.system = "mcmahon"
    tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 3
    tournament.save()
    enter(tournament, *players)
    round_pair(actor=director, tournament=tournament, round_number=1)
    return players


def _tables(tournament) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return dict(
        Game.objects.filter(tournament=tournament, round__number=1).values_list("pk", "table")
    )


def test_a_director_swaps_two_tables_and_the_audit_says_before_and_after(
    api_as, director, tournament, paired
):
    before = _tables(tournament)
    at = {t: g for g, t in before.items()}
    response = api_as(director).post(url(tournament), {"swap": [1, 4]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["moved"] == 2
    after = _tables(tournament)
    assert after[at[1]] == 4 and after[at[4]] == 1 and after[at[2]] == 2
    audit = AuditEntry.objects.get(action="round.tables_moved")
    assert audit.old_value["tables"][str(at[1])] == 1 and audit.new_value["tables"][str(at[1])] == 4


def test_moving_a_game_onto_a_taken_table_swaps_them(api_as, director, tournament, paired):
    at = {t: g for g, t in _tables(tournament).items()}
    response = api_as(director).post(url(tournament), {"game": at[3], "table": 1}, format="json")
    assert response.status_code == 200, response.content
    after = _tables(tournament)
    assert after[at[3]] == 1 and after[at[1]] == 3


def test_a_second_room_shifts_every_table_and_results_do_not_stop_it(
    api_as, director, tournament, paired
):
    game = Game.objects.filter(tournament=tournament, round__number=1).first()
    assert game is not None
    game_result_enter(actor=director, game=game, result="B+R")
    game_finalise(actor=director, game=game)
    response = api_as(director).post(url(tournament), {"shift": 100}, format="json")
    assert response.status_code == 200, response.content
    assert sorted(_tables(tournament).values()) == [101, 102, 103, 104]
    game.refresh_from_db()
    assert game.result_display == "B+R"  # the result and the lock stay


def test_renumbering_by_rating_puts_the_strongest_pair_on_table_1(
    api_as, director, tournament, paired
):
    round_tables_shift(actor=director, tournament=tournament, round_number=1, by=10)
    response = api_as(director).post(url(tournament), {"renumber": "rating"}, format="json")
    assert response.status_code == 200, response.content
    first = Game.objects.get(tournament=tournament, round__number=1, table=1)
    assert paired[0].pk in (first.black_id, first.white_id)
    assert sorted(_tables(tournament).values()) == [1, 2, 3, 4]
    again = api_as(director).post(url(tournament), {"renumber": "score"}, format="json")
    assert again.status_code == 200 and sorted(_tables(tournament).values()) == [1, 2, 3, 4]


def test_bad_moves_are_refused_and_nothing_moves(api_as, director, outsider, tournament, paired):
    before = _tables(tournament)
    client = api_as(director)
    assert_error(client.post(url(tournament), {"shift": -1}, format="json"), 400, "table")
    assert_error(client.post(url(tournament), {"swap": [1, 0]}, format="json"), 400, "swap")
    assert_error(client.post(url(tournament), {}, format="json"), 400, "non_field_errors")
    assert_error(
        client.post(url(tournament, 2), {"shift": 1}, format="json"), 400, "round"
    )  # round 2 is not paired
    forbidden = api_as(outsider).post(url(tournament), {"shift": 1}, format="json")
    assert forbidden.status_code == 403
    assert _tables(tournament) == before


def test_a_pinned_player_plays_at_his_table_in_the_next_pairing(
    api_as, director, tournament, paired
):
    weakest = TournamentEntry.objects.get(tournament=tournament, player=paired[-1])
    pin = api_as(director).put(
        f"/api/v1/tournaments/{tournament.pk}/entries/{weakest.pk}/table-pin/",
        {"table_pin": 1},
        format="json",
    )
    assert pin.status_code == 200, pin.content
    round_pair(actor=director, tournament=tournament, round_number=2, accept_unfinished=True)
    game = Game.objects.get(tournament=tournament, round__number=2, table=1)
    assert paired[-1].pk in (game.black_id, game.white_id)
    tables = sorted(
        Game.objects.filter(tournament=tournament, round__number=2).values_list("table", flat=True)
    )
    assert tables == [1, 2, 3, 4]
    assert AuditEntry.objects.filter(action="entry.table_pinned").count() == 1


def test_two_players_cannot_be_pinned_to_one_table(director, tournament, paired):
    a, b = TournamentEntry.objects.filter(tournament=tournament)[:2]
    entry_table_pin(actor=director, entry=a, table=7)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="pinned"):
        entry_table_pin(actor=director, entry=b, table=7)


def test_the_tables_page_moves_tables_and_the_printed_list_and_slips_follow(
    director, outsider, tournament, paired
):
    from django.test import Client
    from django.urls import reverse

    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    page_url = reverse("games:round-tables", args=[tournament.pk, 1])
    page = client.get(page_url)
    assert page.status_code == 200 and b"Swap table" in page.content
    shifted_page = client.post(page_url, {"action": "shift", "by": "100"}, follow=True)
    assert b"4 game(s) moved to new tables" in shifted_page.content
    printed = reverse("admin:games_tournament_pairing_print", args=[tournament.pk, 1])
    assert b"<td>101</td>" in client.get(printed, {"by": "table"}).content
    assert b"table 104" in client.get(printed, {"by": "slips"}).content
    refused = client.post(page_url, {"action": "swap", "a": "101", "b": "x"}, follow=True)
    assert b"Type the two tables to swap." in refused.content
    entry = TournamentEntry.objects.filter(tournament=tournament).first()
    assert entry is not None
    pinned = client.post(page_url, {"action": "pin", "entry": entry.pk, "table": "9"}, follow=True)
    assert b"plays at table 9" in pinned.content
    entry.refresh_from_db()
    assert entry.table_pin == 9
    stranger = Client()
    stranger.force_login(outsider)
    assert stranger.get(page_url).status_code == 404
