"""The game page's count names the stones in seki, their eyes and each teire, as the
engine reports them (docs/rules.md): a referee sees why points count nothing."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from games.engine.board import Board
from games.engine.rules import get_rules
from games.engine.scoring import score_position
from games.models import ScoringRun, ScoringState
from tests.engine.test_territory import ONE_EYE_EACH
from tests.factories import GameFactory

FORCED = """
..xo...
..xo...
...xo..
xxx.o..
ooooo..
.......
.......
"""


def _page_with_count(client, drawing: str) -> str:
    counted = score_position(Board.from_ascii(drawing), get_rules("japanese"), komi=Decimal(0))
    game = GameFactory(sgf="(;SZ[9])")
    ScoringRun.objects.create(
        game=game,
        rules="japanese",
        engine_version="1",
        input_hash="x",
        requested_at=timezone.now(),
        state=ScoringState.DONE,
        computed_result=counted.result.to_sgf(),
        breakdown=counted.to_dict(),
    )
    return client.get(f"/games/{game.pk}/").content.decode()


def test_the_count_lists_the_seki_stones_and_their_eyes(client, db) -> None:
    page = _page_with_count(client, ONE_EYE_EACH)
    assert "Black&#x27;s stones in seki: B9 A8 B8" in page
    assert "White&#x27;s stones in seki: E9 G9 C8 D8 E8 F8 G8" in page
    assert "Eyes of groups in seki (no territory): A9 F9" in page
    assert "Shared liberties in seki: D9" in page


def test_the_count_lists_each_teire_with_the_chain_it_protects(client, db) -> None:
    page = _page_with_count(client, FORCED)
    assert "Teire: C5 must be filled by B to protect D5" in page
