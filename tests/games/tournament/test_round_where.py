"""The public "where do I play" page of a round: every table with colours, handicap and
komi, searchable by name without a script, cached for visitors and rebuilt when a
result or a pairing changes, small enough for a phone at congress size."""

from __future__ import annotations

import re
import time
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Player, Round, Tournament
from games.tournament.services import game_create
from games.tournament.services.rounds import round_pair
from tests.factories import EntryFactory, GameFactory, PlayerFactory, enter

pytestmark = pytest.mark.django_db


def where_url(tournament: Tournament, number: int = 1, q: str | None = None) -> str:
    url = reverse("games:round-where", args=[tournament.pk, number])
    return url if q is None else f"{url}?q={q}"


@pytest.fixture
def paired(director: Any, tournament: Tournament) -> Tournament:
    """Round 1 of a four-player McMahon event, paired by the pairing service."""
    tournament.system = tournament.handicap_policy = "mcmahon"
    tournament.save()
    players = [
        PlayerFactory(family_name=name, given_name=given, declared_rank=rank)
        for name, given, rank in [
            ("Østergård", "Søren", 2),
            ("Müller", "Jürgen", -1),
            ("Tanaka", "Yuki", -4),
            ("Smith", "Ann", -6),
        ]
    ]
    enter(tournament, *players)
    round_pair(actor=director, tournament=tournament, round_number=1)
    return tournament


def test_it_lists_every_table_with_colours_handicap_and_komi(
    client: Client, paired: Tournament
) -> None:
    page = client.get(where_url(paired)).content.decode()
    games = list(Game.objects.filter(tournament=paired).select_related("black", "white"))
    assert len(games) == 2
    for g in games:
        row = page[page.index(f"{g.black.full_name} ") :]
        row = row[: row.index("</tr>")]
        assert g.white.full_name in row
        assert (f"H{g.handicap}" if g.handicap else "even") in row
        assert f"· {g.komi}" in row
    assert "2 tables" in page
    assert reverse("games:standings", args=[paired.pk]) in page  # the live standings
    assert "round_where.js" in page and "<script>" not in page  # no inline script


def test_the_search_keeps_only_the_tables_of_that_name_without_a_script(
    client: Client, paired: Tournament
) -> None:
    page = client.get(where_url(paired, q="osterg")).content.decode()  # no ø on his phone
    assert "Østergård Søren" in page and "1 of 2 tables" in page
    his = Game.objects.filter(tournament=paired).filter(
        Q(black__family_name="Østergård") | Q(white__family_name="Østergård")
    )
    other = Game.objects.exclude(pk__in=his).get(tournament=paired)
    assert other.black.full_name not in page and other.white.full_name not in page
    assert 'value="osterg"' in page
    nobody = client.get(where_url(paired, q="Nobody")).content.decode()
    assert "Nobody of that name plays this round." in nobody
    assert client.get(where_url(paired, q="<script>")).status_code == 200


def test_an_unknown_round_is_404_and_an_unpaired_one_says_so(
    client: Client, tournament: Tournament
) -> None:
    assert client.get(where_url(tournament, 9)).status_code == 404
    Round.objects.create(tournament=tournament, number=2)
    assert "Round 2 is not paired yet." in client.get(where_url(tournament, 2)).content.decode()


def test_a_visitor_gets_the_cached_page_until_a_result_or_a_pairing_changes(
    client: Client,
    game: Game,
    alice: Player,
    bob: Player,
    director: Any,
    django_assert_num_queries: Any,
) -> None:
    url = where_url(game.tournament)
    # the tournament's language (the client asks for none: config.locale), the round with
    # its tournament, the games with their players, the ranks at entry
    with django_assert_num_queries(4):
        first = client.get(url).content.decode()
    assert "even · 6.5" in first
    with django_assert_num_queries(0):
        client.get(url)
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_confirm(actor=bob.user, game=game)
    carol = PlayerFactory(family_name="Carroll", given_name="Lewis")
    dave = PlayerFactory(family_name="Dodgson", given_name="Charles")
    enter(game.tournament, carol, dave)
    from games.tournament.services import game_create

    game_create(
        actor=director, tournament=game.tournament, round_number=1, black=carol, white=dave, table=2
    )
    with django_assert_num_queries(4):
        again = client.get(url).content.decode()
    assert "Carroll Lewis" in again and "2 tables" in again


