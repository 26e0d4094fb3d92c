"""The directors' admin: scoped, writing through services, locked games read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, GameState, Player, Round, Tournament
from games.people.services.grants import (
    DIRECTORS_GROUP,
    director_grant_admin,
    ensure_directors_group,
)
from games.tournament import services as tournament_services
from ops.models import AuditEntry, Job
from tests.factories import TournamentFactory, entered_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_director(director: Any) -> Any:
    director_grant_admin(user=director)
    return director


@pytest.fixture
def as_director(staff_director: Any) -> Client:
    c = Client()
    c.force_login(staff_director)
    return c


@pytest.fixture
def other_tournament(db: Any) -> Any:
    return TournamentFactory(name="Somebody Else's Cup")


@pytest.fixture
def locked(game: Game, director: Any) -> Game:
    services.game_result_enter(actor=director, game=game, result="B+R")
    return services.game_finalise(actor=director, game=game)


def test_the_directors_group_is_made_once() -> None:
    first = ensure_directors_group()
    again = ensure_directors_group()
    assert first.pk == again.pk and first.name == DIRECTORS_GROUP
    assert first.permissions.filter(codename="change_game").exists()
    assert not first.permissions.filter(codename="delete_game").exists()


def test_a_director_sees_only_his_tournaments(
    as_director: Client, tournament: Any, other_tournament: Any
) -> None:
    body = as_director.get(reverse("admin:games_tournament_changelist")).content.decode()
    assert "Wellington Open" in body and "Somebody Else" not in body
    url = reverse("admin:games_tournament_change", args=[other_tournament.pk])
    assert as_director.get(url).status_code == 302  # "does not exist" for him


def test_a_superuser_sees_every_tournament(
    admin_client: Client, tournament: Any, other_tournament: Any
) -> None:
    body = admin_client.get(reverse("admin:games_tournament_changelist")).content.decode()
    assert "Wellington Open" in body and "Somebody Else" in body


def test_the_tournament_page_has_its_rounds_and_each_round_its_games(
    as_director: Client, game: Game
) -> None:
    body = as_director.get(
        reverse("admin:games_tournament_change", args=[game.tournament_id])
    ).content.decode()
    # The games are one click away, per round: the page does not grow with the event.
    assert "enter results" in body and "Liddell Alice" not in body
    assert reverse("admin:games_round_change", args=[game.round_id]) in body
    round_page = as_director.get(reverse("admin:games_round_change", args=[game.round_id]))
    assert round_page.status_code == 200 and "Liddell Alice" in round_page.content.decode()


def test_a_tournament_change_goes_through_the_service(as_director: Client, tournament: Any) -> None:
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    data = _form_data(as_director.get(url), name="Wellington Open 2026")
    response = as_director.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.name == "Wellington Open 2026"
    assert tournament.directors.filter(pk__isnull=False).exists()


def test_games_filter_by_state_round_and_tournament_and_search_by_name(
    as_director: Client, game: Game, tournament: Any
) -> None:
    url = reverse("admin:games_game_changelist")
    assert "Liddell Alice" in as_director.get(url, {"state": "scheduled"}).content.decode()
    assert "Liddell Alice" not in as_director.get(url, {"state": "final"}).content.decode()
    assert "Liddell Alice" in as_director.get(url, {"round__number": "1"}).content.decode()
    assert "Liddell Alice" not in as_director.get(url, {"round__number": "2"}).content.decode()
    assert (
        "Liddell" in as_director.get(url, {"tournament__id__exact": tournament.pk}).content.decode()
    )
    assert "Liddell" in as_director.get(url, {"q": "Builder"}).content.decode()
    assert "Liddell" not in as_director.get(url, {"q": "Nobody"}).content.decode()


def test_a_director_does_not_see_other_tournaments_games(
    as_director: Client, other_tournament: Any
) -> None:
    other = tournament_services.game_create(
        actor=None,
        tournament=other_tournament,
        round_number=1,
        black=entered_player(other_tournament, family_name="Hidden"),
        white=entered_player(other_tournament),
    )
    body = as_director.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Hidden" not in body
    assert as_director.get(reverse("admin:games_game_change", args=[other.pk])).status_code == 302


def test_a_tournament_change_the_service_refuses_is_shown_not_a_500(
    as_director: Client, tournament: Any, game: Game, director: Any
) -> None:
    from tests.games import sgf_samples

    services.game_result_enter(actor=director, game=game, result="B+R", sgf=sgf_samples.SIMPLE)
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    data = _form_data(as_director.get(url), board_size="13")
    response = as_director.post(url, data, follow=True)
    assert response.status_code == 200
    assert "already have records on this board size" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.board_size == 19


def test_a_locked_game_is_read_only_and_a_change_leaves_it_unchanged(
    as_director: Client, locked: Game
) -> None:
    url = reverse("admin:games_game_change", args=[locked.pk])
    page = as_director.get(url)
    assert page.status_code == 200
    assert 'name="table"' not in page.content.decode()
    response = as_director.post(url, {"table": "9", "komi": "0.5", "handicap": "3"})
    assert response.status_code == 403
    locked.refresh_from_db()
    assert (locked.table, locked.handicap, str(locked.komi)) == (1, 0, "6.5")
    assert locked.state == GameState.FINAL and locked.result_display == "B+R"


def test_a_locked_game_cannot_be_deleted(admin_client: Client, locked: Game) -> None:
    url = reverse("admin:games_game_delete", args=[locked.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=locked.pk).exists()


def test_a_pairing_change_goes_through_game_update(as_director: Client, game: Game) -> None:
    url = reverse("admin:games_game_change", args=[game.pk])
    data = {
        "black": game.black_id,
        "white": game.white_id,
        "handicap": "2",
        "komi": "0.5",
        "table": "4",
        "rules": "japanese",
        "submissions-TOTAL_FORMS": "0",
        "submissions-INITIAL_FORMS": "0",
    }
    response = as_director.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert (game.handicap, str(game.komi), game.table) == (2, "0.5", 4)


def add_game(client: Client, tournament: Any, black: Any, white: Any, **fields: str) -> Game:
    """Post the admin's add-game form (round 2, defaults blank) and return the new game."""
    data = {
        "tournament": tournament.pk,
        "round_number": "2",
        "black": black.pk,
        "white": white.pk,
        "handicap": "",
        "komi": "",
        "table": "",
        "rules": "",
        "submissions-TOTAL_FORMS": "0",
        "submissions-INITIAL_FORMS": "0",
        **fields,
    }
    response = client.post(reverse("admin:games_game_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Game.objects.get(round__tournament=tournament, round__number=2, table=data["table"])


def test_adding_a_game_goes_through_game_create(as_director: Client, tournament: Any) -> None:
    b, w = entered_player(tournament), entered_player(tournament)
    g = add_game(as_director, tournament, b, w, handicap="0", table="3")
    assert g.black_id == b.pk
    assert g.round.number == 2 and g.komi == tournament.komi and g.rules == "japanese"


def test_a_game_added_without_a_handicap_takes_the_tournament_policy(
    as_director: Client, tournament: Any
) -> None:
    # nz policy (the default): a 3-stone difference in declared rank gives 3 stones,
    # and the weaker player takes Black whatever order the director typed them in.
    strong = entered_player(tournament, declared_rank=1)  # 2d
    weak = entered_player(tournament, declared_rank=-2)  # 2k
    g = add_game(as_director, tournament, strong, weak, table="4")
    assert (g.black_id, g.white_id, g.handicap) == (weak.pk, strong.pk, 3)


def test_the_result_sheet_enters_a_whole_round(
    as_director: Client, game: Game, tournament: Any
) -> None:
    second = tournament_services.game_create(
        actor=None,
        tournament=tournament,
        round_number=1,
        black=entered_player(tournament),
        white=entered_player(tournament),
        table=2,
    )
    url = reverse("admin:games_round_results", args=[game.round_id])
    page = as_director.get(url)
    assert page.status_code == 200 and f'name="game_{second.pk}"' in page.content.decode()
    response = as_director.post(
        url, {f"game_{game.pk}": "B+R", f"game_{second.pk}": "W+2.5", "finalise": "on"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    second.refresh_from_db()
    assert (game.result_display, game.state) == ("B+R", GameState.FINAL)
    assert (second.result_display, second.state) == ("W+2.5", GameState.FINAL)


def test_a_bad_line_on_the_result_sheet_enters_nothing(
    as_director: Client, game: Game, tournament: Any
) -> None:
    second = tournament_services.game_create(
        actor=None,
        tournament=tournament,
        round_number=1,
        black=entered_player(tournament),
        white=entered_player(tournament),
        table=2,
    )
    url = reverse("admin:games_round_results", args=[game.round_id])
    response = as_director.post(url, {f"game_{game.pk}": "B+R", f"game_{second.pk}": "W+lots"})
    assert response.status_code == 200
    assert f"game {second.pk}" in response.content.decode()
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED and not game.result_reason


def test_the_round_action_leads_to_the_result_sheet(as_director: Client, game: Game) -> None:
    response = as_director.post(
        reverse("admin:games_round_changelist"),
        {"action": "enter_results", "_selected_action": [game.round_id]},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:games_round_results", args=[game.round_id])


def test_another_directors_round_sheet_is_hidden(
    as_director: Client, other_tournament: Any
) -> None:
    rnd = Round.objects.create(tournament=other_tournament, number=1)
    assert as_director.get(reverse("admin:games_round_results", args=[rnd.pk])).status_code == 404


def test_csv_import_page_creates_players(as_director: Client) -> None:
    upload = SimpleUploadedFile("p.csv", b"family_name,given_name,rank\nKim,Ji,4d\nLee,Su,1k\n")
    response = as_director.post(reverse("admin:games_player_import"), {"file": upload})
    assert response.status_code == 302
    assert Player.objects.filter(family_name__in=["Kim", "Lee"]).count() == 2


def test_csv_import_page_reports_bad_rows_and_creates_nothing(as_director: Client) -> None:
    upload = SimpleUploadedFile("p.csv", b"family_name,rank\nKim,4d\nLee,99k\n")
    response = as_director.post(reverse("admin:games_player_import"), {"file": upload})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing was imported" in body and "<td>3</td><td>rank</td>" in body
    assert not Player.objects.filter(family_name="Kim").exists()


def test_the_player_changelist_links_to_the_import(as_director: Client) -> None:
    body = as_director.get(reverse("admin:games_player_changelist")).content.decode()
    assert reverse("admin:games_player_import") in body


def test_adding_a_player_goes_through_player_create(as_director: Client) -> None:
    data = {"family_name": "Cho", "given_name": "Chikun", "rank": "9d", "country": "KR"}
    response = as_director.post(reverse("admin:games_player_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert str(Player.objects.get(family_name="Cho").rank) == "9d"


def test_the_audit_trail_is_read_only_for_directors(as_director: Client, locked: Game) -> None:
    entry = AuditEntry.objects.first()
    assert entry is not None
    assert as_director.get(reverse("admin:ops_auditentry_changelist")).status_code == 200
    assert (
        as_director.get(reverse("admin:ops_auditentry_change", args=[entry.pk])).status_code == 200
    )
    assert as_director.get(reverse("admin:ops_auditentry_add")).status_code == 403
    assert (
        as_director.post(
            reverse("admin:ops_auditentry_change", args=[entry.pk]), {"action": "x"}
        ).status_code
        == 403
    )
    delete = reverse("admin:ops_auditentry_delete", args=[entry.pk])
    assert as_director.post(delete, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_the_audit_trails_old_admin_links_lead_to_its_new_place(as_director: Client) -> None:
    response = as_director.get("/admin/referee/auditentry/7/change/?q=x")
    assert response.status_code == 302
    assert response["Location"] == "/admin/ops/auditentry/7/change/?q=x"


def test_jobs_are_read_only_with_progress(as_director: Client, staff_director: Any) -> None:
    job = Job.objects.create(kind="rescore", total=10, done=4, created_by=staff_director)
    body = as_director.get(reverse("admin:ops_job_changelist")).content.decode()
    assert "<progress" in body and "4/10" in body
    assert as_director.get(reverse("admin:ops_job_add")).status_code == 403
    assert (
        as_director.post(
            reverse("admin:ops_job_delete", args=[job.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_a_player_is_not_let_into_the_admin(alice: Any) -> None:
    c = Client()
    c.force_login(alice.user)
    assert c.get(reverse("admin:games_game_changelist")).status_code == 302


def _form_data(page: Any, **changes: Any) -> dict[str, Any]:
    """The change form's values as a browser would post them, with ``changes``."""
    import json

    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, list | dict) and name in ("criteria", "category_limits"):
            value = json.dumps(value)
        elif isinstance(value, bool):
            value = "on" if value else ""
        data[name] = "" if value is None else value
    data.update(
        {
            "rounds-TOTAL_FORMS": "0",
            "rounds-INITIAL_FORMS": "0",
            "games-TOTAL_FORMS": "0",
            "games-INITIAL_FORMS": "0",
            **changes,
        }
    )
    return {k: v for k, v in data.items() if v != ""}


def test_a_directors_group_member_adds_a_tournament(
    as_director: Client, director: Any, settings: Any
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    page = as_director.get(reverse("admin:games_tournament_add"))
    assert page.status_code == 200
    data = _form_data(
        page,
        name="Club Night",
        start_date="2026-06-01",
        end_date="2026-06-01",
        rules="japanese",
        system="swiss",
        number_of_rounds="4",
    )
    response = as_director.post(reverse("admin:games_tournament_add"), data, follow=True)
    assert response.status_code == 200, response.content.decode()[:2000]
    created = Tournament.objects.get(name="Club Night")
    assert created.system == "swiss" and created.number_of_rounds == 4
    assert created.directors.filter(pk=director.pk).exists()


def test_settings_and_officials_change_through_their_services(
    as_director: Client, tournament: Any, referee: Any
) -> None:
    from ops.models import AuditEntry
    from tests.factories import UserFactory

    co = UserFactory(username="co")
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    page = as_director.get(url)
    assert "check-in" in page.content.decode()
    directors = [str(u.pk) for u in tournament.directors.all()] + [str(co.pk)]
    data = _form_data(page, mm_bar="2", directors=directors, referees=[str(referee.pk)])
    response = as_director.post(url, data, follow=True)
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.mm_bar == 2 and tournament.directors.filter(pk=co.pk).exists()
    assert AuditEntry.objects.filter(action="tournament.settings_changed").exists()
    assert AuditEntry.objects.filter(action="tournament.officials_changed").exists()


def test_the_close_action_refuses_while_a_result_is_pending(
    as_director: Client, game: Game
) -> None:
    response = as_director.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "close", "_selected_action": [game.tournament_id]},
        follow=True,
    )
    assert "no final result yet" in response.content.decode()
