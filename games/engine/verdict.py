"""Does a finished game's record bear out the claimed result?  Which dead stones to count.

The order (submitted, markup, estimate, a flip of at most two unsure chains, then the
players' stone removal) and why a flip is never accepted silently: docs/rules.md, "How
dead stones are found".
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from .deadstones import Estimate, estimate_dead, flipped_dead_sets
from .replay import Replay
from .result import Reason, Result
from .scoring import Score, dead_from_markup, score
from .types import Point

_COMPARABLE = (Reason.SCORE, Reason.DRAW)


class DeadSource(enum.StrEnum):
    SUBMITTED = "submitted"  # typed or agreed by the players
    MARKUP = "markup"  # the record's TB/TW
    ESTIMATED = "estimated"  # the engine's estimate
    FLIPPED = "flipped"  # the estimate with unsure chains flipped: the players must confirm
    # None needed: every stone counts under the rules, or the claim (a resignation, a
    # win on time or by forfeit, none) says nothing a count can check.
    NONE = "none"


class Step(enum.StrEnum):
    """What happens next."""

    VERIFIED = "verified"  # the count bears the claim out
    CONFIRM = "confirm"  # it does with flipped chains: the opponent confirms them
    REMOVAL = "removal"  # no estimate matches: the players mark the dead stones
    MISMATCH = "mismatch"  # the dead stones are known and the count contradicts the claim
    UNCHECKED = "unchecked"  # nothing to compare (resignation, time, forfeit, no claim)


@dataclass(frozen=True, slots=True)
class Verdict:
    step: Step
    source: DeadSource
    dead: frozenset[Point]
    count: Score
    estimate: Estimate | None = None
    flipped: tuple[tuple[Point, ...], ...] = ()

    @property
    def matches(self) -> bool | None:
        """True: verified; False: contradicted; None: nothing to compare, or the players
        are still to agree on the dead stones."""
        if self.step is Step.VERIFIED:
            return True
        if self.step is Step.MISMATCH:
            return False
        return None


def comparable(claimed: Result | None, computed: Result) -> bool | None:
    """Does the count bear the claim out?  ``None``: a resignation, a win on time or by
    forfeit says nothing a count can check."""
    if claimed is None:
        return None
    if claimed.reason in _COMPARABLE or computed.reason is Reason.VOID:
        return claimed.same_outcome(computed)
    return None


def check_claim(
    played: Replay,
    claimed: Result | None,
    *,
    dead: Iterable[Point] | None = None,
    komi: Decimal | None = None,
    estimate: Estimate | None = None,
    estimating: bool = True,
) -> Verdict:
    """Count ``played`` and compare with ``claimed``.

    ``dead`` are the dead stones the players gave (``None`` or empty: none given).
    Without them the record's TB/TW markup is used, else the engine's estimate.
    A count that contradicts the claim with an estimate is never a verification,
    and never a mismatch either: the players have not said which stones are dead.
    """
    rules = played.rules
    record = played.record
    given = frozenset(dead or ())
    if not rules.remove_dead:
        counted = score(played, komi=komi)
        return _known(claimed, counted, DeadSource.NONE, frozenset())
    if given:
        return _known(claimed, score(played, dead=given, komi=komi), DeadSource.SUBMITTED, given)
    if record.territory_black or record.territory_white:
        marked = frozenset(
            dead_from_markup(played.board, record.territory_black, record.territory_white)
        )
        return _known(claimed, score(played, dead=marked, komi=komi), DeadSource.MARKUP, marked)
    if claimed is None or claimed.reason not in _COMPARABLE or not estimating:
        # A resignation, a win on time or by forfeit: no dead stones to look for (a void
        # claim is still compared with a count that is void).
        return _known(claimed, score(played, komi=komi), DeadSource.NONE, frozenset())
    if estimate is None:
        estimate = estimate_dead(played.board, rules)
    counted = score(played, dead=estimate.dead, komi=komi)
    outcome = comparable(claimed, counted.result)
    if outcome is None:
        return Verdict(Step.UNCHECKED, DeadSource.ESTIMATED, estimate.dead, counted, estimate)
    if outcome:
        return Verdict(Step.VERIFIED, DeadSource.ESTIMATED, estimate.dead, counted, estimate)
    for flipped, chains in flipped_dead_sets(estimate):
        trial = score(played, dead=flipped, komi=komi)
        if comparable(claimed, trial.result):
            return Verdict(
                Step.CONFIRM,
                DeadSource.FLIPPED,
                flipped,
                trial,
                estimate,
                tuple(c.points for c in chains),
            )
    return Verdict(Step.REMOVAL, DeadSource.ESTIMATED, estimate.dead, counted, estimate)


def _known(
    claimed: Result | None, counted: Score, source: DeadSource, dead: frozenset[Point]
) -> Verdict:
    outcome = comparable(claimed, counted.result)
    step = Step.UNCHECKED if outcome is None else Step.VERIFIED if outcome else Step.MISMATCH
    return Verdict(step, source, dead, counted)
