"""Rated play needs the players' own side: games held from the ratings until released.

The attack: a director rates made-up games for players of another director's event.
A past rated event a director imports waits for a federation official.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from games.models import Game, GameState, Player, Tournament
from games.people.services.grants import director_grant_admin, federation_official_grant
from games.tournament import services as tournament_services
from ops.models import AuditAction, AuditEntry
from ratings.models import HoldReason, RatingHistory, RatingHold
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, enter

SIMPLE_MM = Path(__file__).resolve().parents[1] / "data" / "opengotha" / "pairgoth-simplemm.xml"
TOURNAMENTS = "/api/v1/tournaments/"
HOLDS = "/api/v1/ratings/holds/"


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


@pytest.fixture
def inline_jobs(monkeypatch: Any) -> None:
    """The ratings job runs at once (its promotion evaluation is not needed here)."""
    import ratings.tasks
    from ratings.services import ratings_job_run

    monkeypatch.setattr(
        ratings.tasks.ratings_recompute, "delay", lambda job_id: ratings_job_run(job_id=job_id)
    )
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", lambda **kw: None)


@pytest.fixture
def b_director(db: Any) -> Any:
    return UserFactory(username="bdirector", email="b@example.org")


@pytest.fixture
def b_players(b_director: Any) -> tuple[Player, Player]:
    """Kim and Lee, first entered by B's "Cup B" (B's own players), no accounts."""
    cup_b = TournamentFactory(name="Cup B", start_date=dt.date(2026, 1, 10))
    cup_b.directors.add(b_director)
    kim = PlayerFactory(family_name="Kim", given_name="Ji", user=None, declared_rank=-2)
    lee = PlayerFactory(family_name="Lee", given_name="Su", user=None, declared_rank=-1)
    enter(cup_b, kim, lee)
    return kim, lee


@pytest.fixture
def rival(db: Any) -> Any:
    user = UserFactory(username="rival", email="rival@example.org", is_staff=True)
    director_grant_admin(user=user)
    return user


@pytest.fixture
def official(db: Any) -> Any:
    user = UserFactory(username="official", email="fed@example.org")
    federation_official_grant(actor=None, user=user)
    return user


def _rated_today(api_as: Any, director: Any, *players: Player) -> Tournament:
    """The attack's steps: a rated event dated today, the players entered, a game
    invented and finalised, the event closed, all over the API but the game's result."""
    today = str(timezone.localdate())
    body = {"name": "Made up", "start_date": today, "end_date": today, "rules": "japanese"}
    response = api_as(director).post(TOURNAMENTS, body, format="json")
    assert response.status_code == 201, response.content
    t = Tournament.objects.get(pk=response.json()["id"])
    enter(t, *players)
    game = tournament_services.game_create(
        actor=director, tournament=t, round_number=1, black=players[0], white=players[1], table=1
    )
    Game.objects.filter(pk=game.pk).update(
        state=GameState.FINAL, locked_at=timezone.now(), result_winner="B", result_reason="score"
    )
    response = api_as(director).post(f"{TOURNAMENTS}{t.pk}/close/")
    assert response.status_code == 200, response.content
    return t