def test_a_signed_in_player_gets_the_cached_tables_under_his_own_header(
    game: Game, bob: Player, django_assert_num_queries: Any, settings: Any
) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    signed_in = Client()
    signed_in.force_login(bob.user)
    signed_in.get(where_url(game.tournament))
    # the round; his session, his user (ops.accounts), the header (cached under his
    # versions, config.navigation) and the tables come from the cache
    with django_assert_num_queries(1):
        page = signed_in.get(where_url(game.tournament)).content.decode()
    assert "Log out" in page and "Liddell Alice" in page


def test_who_does_not_play_the_round_is_listed_and_found_by_name(
    client: Client, game: Game
) -> None:
    carol = PlayerFactory(family_name="Carroll", given_name="Lewis")
    dave = PlayerFactory(family_name="Dodgson", given_name="Charles")
    resting, _ = enter(game.tournament, carol, dave)
    resting.participation = "b"
    resting.save()
    page = client.get(where_url(game.tournament)).content.decode()
    assert "Not playing in round 1" in page
    assert re.search(r"Carroll Lewis <span class=\"rank\">[^<]+</span></td><td[^>]*>bye<", page)
    assert re.search(r"Dodgson Charles <span[^>]*>[^<]+</span></td><td[^>]*>not paired<", page)
    found = client.get(where_url(game.tournament, q="carroll")).content.decode()
    assert "0 of 1 tables" in found and "Carroll Lewis" in found and "Dodgson" not in found
    assert "Nobody of that name" not in found


def test_the_tournament_and_round_pages_lead_to_it(client: Client, game: Game) -> None:
    link = where_url(game.tournament)
    tournament_page = client.get(reverse("games:tournament", args=[game.tournament_id]))
    assert f'class="where-now"><a href="{link}">Round 1: where do I play' in (
        tournament_page.content.decode()
    )
    round_page = client.get(reverse("games:round", args=[game.tournament_id, 1]))
    assert link in round_page.content.decode()


def test_a_760_player_round_stays_under_300_kb(
    client: Client, tournament: Tournament, django_assert_num_queries: Any
) -> None:
    players = PlayerFactory.create_batch(760, family_name="Verylongfamilyname")
    for p in players:
        EntryFactory(tournament=tournament, player=p)
    rnd = Round.objects.create(tournament=tournament, number=1)
    Game.objects.bulk_create(
        GameFactory.build(
            tournament=tournament,
            round=rnd,
            black=players[i],
            white=players[i + 1],
            table=i // 2 + 1,
            handicap=2,
            komi=Decimal("0.5"),
        )
        for i in range(0, 760, 2)
    )
    with django_assert_num_queries(3):  # a phone says its language (else: the event's, +1)
        response = client.get(
            where_url(tournament), HTTP_ACCEPT_ENCODING="identity", HTTP_ACCEPT_LANGUAGE="en"
        )
    size = len(response.content)
    assert "380 tables" in response.content.decode()
    assert size < 300_000, f"{size} bytes"
    print(f"\n760-player round: {size} bytes (limit 300000)")


def test_a_search_filters_the_cached_rows_and_reads_only_the_round(
    client: Client, tournament: Tournament, django_assert_num_queries: Any
) -> None:
    """Any text can be typed into ``?q=``: each search costs the round's one query and a
    filter over the rows cached for the event's current versions, never a query per
    search nor a cache entry per text."""
    players = PlayerFactory.create_batch(300, family_name="Congressgoer")
    for p in players:
        EntryFactory(tournament=tournament, player=p)
    rnd = Round.objects.create(tournament=tournament, number=1)
    Game.objects.bulk_create(
        GameFactory.build(
            tournament=tournament, round=rnd, black=players[i], white=players[i + 1], table=i + 1
        )
        for i in range(0, 300, 2)
    )
    first = players[0]
    client.get(where_url(tournament, q="warm"))  # the first search reads and caches the rows
    cpu = []
    for k in range(20):
        started = time.process_time()
        with django_assert_num_queries(1):  # the round, with its tournament
            page = client.get(where_url(tournament, q=f"{first.given_name} {k}"[:79]))
        cpu.append(time.process_time() - started)
        assert page.status_code == 200
    found = client.get(where_url(tournament, q=first.given_name)).content.decode()
    assert f"{first.full_name}" in found
    # A change to the event (a new game) is found by the next search.
    late = [PlayerFactory(family_name="Latecomer"), PlayerFactory(family_name="Tardy")]
    enter(tournament, *late)
    game_create(
        actor=None, tournament=tournament, round_number=1, black=late[0], white=late[1], table=999
    )
    assert "Latecomer" in client.get(where_url(tournament, q="latecomer")).content.decode()
    print(f"\nsearch of a 300-player round: {1000 * max(cpu):.1f} ms CPU at most")
