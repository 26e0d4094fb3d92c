"""The tournament and standings pages at congress size: cached by what they show (the
event, not every player in the database), rebuilt by one thread, served compressed,
their 760 rows rendered in Python exactly as the template did."""

from __future__ import annotations

import contextlib
import gzip
import re
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.people import services as people
from games.templatetags.game_tables import number
from ops.pages import cache as versioned
from ops.pages import compress
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def standings_url(game: Game, **query: str) -> str:
    url = reverse("games:standings", args=[game.tournament_id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_standings_page_is_served_whole_to_a_visitor_until_a_result_changes(
    client: Client, game: Game, alice: Any, bob: Any, django_assert_num_queries: Any
) -> None:
    url = standings_url(game)
    first = client.get(url)
    assert alice.full_name in first.content.decode()
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.content == first.content.replace(
        str(first.wsgi_request.csp_nonce).encode(),  # type: ignore[attr-defined]
        str(again.wsgi_request.csp_nonce).encode(),  # type: ignore[attr-defined]
    )
    assert "2?/w" in again.content.decode()  # no final result yet
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_confirm(actor=bob.user, game=game)
    assert "2-/w" in client.get(url).content.decode()
    assert client.get(standings_url(game, round="99")).status_code == 404
    # each round is its own page: round 0 is not the latest round
    assert "Standings after round 0" in client.get(standings_url(game, round="0")).content.decode()
    assert "Standings after round 1" in client.get(url).content.decode()


def test_a_signed_in_user_gets_the_cached_standings_under_his_own_header(
    client: Client, game: Game, bob: Any, django_assert_num_queries: Any, settings: Any
) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    signed_in = Client()
    signed_in.force_login(bob.user)
    url = standings_url(game, round="1", print="1")
    visitor = client.get(url).content.decode()
    signed_in.get(url)
    # nothing: his session, his user (ops.accounts), the header (cached under his
    # versions, config.navigation), the tournament's row and the standings are cached
    with django_assert_num_queries(0):
        page = signed_in.get(url).content.decode()
    assert "Log out" in page and "Log out" not in visitor
    body = visitor[visitor.index("<h1>") : visitor.index("</table>")]
    assert body in page


def test_a_player_edit_elsewhere_keeps_the_tournament_pages_a_rename_of_one_of_its_players_does_not(
    client: Client, game: Game, alice: Any
) -> None:
    names = [f"tournament:{game.tournament_id}"]
    before = versioned.versions(names)
    stranger = PlayerFactory()
    people.player_update(actor=None, player=stranger, family_name="Elsewhere")
    assert versioned.versions(names) == before
    people.player_update(actor=None, player=alice, family_name="Pleasance")
    assert versioned.versions(names) != before
    assert "Pleasance" in client.get(standings_url(game)).content.decode()
    assert (
        "Pleasance"
        in client.get(reverse("games:tournament", args=[game.tournament_id])).content.decode()
    )


@pytest.mark.parametrize("url_of", ["tournament", "standings"])
def test_a_visitor_who_accepts_gzip_gets_the_page_compressed_with_his_own_nonce(
    client: Client, game: Game, url_of: str
) -> None:
    url = reverse(f"games:{url_of}", args=[game.tournament_id])
    plain = client.get(url)
    assert plain.get("Content-Encoding") is None
    for _ in range(2):  # built, then from the cache
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        text = gzip.decompress(packed.content).decode()
        nonce = plain.wsgi_request.csp_nonce  # type: ignore[attr-defined]
        own = packed.wsgi_request.csp_nonce  # type: ignore[attr-defined]
        assert str(own) in text and str(nonce) not in text
        assert text == plain.content.decode().replace(str(nonce), str(own))


@pytest.mark.parametrize("url_of", ["tournament", "standings"])
def test_a_signed_in_user_who_accepts_gzip_gets_his_page_with_the_fragment_compressed_once(
    client: Client, game: Game, bob: Any, url_of: str
) -> None:
    signed_in = Client()
    signed_in.force_login(bob.user)
    url = reverse(f"games:{url_of}", args=[game.tournament_id])
    plain = signed_in.get(url)
    assert plain.get("Content-Encoding") is None and "Log out" in plain.content.decode()
    with deflated_in_block() as deflated:
        for _ in range(2):
            packed = signed_in.get(url, HTTP_ACCEPT_ENCODING="gzip")
            assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
            reader = zlib.decompressobj(16 + zlib.MAX_WBITS)  # one gzip member, to its end
            text = reader.decompress(packed.content).decode()
            assert reader.eof
            # the same page but for what is his per request (CSP nonce, masked CSRF token)
            assert "Log out" in text and _stable(text) == _stable(plain.content.decode())
    visitor = client.get(url).content.decode()  # built from the fragment kept compressed
    body = visitor[visitor.index("<table") : visitor.index("</table>")]
    assert body in text
    # per request only the text around the fragment was compressed, never the fragment
    assert deflated and not any(body.encode() in data for data in deflated)


@contextlib.contextmanager
def deflated_in_block() -> Iterator[list[bytes]]:
    """What ``ops.pages.compress`` deflates in this block, seen by a profile hook on this
    thread (the test client's): nothing in the module is replaced."""
    seen: list[bytes] = []
    code = compress._deflate.__code__

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is code:
            seen.append(frame.f_locals["data"])

    before = sys.getprofile()
    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(before)


def _stable(page: str) -> str:
    return re.sub(r'(nonce|value)="[^"]*"', "", page)


def test_any_other_page_is_compressed_by_the_middleware(client: Client, game: Game) -> None:
    response = client.get(reverse("games:game", args=[game.pk]), HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert b"</html>" in gzip.decompress(response.content)


def test_one_thread_rebuilds_a_missing_entry_the_others_serve_the_last_one(db: None) -> None:
    calls: list[int] = []
    started = threading.Event()

    def slow() -> str:
        calls.append(1)
        started.set()
        time.sleep(0.3)
        return "new"

    versioned.single_flight("page.x@1", lambda: "old")
    served: list[str] = []
    builder = threading.Thread(
        target=lambda: served.append(versioned.single_flight("page.x@2", slow))
    )
    builder.start()
    started.wait(5)
    others = [versioned.single_flight("page.x@2", slow) for _ in range(5)]
    builder.join()
    assert calls == [1] and others == ["old"] * 5 and served == ["new"]
    assert versioned.single_flight("page.x@2", slow) == "new"


def test_with_no_copy_to_serve_the_others_wait_for_the_rebuild(db: None) -> None:
    calls: list[int] = []

    def slow() -> str:
        calls.append(1)
        time.sleep(0.3)
        return "built"

    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(versioned.single_flight("page.y@1", slow)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1] and results == ["built"] * 4


@pytest.mark.parametrize("value", [0.0, 1.0, 3.5, 12.25, 12.35, 0.05, 7.999, 101.0, 2.45, 1e-9])
def test_the_rows_numbers_read_as_floatformat_wrote_them(value: float) -> None:
    expected = Template('{{ v|floatformat:"-1" }}').render(Context({"v": value}))
    assert number(value) == expected


def test_a_page_rebuilt_while_its_fragment_is_rebuilt_elsewhere_waits_for_the_fresh_one(
    db: None,
) -> None:
    started, release = threading.Event(), threading.Event()

    def slow_fragment() -> str:
        started.set()
        release.wait(5)
        return "fresh fragment"

    versioned.single_flight("fragment.f@1", lambda: "old fragment")
    other = threading.Thread(target=lambda: versioned.single_flight("fragment.f@2", slow_fragment))
    other.start()
    started.wait(5)
    # a visitor's page, missing too, is built around the fragment another thread rebuilds
    threading.Timer(0.2, release.set).start()
    page = versioned.single_flight(
        "page.p@2", lambda: "page with " + versioned.single_flight("fragment.f@2", slow_fragment)
    )
    other.join()
    assert page == "page with fresh fragment"
    # and from then on everyone reads the fresh one
    assert versioned.single_flight("fragment.f@2", slow_fragment) == "fresh fragment"


def test_a_fragment_inside_a_fragment_is_written_into_it_not_left_as_a_mark(db: None) -> None:
    from ops.pages.responses import FRAGMENTS

    template = Template(
        "{% load page_cache %}<header>{% versioned_cache 'outer' %}A"
        "{% versioned_cache 'inner' %}B{% endversioned_cache %}C{% endversioned_cache %}</header>"
    )
    for _ in range(2):  # built, then from the cache
        holder: list[compress.Page] = []
        text = template.render(Context({"versions": "nested-1", FRAGMENTS: holder}))
        assert len(holder) == 1 and holder[0].body() == b"ABC"
        assert text.startswith("<header><!--fragment-") and text.endswith("--></header>")
    assert template.render(Context({"versions": "nested-1"})) == "<header>ABC</header>"


# --------------------------------------------------------------------------- signed in


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("who", "queries"), [("player", 0), ("director", 1)])
def test_a_signed_in_warm_tournament_page_costs_a_directors_review_count_only(
    who: str,
    queries: int,
    game: Game,
    alice: Any,
    director: Any,
    django_assert_num_queries: Any,
    settings: Any,
) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    signed_in = _signed_in(alice.user if who == "player" else director)
    url = reverse("games:tournament", args=[game.tournament_id])
    signed_in.get(url)
    # his user (ops.accounts), the tournament, its directors, the fragments and the
    # header come from the cache
    with django_assert_num_queries(queries):
        page = signed_in.get(url, HTTP_ACCEPT_ENCODING="gzip")
    text = gzip.decompress(page.content).decode()
    assert "Log out" in text and "Liddell Alice" in text
    assert ("edit in admin" in text) == (who == "director")


def test_a_user_named_a_director_sees_the_director_links_on_his_next_page_and_not_after(
    tournament: Any, director: Any, outsider: Any
) -> None:
    from games.tournament import services as tournament_services

    url = reverse("games:tournament", args=[tournament.pk])
    his = _signed_in(outsider)
    assert "edit in admin" not in his.get(url).content.decode()  # warm: kept without them
    tournament_services.tournament_officials_set(
        actor=director, tournament=tournament, directors=[director, outsider]
    )
    assert "edit in admin" in his.get(url).content.decode()
    tournament_services.tournament_officials_set(
        actor=director, tournament=tournament, directors=[director]
    )
    assert "edit in admin" not in his.get(url).content.decode()


def test_a_closed_tournament_says_so_and_offers_no_close_on_the_directors_next_page(
    tournament: Any, director: Any
) -> None:
    from games.tournament import services as tournament_services

    url = reverse("games:tournament", args=[tournament.pk])
    his = _signed_in(director)
    before = his.get(url).content.decode()
    assert "Close the tournament" in before and "rounds ·\n  open</p>" in before
    closed = tournament_services.tournament_close(actor=None, tournament=tournament)
    after = his.get(url).content.decode()
    assert "Close the tournament" not in after and "open</p>" not in after
    assert f"closed {closed.closed_at:%Y-%m-%d}</p>" in after


def test_a_deleted_tournament_is_a_404_for_a_signed_in_reader_too(
    tournament: Any, alice: Any
) -> None:
    url = reverse("games:tournament", args=[tournament.pk])
    his = _signed_in(alice.user)
    assert his.get(url).status_code == 200  # warm
    tournament.delete()  # the admin's own delete: no service sees it
    assert his.get(url).status_code == 404