def test_a_directors_made_up_game_between_anothers_players_is_held_until_their_director_releases_it(
    api_as: Any,
    rival: Any,
    b_director: Any,
    b_players: tuple[Player, Player],
    inline_jobs: None,
    on_commit: Any,
) -> None:
    kim, lee = b_players
    with on_commit(execute=True):
        t = _rated_today(api_as, rival, kim, lee)
    held = RatingHold.objects.filter(tournament=t)
    assert {h.player_id for h in held} == {kim.pk, lee.pk}
    assert all(h.reason == HoldReason.NOT_OWN and h.created_by == rival for h in held)
    assert not RatingHistory.objects.filter(player__in=[kim, lee]).exists()
    # B hears of it, once, naming both players.
    (notice,) = [m for m in mail.outbox if m.to == ["b@example.org"]]
    assert "Made up" in notice.subject and "Kim Ji" in notice.body and "Lee Su" in notice.body

    # The rival cannot release his own event's holds; B lists and releases them.
    kim_hold = held.get(player=kim)
    response = api_as(rival).post(f"{HOLDS}{kim_hold.pk}/release/")
    assert response.status_code == 403
    assert api_as(rival).get(HOLDS).json() == []
    assert {row["player"] for row in api_as(b_director).get(HOLDS).json()} == {kim.pk, lee.pk}
    with on_commit(execute=True):
        assert api_as(b_director).post(f"{HOLDS}{kim_hold.pk}/release/").status_code == 200
    assert not RatingHistory.objects.filter(player__in=[kim, lee]).exists()  # Lee still held
    again = api_as(b_director).post(f"{HOLDS}{kim_hold.pk}/release/")
    assert again.status_code == 409
    with on_commit(execute=True):
        lee_hold = held.get(player=lee)
        assert api_as(b_director).post(f"{HOLDS}{lee_hold.pk}/release/").status_code == 200
    assert RatingHistory.objects.filter(player=kim, tournament=t).exists()
    released = AuditEntry.objects.filter(action=AuditAction.RATINGS_HOLD_RELEASED)
    assert {(a.actor, a.new_value["player"]) for a in released} == {
        (b_director, kim.pk),
        (b_director, lee.pk),
    }


def test_a_director_rates_the_players_his_own_event_entered_first(
    api_as: Any, rival: Any, inline_jobs: None, on_commit: Any
) -> None:
    ann, bob = PlayerFactory(user=None), PlayerFactory(user=None)
    with on_commit(execute=True):
        t = _rated_today(api_as, rival, ann, bob)
    assert not RatingHold.objects.exists()
    assert RatingHistory.objects.filter(player=ann, tournament=t).exists()


def test_a_released_event_makes_its_director_one_who_answers_for_the_player(
    api_as: Any,
    rival: Any,
    official: Any,
    b_players: tuple[Player, Player],
    inline_jobs: None,
    on_commit: Any,
) -> None:
    """An official releases Kim's games at the rival's first event: from then on the
    rival answers for Kim, and his next event is not held for him."""
    kim, lee = b_players
    ann = PlayerFactory(user=None)
    first = _rated_today(api_as, rival, kim, ann)
    hold = RatingHold.objects.get(tournament=first, player=kim)
    outsider = UserFactory(username="outsider")
    assert api_as(outsider).post(f"{HOLDS}{hold.pk}/release/").status_code == 403
    assert api_as(official).post(f"{HOLDS}{hold.pk}/release/").status_code == 200
    second = _rated_today(api_as, rival, kim, lee)
    assert list(RatingHold.objects.filter(tournament=second).values_list("player", flat=True)) == [
        lee.pk
    ]


def test_a_federation_officials_close_holds_nothing(
    api_as: Any, official: Any, b_players: tuple[Player, Player]
) -> None:
    official.is_staff = True
    official.save(update_fields=["is_staff"])
    t = _rated_today(api_as, official, *b_players)
    assert not RatingHold.objects.filter(tournament=t).exists()


