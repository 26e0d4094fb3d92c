"""Fixtures for the promotion tests: a rated event that earns Alice a
promotion under the default policy, the roles around it, and a synchronous evaluation."""

from __future__ import annotations

from typing import Any

import pytest

from games.people.services.grants import director_grant_admin, federation_official_grant
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.ratings.helpers import add_games, close


@pytest.fixture
def evaluate_now(monkeypatch: Any) -> list[dict[str, Any]]:
    """The ratings job runs inline and its promotion evaluation too (calls recorded)."""
    import ratings.tasks
    from ratings.promotion import evaluation
    from ratings.services import ratings_job_run

    calls: list[dict[str, Any]] = []

    def run(**kw: Any) -> None:
        calls.append(kw)
        evaluation.promotions_evaluate(**kw)

    monkeypatch.setattr(
        ratings.tasks.ratings_recompute, "delay", lambda job_id: ratings_job_run(job_id=job_id)
    )
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", run)
    return calls


@pytest.fixture
def strong_trio(db: Any) -> list[Any]:
    return [PlayerFactory(declared_rank=0) for _ in range(3)]


@pytest.fixture
def alice_wins(tournament: Any, alice: Any, strong_trio: list[Any]) -> Any:
    """Alice (3k) beats three 1d players at the Wellington Open: her GoR ends near 1866,
    in 2k's band (1850-1950), so the default policy proposes 2k."""
    add_games(tournament, [(alice, p, "B", 0) for p in strong_trio])
    return close(tournament)


@pytest.fixture
def staff_director(db: Any) -> Any:
    """Staff in the Directors group and a federation official, directing nothing."""
    user = UserFactory(username="fed", first_name="Fay", is_staff=True)
    director_grant_admin(user=user)
    federation_official_grant(actor=None, user=user)
    return user


@pytest.fixture
def other_director(db: Any) -> Any:
    """Directs another tournament only."""
    user = UserFactory(username="otto", first_name="Otto")
    TournamentFactory(name="Other Cup").directors.add(user)
    return user
