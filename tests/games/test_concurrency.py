"""Races on PostgreSQL: two confirmations at once give one locked result."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import close_old_connections, connection, connections, transaction

from games import services
from games.models import Game, GameState, ResultSubmission, SubmissionKind
from games.services import GameLockedError

pytestmark = pytest.mark.integration


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        # Statistics are a snapshot per transaction, and the caller holds one open.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def test_two_simultaneous_confirmations_lock_one_result(
    postgres, transactional_db, game, alice, bob
):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def confirm() -> None:
        try:
            services.game_result_confirm(actor=bob.user, game=Game.objects.get(pk=game.pk))
            outcomes.append("confirmed")
        except GameLockedError:
            outcomes.append("refused")
        except BaseException as exc:  # reported below, with the thread's traceback
            errors.append(exc)
        finally:
            connections.close_all()

    # Hold the game row so both confirmations are certainly waiting on it at once.
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        threads = [threading.Thread(target=confirm) for _ in range(2)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while _waiting_on_locks() < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _waiting_on_locks() == 2, "both confirmations should be waiting on the row lock"
    for t in threads:
        t.join(timeout=30)
    close_old_connections()

    assert not errors, errors
    assert sorted(outcomes) == ["confirmed", "refused"]
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED and game.locked_at is not None
    assert ResultSubmission.objects.filter(game=game, kind=SubmissionKind.CONFIRM).count() == 1


def test_a_confirmation_racing_a_director_finalising_leaves_one_lock(
    postgres, transactional_db, game, alice, bob, director
):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    outcomes: list[str] = []

    def run(fn) -> None:  # type: ignore[no-untyped-def]
        try:
            fn()
            outcomes.append("ok")
        except GameLockedError:
            outcomes.append("refused")
        finally:
            connections.close_all()

    calls = [
        lambda: services.game_result_confirm(actor=bob.user, game=game),
        lambda: services.game_finalise(actor=director, game=game),
    ]
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        threads = [threading.Thread(target=run, args=(c,)) for c in calls]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while _waiting_on_locks() < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _waiting_on_locks() == 2
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["ok", "refused"]
    assert (
        ResultSubmission.objects.filter(
            game=game, kind__in=[SubmissionKind.CONFIRM, SubmissionKind.FINALISE]
        ).count()
        == 1
    )
