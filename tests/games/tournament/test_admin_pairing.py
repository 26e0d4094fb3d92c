"""The directors' pairing pages: pair round R, preview, edit, confirm, undo, print,
and the pairing settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.groups import director_grant_admin
from games.models import Game, GameState, TournamentEntry
from games.tournament.engine.pairing import PairingParams
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_director(director: Any) -> Client:
    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    return c


@pytest.fixture
def field(tournament: Any) -> list[Any]:
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 1, 0, -1, -2], start=1)
    ]
    tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 4
    tournament.save()
    enter(tournament, *players)
    return players


def pair_url(tournament: Any, r: int = 1) -> str:
    return reverse("admin:games_tournament_pair", args=[tournament.pk, r])


def test_the_tournament_page_links_to_each_round_and_the_settings(as_director, tournament, field):
    page = as_director.get(reverse("admin:games_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200
    assert pair_url(tournament, 4).encode() in page.content
    assert b"Pairing settings" in page.content


def test_a_director_previews_edits_and_confirms_a_round(as_director, tournament, field):
    page = as_director.get(pair_url(tournament))
    assert page.status_code == 200 and b"Who plays" in page.content
    ids = [p.pk for p in field]
    preview = as_director.post(
        pair_url(tournament), {"step": "preview", "players": ids, "bye": "auto"}
    )
    assert preview.status_code == 200
    rows = preview.context["rows"]
    proposed = [r for r in rows if r["black"] and r["white"]]
    assert len(proposed) == 2 and all(r["words"] for r in proposed)
    assert not Game.objects.exists()
    # The director pairs the two strongest by hand, and the bye stays the rule's.
    edit = preview.context["edit"]
    bye = edit.initial["bye"]
    others = [p for p in ids if str(p) != bye]
    data = {"step": "check", "rows": 3, "bye": bye}
    data |= {"black_0": others[1], "white_0": others[0], "handicap_0": 0}
    data |= {"black_1": others[3], "white_1": others[2], "handicap_1": 1, "swap_1": "on"}
    checked = as_director.post(pair_url(tournament), data)
    assert checked.status_code == 200 and checked.context["rows"][0]["black"]
    confirmed = as_director.post(pair_url(tournament), {**data, "step": "confirm"})
    assert confirmed.status_code == 302
    games = list(Game.objects.order_by("table"))
    assert [(g.table, g.black_id, g.white_id) for g in games] == [
        (1, others[1], others[0]),
        (2, others[2], others[3]),
    ]
    assert games[1].handicap == 1
    assert TournamentEntry.objects.get(player_id=int(bye)).presence(1) == "b"
    assert AuditEntry.objects.filter(action="round.paired").exists()


def test_warnings_name_a_repeat_game_and_a_player_twice(as_director, tournament, field):
    a, b, c = (p.pk for p in field[:3])
    data = {"step": "check", "rows": 2, "bye": ""}
    data |= {"black_0": a, "white_0": b, "black_1": a, "white_1": c}
    checked = as_director.post(pair_url(tournament), data)
    words = [w for row in checked.context["rows"] for w in row["warnings"]]
    assert any("paired twice" in w for w in words)
    refused = as_director.post(pair_url(tournament), {**data, "step": "confirm"})
    assert refused.status_code == 200 and refused.context["errors"]
    assert not Game.objects.exists()


def test_undo_and_printing(as_director, tournament, field):
    ids = [p.pk for p in field[:4]]
    as_director.post(pair_url(tournament), {"step": "preview", "players": ids, "bye": "none"})
    data = {"step": "confirm", "rows": 2, "bye": ""}
    data |= {"black_0": ids[0], "white_0": ids[1], "black_1": ids[2], "white_1": ids[3]}
    as_director.post(pair_url(tournament), data)
    assert Game.objects.count() == 2
    printed = reverse("admin:games_tournament_pairing_print", args=[tournament.pk, 1])
    for by, text in (("table", b"Table"), ("name", b"Opponent"), ("slips", b"Signatures")):
        page = as_director.get(printed, {"by": by})
        assert page.status_code == 200 and text in page.content
    undone = as_director.post(pair_url(tournament), {"step": "undo"})
    assert undone.status_code == 302 and not Game.objects.exists()


def test_a_round_with_results_is_not_paired_again(as_director, director, tournament, field):
    from games.tournament.services import game_create

    game = game_create(
        actor=director, tournament=tournament, round_number=1, black=field[0], white=field[1]
    )
    Game.objects.filter(pk=game.pk).update(state=GameState.SUBMITTED)
    page = as_director.get(pair_url(tournament))
    assert b"can no longer be paired" in page.content
    assert as_director.post(pair_url(tournament), {"step": "undo"}).context["errors"]


def test_outsiders_get_403_and_unknown_rounds_404(client, outsider, tournament, field):
    director_grant_admin(user=outsider)
    client.force_login(outsider)
    assert client.get(pair_url(tournament)).status_code == 403


def test_pairing_settings_are_saved_and_restored(as_director, tournament, field):
    url = reverse("admin:games_tournament_pairing_settings", args=[tournament.pk])
    page = as_director.get(url)
    assert page.status_code == 200 and b"paiMaSeedSystem1" in page.content
    data = dict(page.context["form"].initial)
    data["seed_system1"] = "SPLITANDFOLD"
    data = {k: v for k, v in data.items() if v is not False}
    assert as_director.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.pairing_params["paiMaSeedSystem1"] == "SPLITANDFOLD"
    as_director.post(url, {"defaults": "1"})
    tournament.refresh_from_db()
    assert PairingParams.from_opengotha(tournament.pairing_params) == PairingParams()
    assert as_director.get(pair_url(tournament, 9)).status_code == 404
