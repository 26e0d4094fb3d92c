"""What a superuser may do in a dispute (the README's "Who may do what" table): he is a
referee of every tournament, so he rules at the first level, even on a dispute a director
assigned to another referee; the appeals stay with the chief referee and the committee."""

from __future__ import annotations

from typing import Any

from referee import services
from tests.games.api_helpers import assert_error
from tests.referee.test_kinds import rule

LIST = "/api/v1/disputes/"


def test_a_superuser_rules_at_the_first_level_only(
    api_as: Any, nz_game: Any, alice: Any, director: Any, referee: Any, superuser: Any
) -> None:
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="other", claim="x")
    services.dispute_assign(actor=director, dispute=dispute, referee=referee)
    ruled = rule(api_as(superuser), dispute.pk, decision="dismissed", reasons="x")
    assert ruled.status_code == 201, ruled.content
    assert api_as(alice).post(f"{LIST}{dispute.pk}/appeal/").status_code in (200, 201)
    body = assert_error(rule(api_as(superuser), dispute.pk, decision="dismissed", reasons="x"), 403)
    assert "Only the tournament's chief referee" in body["message"]