def test_a_director_imports_a_past_rated_event_held_for_an_officials_release(
    api_as: Any, rival: Any, official: Any, settings: Any, inline_jobs: None, on_commit: Any
) -> None:
    """The sample file's event is years old, before the window a director may rate: the
    import is kept but held; only a federation official releases it."""
    settings.GOREF_RATED_BACKDATE_DAYS = 90
    upload = SimpleUploadedFile("t.xml", SIMPLE_MM.read_bytes(), content_type="text/xml")
    response = api_as(rival).post(f"{TOURNAMENTS}import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["held"] is True
    t = Tournament.objects.get(pk=response.json()["tournament"])
    hold = RatingHold.objects.get(tournament=t)
    assert hold.player is None and hold.reason == HoldReason.PAST
    # Its director closes it (the hold, not a refusal, keeps it from the ratings).
    with on_commit(execute=True):
        assert api_as(rival).post(f"{TOURNAMENTS}{t.pk}/close/").status_code == 200
    assert not RatingHistory.objects.filter(tournament=t).exists()
    assert api_as(rival).post(f"{HOLDS}{hold.pk}/release/").status_code == 403
    with on_commit(execute=True):
        assert api_as(official).post(f"{HOLDS}{hold.pk}/release/").status_code == 200
    assert RatingHistory.objects.filter(tournament=t).exists()
    audit = AuditEntry.objects.get(action=AuditAction.RATINGS_HOLD_RELEASED)
    assert audit.actor == official and audit.new_value["reason"] == HoldReason.PAST


def test_an_officials_import_of_a_past_event_is_not_held(
    api_as: Any, official: Any, settings: Any
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 90
    official.is_staff = True
    official.save(update_fields=["is_staff"])
    upload = SimpleUploadedFile("t.xml", SIMPLE_MM.read_bytes(), content_type="text/xml")
    response = api_as(official).post(f"{TOURNAMENTS}import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["held"] is False and not RatingHold.objects.exists()


def test_the_players_director_releases_in_the_admin_and_the_rival_sees_nothing_there(
    api_as: Any, client: Any, rival: Any, b_director: Any, b_players: tuple[Player, Player]
) -> None:
    from django.urls import reverse

    t = _rated_today(api_as, rival, *b_players)
    ids = list(RatingHold.objects.filter(tournament=t).values_list("pk", flat=True))
    url = reverse("admin:ratings_ratinghold_changelist")
    director_grant_admin(user=b_director)
    b_director.is_staff = True
    b_director.save(update_fields=["is_staff"])
    client.force_login(rival)
    listed = client.get(url)
    assert listed.status_code == 200 and "Kim Ji" not in listed.content.decode()
    client.post(url, {"action": "release", "_selected_action": ids})
    assert RatingHold.objects.filter(pk__in=ids, released_at__isnull=True).count() == 2
    client.force_login(b_director)
    assert "Kim Ji" in client.get(url).content.decode()
    client.post(url, {"action": "release", "_selected_action": ids})
    assert not RatingHold.objects.filter(pk__in=ids, released_at__isnull=True).exists()
    assert set(
        AuditEntry.objects.filter(action=AuditAction.RATINGS_HOLD_RELEASED).values_list(
            "actor", flat=True
        )
    ) == {b_director.pk}


def test_naming_the_players_director_a_co_director_vouches_for_nobody(
    api_as: Any, rival: Any, b_director: Any, b_players: tuple[Player, Player]
) -> None:
    """A director names co-directors without asking them: B named on the rival's event
    does not make B's players the rival's, since the closer is who must answer for them."""
    kim, lee = b_players
    today = str(timezone.localdate())
    body = {"name": "Made up", "start_date": today, "end_date": today, "rules": "japanese"}
    t = Tournament.objects.get(pk=api_as(rival).post(TOURNAMENTS, body, format="json").json()["id"])
    tournament_services.tournament_officials_set(
        actor=rival, tournament=t, directors=[rival, b_director]
    )
    enter(t, kim, lee)
    game = tournament_services.game_create(
        actor=rival, tournament=t, round_number=1, black=kim, white=lee, table=1
    )
    Game.objects.filter(pk=game.pk).update(
        state=GameState.FINAL, locked_at=timezone.now(), result_winner="B", result_reason="score"
    )
    assert api_as(rival).post(f"{TOURNAMENTS}{t.pk}/close/").status_code == 200
    held = set(RatingHold.objects.filter(tournament=t).values_list("player", flat=True))
    assert held == {kim.pk, lee.pk}


def test_the_player_himself_releases_his_own_held_games(
    api_as: Any, rival: Any, b_players: tuple[Player, Player]
) -> None:
    kim, lee = b_players
    kim.user = UserFactory(username="kim")
    kim.save(update_fields=["user"])
    t = _rated_today(api_as, rival, kim, lee)
    kim_hold, lee_hold = (RatingHold.objects.get(tournament=t, player=p) for p in (kim, lee))
    assert [row["id"] for row in api_as(kim.user).get(HOLDS).json()] == [kim_hold.pk]
    assert api_as(kim.user).post(f"{HOLDS}{lee_hold.pk}/release/").status_code == 403
    assert api_as(kim.user).post(f"{HOLDS}{kim_hold.pk}/release/").status_code == 200
    audit = AuditEntry.objects.get(action=AuditAction.RATINGS_HOLD_RELEASED)
    assert audit.actor == kim.user and audit.new_value["player"] == kim.pk
