"""Shared by the re-scoring tests: records with known counts, a broker stand-in."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import score

# Black lives on the left, White on the right, both pass: a real count.
FINISHED = (
    "(;GM[1]FF[4]SZ[19]KM[6.5];B[jd];W[kd];B[jj];W[kj];B[jp];W[kp];B[je];W[ke];B[jq];W[kq];B[];W[])"
)
# The same game with the players' territory markup (TB/TW) on a last node: the dead
# stones (none) are known, so a count that differs from the claim is a mismatch.
MARKED = FINISHED[:-1] + ";TB[aa]TW[ss])"
# Move 2 plays on an occupied point.
ILLEGAL = "(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[pd];B[dp];W[];B[])"
# Readable when submitted, but this one was stored behind the services' back.
BROKEN = "(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[zz])"


def count(sgf: str, rules: str = "japanese", komi: str = "6.5", dead: Any = ()) -> str:
    """The engine's own result for a record, as the tests' oracle."""
    played = replay(parse_record(sgf), get_rules(rules), strict=False)
    return score(played, dead=list(dead), komi=Decimal(komi)).result.to_sgf()


def opposite(result: str) -> str:
    """Another result than ``result``, the other player winning by the same margin."""
    return ("W" if result.startswith("B") else "B") + result[1:]


class Broker:
    """Stands in for ``apply_async`` of the re-scoring tasks: records each publish,
    runs it inline when ``execute`` is set, fails when ``down`` is set."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        self.execute = False
        self.down = False

    def patch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from games import tasks
        from games.services import scoring

        for name in ("rescore_game", "rescore_chunk", "sweep_pending"):
            task = getattr(tasks, name)
            monkeypatch.setattr(task, "apply_async", self._sender(name, task))
        # What the sweep reads from the queue: the messages sent and not delivered.
        monkeypatch.setattr(scoring, "runs_in_broker", lambda: set(self.run_ids()))

    def _sender(self, name: str, task: Any) -> Any:
        def apply_async(args: tuple[Any, ...] = (), **kwargs: Any) -> None:
            if self.down:
                from kombu.exceptions import OperationalError

                raise OperationalError(
                    "Error 111 connecting to 127.0.0.1:6399. Connection refused."
                )
            self.sent.append((name, tuple(args)))
            if self.execute:
                task(*args)

        return apply_async

    def run_ids(self) -> list[int]:
        ids: list[int] = []
        for name, args in self.sent:
            ids.extend([args[0]] if name == "rescore_game" else list(args[0]))
        return ids

    def deliver(self) -> None:
        """Run every message sent so far (a worker, in-process)."""
        from games import tasks

        sent, self.sent = self.sent, []
        for name, args in sent:
            getattr(tasks, name)(*args)
