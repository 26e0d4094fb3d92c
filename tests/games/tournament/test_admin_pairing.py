"""The directors' pairing pages: pair round R, preview, edit, confirm, undo, print,
and the pairing settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameState, TournamentEntry
from games.people.services.grants import director_grant_admin
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


def as_text(*games: tuple[Any, ...]) -> str:
    """The edit form's one games field: "#black #white handicap [komi]" per table."""
    return "\n".join(" ".join(f"#{v}" if i < 2 else str(v) for i, v in enumerate(g)) for g in games)


def test_the_tournament_page_links_to_each_round_and_the_settings(as_director, tournament, field):
    page = as_director.get(reverse("admin:games_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200
    assert pair_url(tournament, 4).encode() in page.content
    assert b"Pairing settings" in page.content


def test_a_director_previews_edits_and_confirms_a_round(as_director, tournament, field):
    page = as_director.get(pair_url(tournament))
    assert page.status_code == 200 and b"Who plays" in page.content
    ids = [p.pk for p in field]
    preview = as_director.post(pair_url(tournament), {"step": "preview", "bye": "auto"})
    assert preview.status_code == 200
    rows = preview.context["rows"]
    proposed = [r for r in rows if r["black"] and r["white"]]
    assert len(proposed) == 2 and all(r["words"] for r in proposed)
    assert not Game.objects.exists()
    # The director pairs the two strongest by hand, and the bye stays the rule's.
    edit = preview.context["edit"]
    bye = edit.initial["bye"]
    assert bye.endswith(f"#{preview.context['proposal'].bye}")
    others = [p for p in ids if p != preview.context["proposal"].bye]
    # One field for every table, whatever the size of the round.
    assert b'name="black_0"' not in preview.content and b'name="games_text"' in preview.content
    data = {"step": "check", "bye": bye}
    data["games_text"] = as_text((others[1], others[0], 0), (others[2], others[3], 1))
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
    bye_id = preview.context["proposal"].bye
    assert TournamentEntry.objects.get(player_id=bye_id).presence(1) == "b"
    assert AuditEntry.objects.filter(action="round.paired").exists()


def test_warnings_name_a_repeat_game_and_a_player_twice(as_director, tournament, field):
    a, b, c = (p.pk for p in field[:3])
    data = {"step": "check", "bye": "", "games_text": as_text((a, b, 0), (a, c, 0))}
    checked = as_director.post(pair_url(tournament), data)
    words = [w for row in checked.context["rows"] for w in row["warnings"]]
    assert any("paired twice" in w for w in words)
    refused = as_director.post(pair_url(tournament), {**data, "step": "confirm"})
    assert refused.status_code == 200 and refused.context["errors"]
    assert not Game.objects.exists()


def test_undo_and_printing(as_director, tournament, field):
    ids = [p.pk for p in field[:4]]
    leave_out = f"{field[4]} #{field[4].pk}"
    preview = as_director.post(
        pair_url(tournament), {"step": "preview", "leave_out": leave_out, "bye": "none"}
    )
    assert preview.context["proposal"].bye is None and len(preview.context["proposal"].games) == 2
    data = {"step": "confirm", "bye": ""}
    data["games_text"] = as_text((ids[0], ids[1], 0), (ids[2], ids[3], 0))
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


def test_a_line_that_is_not_a_game_is_named_and_nothing_is_paired(as_director, tournament, field):
    data = {"step": "confirm", "bye": "", "games_text": f"#{field[0].pk} #{field[1].pk} 0\nhello"}
    page = as_director.post(pair_url(tournament), data)
    assert page.status_code == 200 and "Line 2" in str(page.context["edit"].errors)
    stranger = {"step": "preview", "leave_out": "#999999", "bye": "auto"}
    refused = as_director.post(pair_url(tournament), stranger)
    assert "not a player of this tournament" in str(refused.context["choose"].errors)
    assert not Game.objects.exists()


def test_outsiders_get_403_and_unknown_rounds_404(client, outsider, tournament, field, as_director):
    director_grant_admin(user=outsider)
    client.force_login(outsider)
    assert client.get(pair_url(tournament)).status_code == 403
    assert as_director.get(pair_url(tournament, tournament.number_of_rounds + 1)).status_code == 404


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


def test_confirming_over_unfinished_games_keeps_the_preview_and_says_what_to_tick(
    as_director, tournament, field
):
    ids = [p.pk for p in field[:4]]
    data = {"step": "confirm", "bye": ""}
    data["games_text"] = as_text((ids[0], ids[1], 0), (ids[2], ids[3], 0))
    as_director.post(pair_url(tournament), data)  # round 1, no results yet
    preview = as_director.post(pair_url(tournament, 2), {"step": "preview", "bye": "auto"})
    body = preview.content.decode()
    assert "total cost" not in body and "2. Preview" in body
    refused = as_director.post(pair_url(tournament, 2), data)
    text = refused.content.decode()
    assert refused.status_code == 200 and "accept_unfinished)" not in text
    assert "Tick \u201cPair over the 2 games without a final result\u201d below" in text
    assert refused.context["rows"][0]["black"]  # the preview is still there
    assert 'name="games_text"' in text and not Game.objects.filter(round__number=2).exists()
    confirmed = as_director.post(pair_url(tournament, 2), {**data, "accept_unfinished": "on"})
    assert confirmed.status_code == 302
