"""Handicap policy (``nz``, ``egf``, ``none``): how many stones, who takes Black, komi, placement.

The rules, their sources (New Zealand Rules of Go, EGF results format), the
caps, komi by preset and goref's decisions: docs/ratings.md §8.
The komi of a handicap game comes from the same convention the pairing uses
(``games.engine.komi``), so the calculator and a round agree.
Pure module: standard library plus ``games.engine`` (stdlib-only).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from games.engine import handicap as engine_handicap
from games.engine.komi import game_komi, handicap_komi_default
from games.engine.rules import Placement as RulesPlacement
from games.engine.rules import Rules
from games.engine.types import Point
from ratings.ranks import Rank

NOISE = 1e-9
FREE: Literal["free"] = "free"


class PolicyKind(enum.Enum):
    NZ = "nz"
    EGF = "egf"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class HandicapPolicy:
    """A tournament's handicap rule, as a frozen value.

    Boards of ``small_board_size`` and smaller use ``small_board_cap``;
    ``reduction`` is egf only; ``white_passes_when_free=None``: as the policy says.
    Komi, as a tournament pairs it: ``even_komi`` (None: the rules'), ``handicap_komi``
    (None: the convention of ``kind``; a "mcmahon" tournament is paired as ``egf``, whose
    convention, 0.5, is the McMahon one too).
    """

    kind: PolicyKind = PolicyKind.NZ
    cap: int = 9
    small_board_cap: int = 5
    small_board_size: int = 9
    reduction: int = 0
    even_komi: Decimal | None = None
    handicap_komi: Decimal | None = None
    # OpenGotha's no-handicap threshold (a grade, 0 = 1d): grades above it count as it.
    no_handicap_above: int | None = None
    white_passes_when_free: bool | None = None
    epsilon: float = NOISE

    def __post_init__(self) -> None:
        if self.cap < 0 or self.small_board_cap < 0 or self.reduction < 0:
            raise ValueError("cap, small_board_cap and reduction must not be negative")
        if not 0 <= self.epsilon < 0.01:
            raise ValueError("epsilon must be small: it only absorbs float noise")

    def cap_for(self, size: int) -> int:
        """The largest handicap this policy allows on a ``size`` board."""
        return self.small_board_cap if size <= self.small_board_size else self.cap

    def komi_for(self, rules: Rules, handicap: int) -> Decimal:
        """The komi of a game with ``handicap`` stones under ``rules``: the pairing's
        rule (``games.engine.komi``), so both give the same komi."""
        even = rules.komi if self.even_komi is None else self.even_komi
        with_handicap = self.handicap_komi
        if with_handicap is None:
            with_handicap = handicap_komi_default(
                self.kind.value, rules.handicap_komi, max(handicap, 1)
            )
        return game_komi(handicap, even=even, with_handicap=with_handicap)


NZ_POLICY = HandicapPolicy()
EGF_POLICY = HandicapPolicy(kind=PolicyKind.EGF)
NO_HANDICAP = HandicapPolicy(kind=PolicyKind.NONE)


@dataclass(frozen=True, slots=True)
class HandicapAdvice:
    """What the policy advises for one pairing (``black``/``white`` None: nigiri).

    ``compensation`` is not in ``komi``: White gets it at the count.
    ``placement``: fixed points in placing order, ``"free"``, or ``()`` for h <= 1.
    """

    handicap: int
    komi: Decimal
    compensation: int
    even_game_allowed: bool
    black: Hashable | None
    white: Hashable | None
    placement: tuple[Point, ...] | Literal["free"]
    white_passes: int
    difference_stones: float
    explanation: str

    @property
    def is_even(self) -> bool:
        return self.handicap == 0


Strength = float | int | Rank


def _stones(value: Strength) -> float:
    if isinstance(value, Rank):
        if value.is_honorary:
            raise ValueError("the honorary 9p+ is a title, not a strength: use the player's rank")
        return float(value.stones)
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"a strength must be a finite number of stones, not {value!r}")
    return x


def nz_stones(difference: float, epsilon: float = NOISE) -> int:
    """The NZ handicap before any cap: the difference rounded up."""
    return max(0, math.ceil(abs(difference) - epsilon))


def nz_stones_from_gor(gor_a: int, gor_b: int) -> int:
    """The exact integer form for whole GoR: ``(|ΔGoR| + 99) // 100``."""
    return (abs(gor_a - gor_b) + 99) // 100


def egf_grade(stones: float) -> int:
    """The EGF grade (signed ladder index) of a strength: floor(stones + 0.5).

    The bands of ``Rank.from_gor``, without the ladder clamp.
    """
    return math.floor(round(stones + 0.5, 9))


def egf_stones(grades: int, reduction: int, cap: int = 9) -> int:
    """The EGD's rule: ``max(0, min(grade difference, cap) − reduction)``.

    The cap applies before the reduction, so ``HA[h9]`` always means no handicap.
    """
    if grades < 0 or reduction < 0:
        raise ValueError("a grade difference and a reduction cannot be negative")
    return max(0, min(grades, cap) - reduction)


def egf_explain(grades: int, policy: HandicapPolicy, size: int) -> str:
    cap = policy.cap_for(size)
    capped = f"capped at {cap}, " if grades > cap else ""
    return f"grade difference {grades}, {capped}less reduction {policy.reduction}"


_FREE_PLACEMENTS = (RulesPlacement.FREE, RulesPlacement.FREE_WHITE_PASSES)


def _free_passes(rules: Rules, policy: HandicapPolicy) -> bool:
    if policy.white_passes_when_free is not None:
        return policy.white_passes_when_free
    return rules.placement is RulesPlacement.FREE_WHITE_PASSES or policy.kind is PolicyKind.NZ


def advise(
    a: Hashable,
    a_strength: Strength,
    b: Hashable,
    b_strength: Strength,
    *,
    rules: Rules,
    size: int = 19,
    policy: HandicapPolicy = NZ_POLICY,
) -> HandicapAdvice:
    """The handicap, colours, komi and placement for ``a`` against ``b``.

    Strengths are on the stone scale (``ratings.stones.gor_to_stones``) or ``Rank`` values.
    """
    sa, sb = _stones(a_strength), _stones(b_strength)
    d = abs(sa - sb)
    eps = policy.epsilon
    notes: list[str] = [f"difference {d:.2f} stones"]

    if policy.kind is PolicyKind.NONE:
        h, even_allowed = 0, True
        notes.append("this tournament plays every game even")
    elif policy.kind is PolicyKind.NZ:
        h = nz_stones(d, eps)
        even_allowed = d < 0.5 - eps
        notes.append(f"rounded up: {h}")
        if even_allowed and h:
            notes.append("under 0.5, so the players may choose an even game instead")
    else:
        ga, gb = egf_grade(sa), egf_grade(sb)
        top = policy.no_handicap_above
        if top is not None and max(ga, gb) > top:
            # As the pairing reads ranks (handicap_between): the stronger side of the
            # threshold plays as if at it, so two players above it play even.
            notes.append(f"grades above {Rank(top)} count as {Rank(top)}")
            ga, gb = min(ga, top), min(gb, top)
        h = egf_stones(abs(ga - gb), policy.reduction, policy.cap_for(size))
        even_allowed = h == 0
        notes.append(f"{egf_explain(abs(ga - gb), policy, size)}: {h}")

    cap = policy.cap_for(size)
    if h > cap:
        notes.append(f"capped at {cap} on {size}x{size}")
        h = cap
    if rules.placement is RulesPlacement.NONE and h:
        notes.append(f"{rules.name} rules have no handicap: even game")
        h, even_allowed = 0, True
    if rules.placement is RulesPlacement.FIXED and h >= 2:
        most = max(1, engine_handicap.max_fixed_stones(size))
        if h > most:
            notes.append(f"{size}x{size} has fixed points for at most {most}")
            h = most
    if rules.placement in _FREE_PLACEMENTS and h >= size * size:
        h = size * size - 1  # leave White somewhere to play
        notes.append(f"a {size}x{size} board holds at most {h} stones")

    if h == 0:
        komi = policy.komi_for(rules, 0)
        return HandicapAdvice(
            handicap=0,
            komi=komi,
            compensation=0,
            even_game_allowed=True,
            black=None,
            white=None,
            placement=(),
            white_passes=0,
            difference_stones=d,
            explanation="; ".join([*notes, f"even game, nigiri, komi {komi}"]),
        )

    black, white = (a, b) if sa < sb else (b, a)
    komi = policy.komi_for(rules, h)
    if h == 1:
        placement: tuple[Point, ...] | Literal["free"] = ()
        passes = 0
        notes.append(f"weaker player {black!r} takes Black and moves first, komi {komi}")
    else:
        placement, passes = _placement(rules, size, h, policy)
        notes.append(f"weaker player {black!r} takes Black with {h} stones, komi {komi}")
        if passes:
            moves = "move" if passes == 1 else f"{passes} moves"
            notes.append(f"free placement: White passes the first {moves}")
        elif placement == FREE:
            notes.append("free placement")
        else:
            notes.append("fixed placement")
    compensation = rules.compensation_for(h)
    if compensation:
        notes.append(f"White gets {compensation} extra points at the count")
    return HandicapAdvice(
        handicap=h,
        komi=komi,
        compensation=compensation,
        even_game_allowed=even_allowed,
        black=black,
        white=white,
        placement=placement,
        white_passes=passes,
        difference_stones=d,
        explanation="; ".join(notes),
    )


def _placement(
    rules: Rules, size: int, h: int, policy: HandicapPolicy
) -> tuple[tuple[Point, ...] | Literal["free"], int]:
    if rules.placement is RulesPlacement.FIXED:
        plan = engine_handicap.setup_for(RulesPlacement.FIXED, size, h)
        return plan.points, 0
    how = RulesPlacement.FREE_WHITE_PASSES if _free_passes(rules, policy) else RulesPlacement.FREE
    plan = engine_handicap.setup_for(how, size, h)
    return FREE, plan.white_passes
