"""Nobody waits on another's import: identity steps take turns per name key and federation
id only, and a long wait is a 409 (PostgreSQL)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connections, transaction

from games.models import Player
from games.people.services.matching import players_identify
from games.tournament.services.files import entries_import_csv
from ops.conflicts import BUSY
from ops.services import StateConflict
from tests.factories import TournamentFactory

pytestmark = pytest.mark.integration

HEAD = b"family_name,given_name,rank,egd_pin\n"


class _Row:
    """A file's player as matching reads him."""

    def __init__(self, n: int, family: str, given: str, pin: str = "") -> None:
        self.id, self.family_name, self.given_name, self.rank = n, family, given, -5
        self.club = self.country = self.ffg_licence = self.aga_id = ""
        self.egd_pin = pin


def _run(fn: Any, out: dict[str, Any], name: str) -> threading.Thread:
    def body() -> None:
        started = time.monotonic()
        try:
            fn()
            out[name] = ("ok", time.monotonic() - started)
        except StateConflict as exc:
            out[name] = (" ".join(exc.messages), time.monotonic() - started)
        except BaseException as exc:  # reported by the assertion below
            out[name] = (repr(exc), time.monotonic() - started)
        finally:
            connections.close_all()

    thread = threading.Thread(target=body)
    thread.start()
    return thread


def test_an_import_waits_only_for_one_naming_the_same_player_and_gives_up_with_a_409(
    postgres: Any, transactional_db: Any, settings: Any
) -> None:
    settings.GOREF_TURN_WAIT_SECONDS = 1
    other, same = TournamentFactory(name="Other"), TournamentFactory(name="Same")
    out: dict[str, Any] = {}
    # A large import is in its identity step (and not yet committed): it holds the keys
    # of its players only, among them "Novák Jan" and EGD PIN 12345678.
    big = [_Row(n, f"Big{n}", "Import") for n in range(500)]
    big.append(_Row(500, "Novák", "Jan", "12345678"))
    with transaction.atomic():
        players_identify(actor=None, entrants=big, tournament=None)
        free = _run(
            lambda: entries_import_csv(
                actor=None, tournament=other, data=HEAD + b"Kim,Ji,5k,\nLee,Su,3k,\n"
            ),
            out,
            "free",
        )
        free.join(timeout=30)
        by_name = _run(
            lambda: entries_import_csv(actor=None, tournament=same, data=HEAD + b"Novak,Jan,2k,\n"),
            out,
            "by_name",
        )
        by_pin = _run(
            lambda: entries_import_csv(
                actor=None, tournament=same, data=HEAD + b"Nowak,J,2k,12345678\n"
            ),
            out,
            "by_pin",
        )
        by_name.join(timeout=30)
        by_pin.join(timeout=30)
    # A 2-player import with other players never waited.
    assert out["free"][0] == "ok" and out["free"][1] < 1, out
    # The imports naming a player of the large one waited a second, then were refused
    # with nothing written.
    for name in ("by_name", "by_pin"):
        message, waited = out[name]
        assert message == BUSY, out
        assert 0.9 < waited < 5, out
    assert not same.entries.exists()
    assert Player.objects.filter(family_name="Kim").count() == 1
    # After the large import committed, the same file goes through and links to its player.
    entries_import_csv(actor=None, tournament=same, data=HEAD + b"Novak,Jan,2k,\n")
    assert Player.objects.filter(family_name__in=["Novák", "Novak"]).count() == 1
