"""A signed-in request: its user from this process's memory while his account is unchanged
(``ops.accounts.CachedModelBackend``), and every page-cache version it reads in one
round trip (``ops.pages.cache.reading_versions``), and his copy of a visitors' page around
his own header (``ops.pages.responses.reader_copy``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache as shared
from django.test import Client
from django.urls import reverse

from ops.pages import cache as pages_cache
from tests.factories import PlayerFactory, TournamentFactory, UserFactory

# Sessions from the cache, as with REDIS_URL (config.settings), and a login by the form.
from tests.ops.test_sessions import _cached_sessions, _signed_in  # noqa: F401

pytestmark = pytest.mark.django_db


def _header(client: Client, path: str = "/tournaments/") -> str:
    page = client.get(path).content.decode()
    return page[page.index("<header>") : page.index("</header>")]


def _user_queries(queries: Any) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if 'FROM "auth_user"' in q["sql"]]


def test_a_signed_in_page_loads_its_user_without_a_query(
    outsider: Any, django_assert_max_num_queries: Any
) -> None:
    client = _signed_in(outsider)
    client.get("/tournaments/")
    with django_assert_max_num_queries(10) as queries:
        assert "Log out" in _header(client)
    assert not _user_queries(queries)


def test_a_new_password_still_signs_the_old_sessions_out(outsider: Any) -> None:
    client = _signed_in(outsider)
    assert "Log out" in _header(client)  # his account is now kept in memory
    outsider.set_password("another pass phrase 42")
    outsider.save()  # bumps his version: the next request loads him afresh
    assert "Log out" not in _header(client)


def test_a_deactivated_account_is_signed_out_at_its_next_request(outsider: Any) -> None:
    client = _signed_in(outsider)
    assert "Log out" in _header(client)
    outsider.is_active = False
    outsider.save(update_fields=["is_active"])
    assert "Log out" not in _header(client)


def test_a_new_staff_flag_shows_at_the_next_request(outsider: Any) -> None:
    client = _signed_in(outsider)
    assert ">Admin<" not in _header(client)
    outsider.is_staff = True
    outsider.save(update_fields=["is_staff"])
    assert ">Admin<" in _header(client)


def test_a_wrong_password_is_checked_once(outsider: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Django's ModelBackend stays listed after the cached one, for sessions opened before
    # it: a wrong password must not be hashed a second time there.
    checks: list[str] = []
    real = type(outsider).check_password

    def counted(user: Any, raw: str) -> bool:
        checks.append(raw)
        return bool(real(user, raw))

    monkeypatch.setattr(type(outsider), "check_password", counted)
    response = Client().post(reverse("login"), {"username": outsider.username, "password": "no"})
    assert response.status_code == 200  # the form again
    assert checks == ["no"]


def test_a_session_opened_under_djangos_backend_stays_signed_in(outsider: Any) -> None:
    client = Client()
    client.force_login(outsider, backend="django.contrib.auth.backends.ModelBackend")
    assert "Log out" in _header(client)


def test_the_header_names_his_player_once_linked(outsider: Any) -> None:
    client = _signed_in(outsider)
    assert "My games" not in _header(client)
    player = PlayerFactory(family_name="Linked")
    player.user = outsider
    player.save()
    pages_cache.changed(player)  # as the services do: his account's version (games.cache)
    assert "My games" in _header(client) and "Linked" in _header(client)


def test_two_users_see_their_own_headers(outsider: Any) -> None:
    other = UserFactory()
    PlayerFactory(user=outsider, given_name="Ann", family_name="First")
    PlayerFactory(user=other, given_name="Bob", family_name="Second")
    first, second = _signed_in(outsider), _signed_in(other)
    for _ in range(2):
        assert "First" in _header(first) and "Second" not in _header(first)
        assert "Second" in _header(second) and "First" not in _header(second)


def test_a_signed_in_tournament_page_reads_its_versions_in_one_round_trip(
    outsider: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = PlayerFactory(user=outsider)
    tournament = TournamentFactory()
    client = _signed_in(outsider)
    path = reverse("games:tournament", args=[tournament.pk])
    client.get(path)
    client.get(path)  # his header's versions are now remembered with his session
    reads: list[list[str]] = []
    real_many, real_one = shared.get_many, shared.get

    inside: list[bool] = []  # a local-memory cache reads get_many's keys one by one

    def many(keys: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append([str(k) for k in keys])
        inside.append(True)
        try:
            return real_many(keys, *args, **kwargs)
        finally:
            inside.pop()

    def one(key: Any, *args: Any, **kwargs: Any) -> Any:
        if not inside:
            reads.append([str(key)])
        return real_one(key, *args, **kwargs)

    monkeypatch.setattr(shared, "get_many", many)
    monkeypatch.setattr(shared, "get", one)
    assert client.get(path).status_code == 200
    # The event's versions (its language and its page), the user's, his player's and his
    # session: one read of the shared cache.
    assert len(reads) == 1, reads
    wanted = {f"v:tournament:{tournament.pk}", f"v:user:{outsider.pk}", f"v:player:{player.pk}"}
    assert wanted <= set(reads[0])
    assert any(key.startswith("django.contrib.sessions") for key in reads[0])


def _normalised(response: Any) -> str:
    """The page's text, with what differs per response (CSP nonce, masked CSRF token)
    written the same way."""
    import gzip
    import re

    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    text = body.decode()
    text = re.sub(r'nonce="[^"]*"', 'nonce="N"', text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "CSRF", text)


def test_a_readers_copy_of_the_visitors_page_is_the_page_he_would_be_rendered(
    outsider: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import caches

    from games.tournament import pages
    from ops.pages.responses import visitor_entry
    from tests.factories import EntryFactory, GameFactory

    settings.GOREF_VISITOR_STALE_SECONDS = 0
    tournament = TournamentFactory()
    game = GameFactory(tournament=tournament)
    EntryFactory(tournament=tournament, player=game.black)
    EntryFactory(tournament=tournament, player=game.white)
    PlayerFactory(user=outsider, given_name="Reader", family_name="Own")
    path = reverse("games:tournament", args=[tournament.pk])
    client = _signed_in(outsider)
    rendered = client.get(path, HTTP_ACCEPT_ENCODING="gzip")  # no visitors' copy yet
    assert Client().get(path).status_code == 200  # a visitor's request keeps one
    entry = visitor_entry(pages.tournament_key(tournament.pk))
    assert any(entry in str(key) for key in caches["versioned"]._cache)  # type: ignore[attr-defined]
    from games.tournament import views

    rendered_again: list[str] = []
    real_render = views.render_spliced

    def spy(request: Any, template: str, context: Any) -> Any:
        rendered_again.append(template)
        return real_render(request, template, context)

    monkeypatch.setattr(views, "render_spliced", spy)
    copy = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert not rendered_again  # the visitors' page, around his header
    assert _normalised(copy) == _normalised(rendered)
    assert "Own Reader" in _normalised(copy) and "Log out" in _normalised(copy)
    assert copy["Content-Encoding"] == "gzip" and "Accept-Encoding" in copy["Vary"]


def test_a_director_is_never_given_the_visitors_copy(director: Any, tournament: Any) -> None:
    path = reverse("games:tournament", args=[tournament.pk])
    assert Client().get(path).status_code == 200  # a visitor's request keeps one
    client = Client()
    client.force_login(director)
    page = _normalised(client.get(path, HTTP_ACCEPT_ENCODING="gzip"))
    assert "edit in admin" in page and "Close the tournament" in page


def test_a_message_waiting_for_the_reader_is_shown_on_a_page_rendered_for_him(
    outsider: Any, tournament: Any
) -> None:
    from django.contrib import messages
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.cache import SessionStore
    from django.test import RequestFactory

    from games.tournament import pages
    from ops.pages.responses import reader_copy

    path = reverse("games:tournament", args=[tournament.pk])
    assert Client().get(path).status_code == 200  # a visitor's request keeps one
    request = RequestFactory().get(path, HTTP_ACCEPT_ENCODING="gzip")
    request.user = outsider
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    messages.info(request, "Saved.")
    names = [f"tournament:{tournament.pk}"]
    assert reader_copy(request, pages.tournament_key(tournament.pk), names) is None


def test_a_request_without_a_session_cookie_is_a_visitor_without_loading_a_user(
    outsider: Any,
) -> None:
    from django.test import RequestFactory
    from django.utils.functional import SimpleLazyObject

    loaded: list[bool] = []

    def load() -> Any:
        loaded.append(True)
        return outsider

    request = RequestFactory().get("/api/v1/handicap/")
    request.user = SimpleLazyObject(load)  # as AuthenticationMiddleware sets it
    assert pages_cache.is_visitor(request) and not loaded
    request.COOKIES["sessionid"] = "something"
    assert not pages_cache.is_visitor(request) and loaded  # his session: load him
