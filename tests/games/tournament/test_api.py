"""/api/v1/tournaments/."""

from __future__ import annotations

from django.contrib.auth.models import Permission
from django.utils import timezone

from games.models import Game, GameState, Player, ResultReason, Round, Tournament, TournamentEntry
from tests.factories import TournamentFactory, UserFactory
from tests.games.api_helpers import assert_error

URL = "/api/v1/tournaments/"
NEW = {"name": "NZ Champs", "start_date": "2026-05-01", "end_date": "2026-05-02", "rules": "nz"}


def test_anyone_lists_tournaments_in_two_queries(api, django_assert_num_queries, db):
    TournamentFactory.create_batch(5)
    with django_assert_num_queries(2):
        response = api.get(URL)
    assert response.json()["count"] == 5


def test_a_tournament_detail(api, tournament):
    body = api.get(f"{URL}{tournament.pk}/").json()
    assert body["name"] == "Wellington Open" and body["komi"] == "6.5"
    assert_error(api.get(f"{URL}424242/"), 404)


def test_staff_create_a_tournament_with_the_presets_komi(api_as, db, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    staff = UserFactory(is_staff=True)
    response = api_as(staff).post(URL, NEW, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["komi"] == "7.0"
    assert Tournament.objects.get().directors.filter(pk=staff.pk).exists()


def test_a_user_with_the_add_permission_creates_a_tournament(api_as, db, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    response = api_as(user).post(URL, {**NEW, "komi": "0.5", "board_size": 13}, format="json")
    assert response.status_code == 201
    assert response.json()["board_size"] == 13


def test_a_director_of_another_tournament_cannot_create_one(api_as, director, tournament):
    assert_error(api_as(director).post(URL, NEW, format="json"), 403)


def test_bad_tournament_input_names_the_fields(api_as, db):
    client = api_as(UserFactory(is_staff=True))
    assert_error(client.post(URL, {**NEW, "rules": "klingon"}, format="json"), 400, "rules")
    assert_error(client.post(URL, {**NEW, "komi": "6.3"}, format="json"), 400, "komi")
    assert_error(client.post(URL, {**NEW, "start_date": "soon"}, format="json"), 400, "start_date")
    assert_error(client.post(URL, {**NEW, "board_size": 40}, format="json"), 400, "board_size")
    assert_error(client.post(URL, {**NEW, "end_date": "2026-04-01"}, format="json"), 400)
    assert Tournament.objects.count() == 0


def test_a_director_renames_his_tournament(api_as, director, tournament):
    response = api_as(director).patch(
        f"{URL}{tournament.pk}/", {"name": "Capital Open"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["name"] == "Capital Open"


def test_the_referee_may_see_but_not_change_the_tournament(api_as, referee, tournament):
    client = api_as(referee)
    assert client.get(f"{URL}{tournament.pk}/").status_code == 200
    assert_error(client.patch(f"{URL}{tournament.pk}/", {"name": "Mine"}, format="json"), 403)


def test_direct_confrontation_on_a_1100_player_chain_answers_200(api, tournament):
    # Every player on one win, the wins a chain of 1,100 (see the engine's test): the
    # direct-confrontation search once recursed past Python's limit and answered 500.
    n = 1100
    players = Player.objects.bulk_create(
        Player(family_name=f"P{k:04d}", given_name="", declared_rank=-5) for k in range(1, n + 1)
    )
    TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=tournament, player=p, rank=-5) for p in players
    )
    r1, r2 = (Round.objects.create(tournament=tournament, number=k) for k in (1, 2))
    pairs = [(r1, k, k + 1, "score") for k in range(0, n - 1, 2)]
    pairs += [(r2, k, k + 1, "score") for k in range(1, n - 1, 2)]
    pairs.append((r2, n - 1, 0, ResultReason.FORFEIT))  # a win by default: DC ignores it
    now = timezone.now()
    Game.objects.bulk_create(
        Game(
            tournament=tournament,
            round=rnd,
            black=players[b],
            white=players[w],
            komi=tournament.komi,
            rules=tournament.rules,
            state=GameState.FINAL,
            locked_at=now,
            result_winner="B",
            result_reason=reason,
        )
        for rnd, b, w, reason in pairs
    )
    response = api.get(f"{URL}{tournament.pk}/standings/?criteria=NBW,DC")
    assert response.status_code == 200, response.content[:300]
    rows = response.json()["rows"]
    assert len(rows) == n
    assert [row["place"] for row in rows[:3]] == [1, 2, 3]
