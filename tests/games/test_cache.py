"""Cached public reads: a second read asks the database nothing (or only for the page's
own object); a write through a service shows at the next read; a Redis that is down
costs neither a write nor a read more than a miss."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.people import services as people
from ops.pages import cache as versioned
from ops.pages.backends import FAILURES, ForgivingRedisCache
from tests.games import sgf_samples


def test_the_public_rating_lookup_is_served_from_the_cache_until_the_player_changes(
    api: Any, alice: Any, director: Any, django_assert_num_queries: Any
) -> None:
    url = f"/api/v1/players/{alice.pk}/"
    assert api.get(url).json()["family_name"] == "Liddell"
    with django_assert_num_queries(0):
        assert api.get(url).json()["family_name"] == "Liddell"
    people.player_update(actor=None, player=alice, family_name="Pleasance")
    assert api.get(url).json()["family_name"] == "Pleasance"
    assert api.get("/api/v1/players/999999/").status_code == 404


def test_the_handicap_lookup_is_cached_until_a_player_or_the_ratings_change(
    api: Any, alice: Any, bob: Any, django_assert_num_queries: Any
) -> None:
    url = f"/api/v1/handicap/?black={alice.pk}&white={bob.pk}"
    first = api.get(url).json()
    with django_assert_num_queries(0):
        assert api.get(url).json() == first
    people.player_update(actor=None, player=bob, rank="5d")
    assert api.get(url).json() != first
    versioned.touch("ratings")
    with django_assert_num_queries(2):  # the two players again
        api.get(url)
    bad = api.get(f"/api/v1/handicap/?black={alice.pk}&white=999999")
    assert bad.status_code == 400 and bad.json()["extra"]["fields"]["white"]


def test_the_player_page_is_served_from_the_cache_until_one_of_his_games_changes(
    client: Any, game: Game, alice: Any, bob: Any, django_assert_num_queries: Any, settings: Any
) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    url = reverse("games:player", args=[alice.pk])
    assert "B+R" not in client.get(url).content.decode()
    with django_assert_num_queries(0):  # a visitor: the whole page
        client.get(url)
    signed_in = Client()
    signed_in.force_login(bob.user)
    signed_in.get(url)
    # the page's player (the heading); the session, the user (ops.accounts), the header
    # (cached under his versions, config.navigation) and the rest come from the cache
    with django_assert_num_queries(1):
        page = signed_in.get(url).content.decode()
    assert "Log out" in page and "B+R" not in page
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    assert "B+R" in client.get(url).content.decode()
    assert "B+R" in signed_in.get(url).content.decode()


def test_the_tournament_page_is_served_from_the_cache_until_a_game_changes(
    client: Any, game: Game, alice: Any, django_assert_num_queries: Any
) -> None:
    url = reverse("games:tournament", args=[game.tournament_id])
    client.get(url)
    with django_assert_num_queries(0):
        cached = client.get(url).content.decode()
    assert "B+R" not in cached and "Log out" not in cached
    services.game_result_submit(actor=alice.user, game=game, result="B+R", sgf=sgf_samples.SIMPLE)
    assert "B+R" in client.get(url).content.decode()
    assert client.get(reverse("games:tournament", args=[999999])).status_code == 404


def test_a_version_is_bumped_only_once_the_write_commits(
    settings: Any, django_capture_on_commit_callbacks: Any, db: None
) -> None:
    settings.GOREF_CACHE_BUMP_AT_WRITE = False  # as in production (tests/conftest.py)
    before = versioned.versions(["player:1"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        versioned.touch("player:1")
    assert versioned.versions(["player:1"]) == before  # not committed yet
    for callback in callbacks:
        callback()
    assert versioned.versions(["player:1"]) != before


@pytest.fixture
def redis_down(settings: Any) -> None:
    """The cache on a Redis that refuses connections (nothing listens on port 1)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "ops.pages.backends.ForgivingRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        },
        "versioned": {"BACKEND": "ops.pages.backends.VersionedEntries"},
    }


