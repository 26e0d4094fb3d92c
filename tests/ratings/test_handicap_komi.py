"""The handicap calculator gives the komi a round is paired with: for every handicap
policy and every rating difference from 0 to 10 stones, the calculator page and the
pairing service agree on the handicap's komi, with and without the tournament's own
komi of handicap games."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Tournament
from games.tournament.services.rounds import round_pair
from games.tournament.services.settings import komi_for_game
from tests.factories import PlayerFactory, TournamentFactory, enter

pytestmark = pytest.mark.django_db

POLICIES = ("nz", "egf", "mcmahon", "none")


def calculator(client: Client, tournament: Tournament, black: Any, white: Any) -> dict[str, Any]:
    response = client.get(
        "/ratings/handicap/",
        {"black": black.pk, "white": white.pk, "tournament": tournament.pk},
    )
    assert response.status_code == 200
    advice: dict[str, Any] = response.context["advice"]
    assert advice is not None, response.context["form"].errors
    return advice


@pytest.mark.parametrize("handicap_komi", [None, Decimal("1.5")])
@pytest.mark.parametrize("rules", ["japanese", "nz"])
@pytest.mark.parametrize("policy", POLICIES)
def test_the_calculator_and_the_pairing_agree_on_komi(
    client: Client, director: Any, policy: str, rules: str, handicap_komi: Decimal | None
) -> None:
    strong = PlayerFactory(family_name="Strong", declared_rank=3)
    for stones in range(11):
        tournament = TournamentFactory(
            rules=rules,
            handicap_policy=policy,
            system="mcmahon" if policy == "mcmahon" else "swiss",
            komi=Decimal("6.5"),
            handicap_komi=handicap_komi,
        )
        tournament.directors.add(director)
        weak = PlayerFactory(family_name=f"Weak{stones}", declared_rank=3 - stones)
        advice = calculator(client, tournament, strong, weak)
        said = (stones, advice["handicap"], advice["komi"])
        assert advice["komi"] == komi_for_game(tournament, advice["handicap"]), said
        if advice["handicap"]:
            assert f"komi {advice['komi']}" in advice["explanation"]
        if handicap_komi is not None:
            continue  # the pairing itself: once per policy and rules is enough
        enter(tournament, strong, weak)
        round_pair(actor=director, tournament=tournament, round_number=1)
        game = Game.objects.get(tournament=tournament)
        assert game.komi == komi_for_game(tournament, game.handicap)
        # The McMahon rule's no-handicap threshold clips both (docs/tournaments.md).
        assert (game.handicap, game.komi) == (advice["handicap"], advice["komi"]), said
