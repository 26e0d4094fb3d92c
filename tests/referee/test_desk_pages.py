"""What players and officials see: the engine's check on the game page, the record to
download, and a dispute page that shows the disputed move, its stones, the appeals and
a readable trail."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services as games
from games import tasks
from games.models import ScoringRun
from referee import services
from referee.models import Dispute
from tests.games.rescore_helpers import FINISHED, ILLEGAL, Broker, count
from tests.referee.conftest import sgf
from tests.referee.test_kinds import DEAD
from tests.referee.test_procedure_fixes import KO_THEN_MORE


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


def _rescore(game: Any) -> None:
    tasks.rescore_game(ScoringRun.objects.get(game=game).pk)


def _page(client: Client, user: Any, url: str) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_game_page_says_the_count_matches(client: Client, game: Any, alice: Any, broker: Any):  # type: ignore[no-untyped-def]
    result = count(FINISHED)
    games.game_result_submit(actor=alice.user, game=game, result=result, sgf=FINISHED)
    _rescore(game)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        f"The engine counted {result} from the record under Japanese rules: matches the result."
        in html
    )
    assert "Black&#x27;s area" in html or "Black's area" in html


def test_the_game_page_names_the_first_illegal_move_and_links_the_dispute(
    client: Client, game: Any, alice: Any, broker: Any
) -> None:
    games.game_result_submit(actor=alice.user, game=game, result="W+3.5", sgf=ILLEGAL)
    _rescore(game)
    dispute = Dispute.objects.get(game=game)
    html = _page(client, alice.user, f"/games/{game.pk}/")
    assert "it has an illegal move, so it does not support the result W+3.5" in html
    assert "First illegal move: <strong>move 2, White Q16: occupied</strong>" in html
    assert f'href="/referee/disputes/{dispute.pk}/"' in html
    # While it is disputed, the page offers no new claim and no second dispute.
    assert "Submit a different result" not in html and 'id="raise-dispute"' not in html


def test_the_record_can_be_downloaded(client: Client, game: Any, alice: Any) -> None:
    games.game_result_submit(actor=alice.user, game=game, result="B+R", sgf=FINISHED)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/record.sgf"' in html
    response = client.get(f"/games/{game.pk}/record.sgf")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="goref-game-{game.pk}.sgf"'
    assert response.content.decode() == FINISHED
    assert client.get(f"/games/{game.pk + 1000}/record.sgf").status_code == 404


def test_the_dispute_page_shows_the_disputed_move_and_steps_through(
    client: Client, nz_game: Any, alice: Any, referee: Any
) -> None:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R", sgf=sgf(*KO_THEN_MORE))
    dispute = services.dispute_open(actor=referee, game=nz_game, kind="illegal-move")
    url = f"/referee/disputes/{dispute.pk}/"
    html = _page(client, referee, url)
    assert "Position after move 7 of 11 (the move in dispute, ringed)" in html
    assert 'class="last-move"' in html
    assert '<ol class="moves">' in html and 'href="?at=7#board">7. B A1</a>' in html
    assert "No count: the game ended by resignation." in html and 'id="count"' not in html
    stepped = _page(client, referee, url + "?at=3")
    assert "Position after move 3 of 11." in stepped


def test_the_stones_in_dispute_are_crossed(client: Client, nz_game: Any, alice: Any, bob: Any):  # type: ignore[no-untyped-def]
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="W+9", sgf=sgf(*DEAD), dead_stones=["B5"]
    )
    dispute = services.dispute_open(actor=bob.user, game=nz_game, kind="dead-stones")
    html = _page(client, bob.user, f"/referee/disputes/{dispute.pk}/")
    assert html.count('class="dead-mark"') == 1 and "crossed: B5" in html
    assert 'id="count"' in html  # both passed: a count decides this game


def test_officials_read_the_appeals_and_a_trail_in_sentences(
    client: Client, nz_game: Any, alice: Any, bob: Any, referee: Any, chief: Any, members: Any
) -> None:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    dispute = services.dispute_open(actor=bob.user, game=nz_game, kind="time", claim="Flag")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Fell", result="W+T"
    )
    dispute = services.dispute_appeal(actor=alice.user, dispute=dispute, reason="Clock broken")
    html = _page(client, chief, f"/referee/disputes/{dispute.pk}/")
    assert "alice appealed to the chief referee" in html and "Clock broken" in html
    assert "Ruling of the referee: upheld — result B+R → W+T." in html
    assert "dispute.ruled" not in html
    services.dispute_rule(actor=chief, dispute=dispute, decision="upheld", reasons="Fell")
    dispute = services.dispute_appeal(actor=alice.user, dispute=dispute, reason="Still broken")
    for member in members[:2]:
        services.dispute_rule(
            actor=member, dispute=dispute, decision="upheld", reasons="Fell", result="W+T"
        )
    html = _page(client, alice.user, f"/referee/disputes/{dispute.pk}/")
    assert "(the committee, by 2 votes," in html