def test_with_the_cache_down_a_write_succeeds_and_reads_are_misses(
    redis_down: None, api: Any, alice: Any
) -> None:
    started = time.monotonic()
    people.player_update(actor=None, player=alice, family_name="Pleasance")
    for _ in range(5):
        assert api.get(f"/api/v1/players/{alice.pk}/").json()["family_name"] == "Pleasance"
    assert cache.get("anything", "missed") == "missed"
    cache.set("anything", 1)  # no error
    assert time.monotonic() - started < 3


def test_a_visitor_may_see_a_write_in_another_process_a_moment_late_a_signed_in_user_never(
    api: Any, alice: Any, settings: Any
) -> None:
    from rest_framework.test import APIClient

    from ops.accounts import token_create

    settings.GOREF_VISITOR_STALE_SECONDS = 60
    url = f"/api/v1/players/{alice.pk}/"
    # The two ways a real request signs in: a session, a token.
    session, token = APIClient(), APIClient()
    session.force_login(alice.user)
    token.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=alice.user)[0]}")
    assert api.get(url).json()["family_name"] == "Liddell"
    for signed_in in (session, token):
        assert signed_in.get(url).json()["family_name"] == "Liddell"
    # Another process renames him: the shared versions move, this process's memo does not.
    from games.models import Player

    Player.objects.filter(pk=alice.pk).update(family_name="Pleasance")
    cache.set(f"v:player:{alice.pk}", time.time_ns(), timeout=None)
    assert api.get(url).json()["family_name"] == "Liddell"  # within the visitor's minute
    for signed_in in (session, token):
        assert signed_in.get(url).json()["family_name"] == "Pleasance"
    settings.GOREF_VISITOR_STALE_SECONDS = 0
    assert api.get(url).json()["family_name"] == "Pleasance"


def test_a_page_from_the_cache_carries_the_csp_nonce_of_its_own_request(rf: Any, db: None) -> None:
    from django.http import HttpResponse

    from ops.pages.responses import visitor_cached

    first, second = rf.get("/page/"), rf.get("/page/")
    first.csp_nonce, second.csp_nonce = "n0nce-of-the-first", "n0nce-of-the-second"
    html = '<style nonce="n0nce-of-the-first">p {}</style>'
    assert (
        visitor_cached(first, "page.x", ["x"], lambda: HttpResponse(html)).content.decode() == html
    )
    calls: list[int] = []

    def again() -> HttpResponse:
        calls.append(1)
        return HttpResponse("rendered again")

    served = visitor_cached(second, "page.x", ["x"], again).content.decode()
    assert calls == [] and served == '<style nonce="n0nce-of-the-second">p {}</style>'


def test_with_the_cache_down_a_rebuild_takes_no_lock_and_shares_no_copy(
    redis_down: None, monkeypatch: Any
) -> None:
    """Each write to a dead Redis waits on its socket: while it is known down, a miss
    builds the entry here without the lock's add and delete or the stale copy's set (the
    entry itself is still written through, as every write tries)."""
    for _ in range(FAILURES):  # that many failed reads mark Redis down
        assert cache.get("probe", "missed") == "missed"
    tried: list[str] = []
    for method in ("add", "set", "delete"):
        monkeypatch.setattr(
            ForgivingRedisCache, method, lambda self, *a, m=method, **k: tried.append(m)
        )
    assert versioned.single_flight("page.x@1", lambda: "built") == "built"
    assert tried == ["set"]


def test_the_redis_cache_keeps_one_client_for_every_command(redis_url: str) -> None:
    # Django's own builds a client per command (its callback table copied each time).
    backend = ForgivingRedisCache(redis_url, {"KEY_PREFIX": "one-client-test"})
    client = backend._cache.get_client()
    backend.set("key", "value")
    assert backend.get("key") == "value" and backend.get_many(["key"]) == {"key": "value"}
    assert backend._cache.get_client(write=True) is client
    backend.delete("key")
