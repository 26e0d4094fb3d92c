"""Komi of handicap games from the tournament's rule: the setting, its conventional
defaults per handicap policy, the pairing, the preview, the slips and the result sheet."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.people.services.grants import director_grant_admin
from games.tournament.services import game_create, tournament_settings_update
from games.tournament.services.rounds import round_games_set, round_pair
from games.tournament.services.settings import handicap_komi
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(tournament: Any) -> list[Any]:
    """Four players a stone or more apart, McMahon with OpenGotha's handicap rule."""
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 0, -2, -4], start=1)
    ]
    tournament.system = "mcmahon"
    tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 3
    tournament.save()
    enter(tournament, *players)
    return players


@pytest.mark.parametrize(
    ("policy", "rules", "one_stone", "more"),
    [
        ("mcmahon", "japanese", "0.5", "0.5"),
        ("egf", "japanese", "0.5", "0.5"),
        ("nz", "nz", "0", "0"),
        ("nz", "japanese", "0", "0.5"),  # NZ's one stone, the preset's from two
        ("none", "chinese", "0.5", "0.5"),  # no convention: the preset's handicap komi
    ],
)
def test_each_policy_has_its_conventional_handicap_komi(tournament, policy, rules, one_stone, more):
    tournament.handicap_policy, tournament.rules = policy, rules
    assert handicap_komi(tournament, 1) == Decimal(one_stone)
    assert handicap_komi(tournament, 3) == Decimal(more)


def test_a_handicap_1_game_gets_the_handicap_komi_not_the_even_one(director, tournament, field):
    one = game_create(
        actor=director,
        tournament=tournament,
        round_number=1,
        black=field[1],
        white=field[0],
        handicap=1,
    )
    even = game_create(
        actor=director,
        tournament=tournament,
        round_number=1,
        black=field[3],
        white=field[2],
        handicap=0,
    )
    assert one.komi == Decimal("0.5")
    assert even.komi == tournament.komi == Decimal("6.5")


def test_the_pairing_uses_the_tournaments_handicap_komi(director, tournament, field):
    tournament_settings_update(actor=director, tournament=tournament, handicap_komi="0")
    tournament.refresh_from_db()
    result = round_pair(actor=director, tournament=tournament, round_number=1, dry_run=True)
    assert any(g.handicap for g in result.games)
    for g in result.games:
        assert g.komi == (Decimal(0) if g.handicap else Decimal("6.5"))
    entry = AuditEntry.objects.get(action="tournament.settings_changed")
    assert entry.old_value == {"handicap_komi": None}
    assert entry.new_value == {"handicap_komi": "0"}


def test_a_komi_of_a_third_is_refused_naming_the_setting(director, tournament):
    with pytest.raises(Exception) as raised:
        tournament_settings_update(actor=director, tournament=tournament, handicap_komi="0.3")
    assert "handicap_komi" in raised.value.message_dict  # type: ignore[attr-defined]


def test_the_api_shows_and_takes_the_komi_in_handicap_games(api_as, director, tournament):
    url = f"/api/v1/tournaments/{tournament.pk}/"
    client = api_as(director)
    shown = client.get(url).json()["handicap_policy"]
    assert shown["kind"] == "nz" and shown["komi_set"] is False
    assert shown["komi_one_stone"] == "0" and shown["komi"] == "0.5"  # Japanese rules
    changed = client.patch(
        url, {"handicap_policy": {"kind": "egf", "komi": "-0.5"}}, format="json"
    ).json()["handicap_policy"]
    assert Decimal(changed["komi"]) == Decimal(changed["komi_one_stone"]) == Decimal("-0.5")
    assert changed["komi_set"] is True
    cleared = client.patch(
        url, {"handicap_policy": {"kind": "egf", "komi": None}}, format="json"
    ).json()["handicap_policy"]
    assert cleared["komi"] == "0.5" and cleared["komi_set"] is False
    bad = client.patch(url, {"handicap_policy": {"kind": "nz", "komi": "0.3"}}, format="json")
    assert bad.status_code == 400
    assert "handicap_policy.komi" in str(bad.json())


def test_the_preview_shows_each_komi_and_a_changed_one_is_saved(director, tournament, field):
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    url = reverse("admin:games_tournament_pair", args=[tournament.pk, 1])
    ids = [p.pk for p in field]
    preview = client.post(url, {"step": "preview", "bye": "none"})
    assert preview.status_code == 200
    rows = preview.context["rows"]
    assert all(r["komi"] == (Decimal("0.5") if r["handicap"] else Decimal("6.5")) for r in rows[:2])
    assert b'data-role="komi"' in preview.content
    text = f"#{ids[1]} #{ids[0]} 1 7\n#{ids[3]} #{ids[2]} 1"
    data = {"step": "confirm", "bye": "", "games_text": text}
    assert client.post(url, data).status_code == 302
    assert [g.komi for g in Game.objects.order_by("table")] == [Decimal(7), Decimal("0.5")]


def test_slips_offer_a_jigo_only_with_a_whole_number_komi(director, tournament, field):
    round_games_set(
        actor=director,
        tournament=tournament,
        round_number=1,
        games=[(field[1].pk, field[0].pk, 0, Decimal(7)), (field[3].pk, field[2].pk, 0, None)],
    )
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    page = client.get(
        reverse("admin:games_tournament_pairing_print", args=[tournament.pk, 1]), {"by": "slips"}
    )
    slips = page.content.decode().split('<div class="slip">')[1:]
    assert "jigo" in slips[0] and "komi 7" in slips[0]
    assert "jigo" not in slips[1] and "komi 6.5" in slips[1]


def test_the_result_sheet_refuses_a_jigo_at_komi_6_5(director, tournament, field):
    games = round_games_set(
        actor=director,
        tournament=tournament,
        round_number=1,
        games=[(field[1].pk, field[0].pk, 0), (field[3].pk, field[2].pk, 0, Decimal(7))],
    )
    from games.services import round_results_enter

    with pytest.raises(Exception) as raised:
        round_results_enter(
            actor=director, round=games[0].round, results=[(games[0].pk, "0"), (games[1].pk, "0")]
        )
    text = " ".join(raised.value.messages)  # type: ignore[attr-defined]
    assert "there is no jigo" in text and f"game {games[0].pk}" in text
    assert f"game {games[1].pk}" not in text
