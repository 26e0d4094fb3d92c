"""After a result, the worker rebuilds the event's tournament page and standings; the web
processes serve the copy built before it meanwhile and rebuild nothing themselves
(games.tournament.pages, ops.pages.warming)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.tournament import pages
from games.tournament import selectors as day_selectors
from games.tournament.tasks import pages_warm
from tests.conftest import wait_for

# Every test here runs with the worker's rebuild on (the other tests turn it off).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("warming")]


@pytest.fixture
def warming(settings: Any, game: Game) -> None:
    """On once the event is set up: its creation queues no rebuild."""
    settings.GOREF_WARM_PAGES = True
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rebuilds queued for the worker (none runs here)."""
    calls: list[int] = []
    monkeypatch.setattr(pages_warm, "delay", calls.append)
    return calls


def no_rebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a web request rebuilt the standings")

    monkeypatch.setattr(day_selectors, "standings_of", refuse)


def urls(game: Game) -> list[str]:
    pk = game.tournament_id
    return [reverse("games:tournament", args=[pk]), reverse("games:standings", args=[pk])]


@pytest.fixture
def result_after_visits(game: Game, alice: Any, bob: Any) -> Callable[..., None]:
    """Both pages cached for each client given (a visitor's whole page, a signed-in
    user's fragment and header), then a result that changes them."""

    def play(*clients: Client) -> None:
        for url in urls(game):
            for client in clients:
                client.get(url)
        services.game_result_submit(actor=alice.user, game=game, result="B+R")
        services.game_result_confirm(actor=bob.user, game=game)

    return play


def test_readers_serve_the_last_copy_until_the_worker_has_rebuilt_the_pages(
    client: Client,
    game: Game,
    bob: Any,
    result_after_visits: Callable[..., None],
    queued: list[int],
    monkeypatch: pytest.MonkeyPatch,
    django_assert_num_queries: Any,
) -> None:
    signed_in = Client()
    signed_in.force_login(bob.user)
    result_after_visits(client, signed_in)
    assert queued == [game.tournament_id]  # the confirmation finds the submission's waiting

    with monkeypatch.context() as patched:
        no_rebuild(patched)
        for url in urls(game):
            assert "2?/w" in client.get(url).content.decode()  # the copy from before
            assert "2?/w" in signed_in.get(url).content.decode()

    assert pages.warm(game.tournament_id) == [200, 200]  # what the worker does

    with monkeypatch.context() as patched:
        no_rebuild(patched)
        for url in urls(game):
            with django_assert_num_queries(0):  # the whole page, as the worker cached it
                page = client.get(url)
            assert "2-/w" in page.content.decode()
            assert "2-/w" in signed_in.get(url).content.decode()
            assert "Log out" in signed_in.get(url).content.decode()
    # the worker's copy carries this request's nonce, not the worker's
    again = client.get(urls(game)[0])
    assert f'nonce="{again.wsgi_request.csp_nonce}"' in again.content.decode()  # type: ignore[attr-defined]


def test_a_write_after_the_rebuild_started_queues_another(
    game: Game, alice: Any, bob: Any, queued: list[int]
) -> None:
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    assert queued == [game.tournament_id]
    pages_warm(game.tournament_id)  # a worker takes it: it reads the submission only
    services.game_result_confirm(actor=bob.user, game=game)
    assert queued == [game.tournament_id, game.tournament_id]


def test_with_the_broker_down_the_readers_rebuild_as_before(
    client: Client,
    game: Game,
    result_after_visits: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def down(pk: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(pages_warm, "delay", down)
    result_after_visits(client)
    for url in urls(game):
        assert shows_result(client, url)


def test_a_rebuild_that_never_comes_is_trusted_for_GOREF_WARM_SECONDS_only(
    client: Client,
    game: Game,
    result_after_visits: Callable[..., None],
    queued: list[int],
    settings: Any,
) -> None:
    settings.GOREF_WARM_SECONDS = 1
    url = urls(game)[1]
    result_after_visits(client)
    assert "2?/w" in client.get(url).content.decode()
    time.sleep(1.2)  # the worker is lost: the flag expires and a reader rebuilds
    assert shows_result(client, url)


@pytest.mark.integration
def test_a_real_worker_rebuilds_the_pages_after_a_result_entered(
    start_worker: Any,
    client: Client,
    game: Game,
    result_after_visits: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start_worker(env_extra={"GOREF_WARM_PAGES": "1"})
    result_after_visits(client)
    no_rebuild(monkeypatch)  # from here on, only the worker builds them
    for url in urls(game):
        assert wait_for(functools.partial(shows_result, client, url), 60)


def shows_result(client: Client, url: str) -> bool:
    return "2-/w" in client.get(url).content.decode()


def test_a_page_the_worker_cannot_build_is_not_served_from_the_last_copy(
    client: Client,
    game: Game,
    result_after_visits: Callable[..., None],
    queued: list[int],
) -> None:
    result_after_visits(client)
    game.tournament.delete()  # the admin's delete, right after the result
    assert pages.warm(game.tournament_id) == [404, 404]
    for url in urls(game):
        assert client.get(url).status_code == 404
