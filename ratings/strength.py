"""A player's current strength, the handicap it implies, and what-if rating changes (reads only).

A rated player is placed by his ``PlayerRating``, an unrated one at the
middle of his declared rank (docs/ratings.md §6).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.core.exceptions import ValidationError

from games.engine.rules import Rules, get_rules
from games.models import Player, Tournament
from ratings.handicap import NZ_POLICY, HandicapAdvice, HandicapPolicy, PolicyKind, advise
from ratings.models import HonoraryTitle, PlayerRating
from ratings.ranks import HONORARY_INDEX, Rank
from ratings.recompute import provisional_games, rating_system_name
from ratings.scales import playing_rank, scale_for
from ratings.systems import GameOutcome, PlayerState, RatingError


@dataclass(frozen=True)
class Strength:
    player: Player
    rating: float | None  # None: no rated games yet
    state: PlayerState  # the state a rating update starts from
    stones: float
    rank: Rank  # the rating's band, the declared rank when unrated, 9p+ when honorary
    provisional: bool
    algorithm: str


def _rating_row(player: Player) -> PlayerRating | None:
    try:
        return player.rating
    except PlayerRating.DoesNotExist:
        return None


def is_honorary(player: Player) -> bool:
    try:
        player.honorary_title  # noqa: B018 (the access is the check)
    except HonoraryTitle.DoesNotExist:
        return False
    return True


def current_strength(player: Player) -> Strength:
    row = _rating_row(player)
    name = rating_system_name()
    if row is not None:
        scale = scale_for(row.algorithm)
        state = PlayerState(row.rating, row.deviation, row.volatility, row.games)
        rank = Rank(row.rank)
        stones = scale.stones(row.rating)
        provisional = row.games < provisional_games()
        rating: float | None = row.rating
        name = row.algorithm
    else:
        scale = scale_for(name)
        state = scale.start(player.declared_rank)
        rank = Rank(player.declared_rank)
        stones = float(playing_rank(player.declared_rank).stones)
        provisional = True
        rating = None
    if player.declared_rank == HONORARY_INDEX or is_honorary(player):
        rank = Rank(HONORARY_INDEX)
    return Strength(player, rating, state, stones, rank, provisional, name)


def policy_for(tournament: Tournament | None) -> HandicapPolicy:
    """The tournament's handicap rule as a value, with the komi its rounds are paired with
    (no tournament: the NZ rule, cap 9/5, the rules' komi)."""
    if tournament is None:
        return NZ_POLICY
    cap = tournament.handicap_cap
    if tournament.handicap_policy == "mcmahon":
        # OpenGotha's rank rule is the grade difference less a correction: the EGF rule
        # with the correction as its reduction (the games app pairs it exactly, with
        # its no-handicap threshold).
        kind, reduction = PolicyKind.EGF, max(tournament.handicap_correction, 0)
        threshold: int | None = tournament.handicap_threshold
    else:
        kind, reduction = PolicyKind(tournament.handicap_policy), tournament.handicap_reduction
        threshold = None
    handicap_komi = tournament.handicap_komi
    return HandicapPolicy(
        kind=kind,
        cap=9 if cap is None else cap,
        small_board_cap=5 if cap is None else cap,
        reduction=reduction,
        even_komi=Decimal(tournament.komi),
        handicap_komi=None if handicap_komi is None else Decimal(handicap_komi),
        no_handicap_above=threshold,
    )


def entry_stones(rank: int, rating: int | None) -> float:
    """A tournament entry's strength on the stone scale: its rating, else its rank."""
    if rating is not None:
        return scale_for(rating_system_name()).stones(rating)
    return float(playing_rank(rank).stones)


def pairing_advice(
    *,
    tournament: Tournament | None,
    a: Player,
    b: Player,
    rules: Rules | None = None,
    size: int | None = None,
    entered: tuple[tuple[int, int | None], tuple[int, int | None]] | None = None,
) -> HandicapAdvice:
    """Handicap, colours and komi for ``a`` against ``b`` (advice.black is a ``Player``).

    ``entered``: the (rank, rating) each had at entry to the tournament, which stand for
    the whole event instead of today's strength."""
    if rules is None:
        rules = get_rules(tournament.rules if tournament is not None else "nz")
    if size is None:
        size = tournament.board_size if tournament is not None else 19
    if entered is not None:
        stones_a, stones_b = (entry_stones(rank, rating) for rank, rating in entered)
    else:
        stones_a, stones_b = current_strength(a).stones, current_strength(b).stones
    wa, wb = _Named(a.pk, a.full_name), _Named(b.pk, b.full_name)
    advice = advise(
        wa, stones_a, wb, stones_b, rules=rules, size=size, policy=policy_for(tournament)
    )
    back = {wa: a, wb: b}
    return replace(
        advice,
        black=None if advice.black is None else back[advice.black],  # type: ignore[index]
        white=None if advice.white is None else back[advice.white],  # type: ignore[index]
    )


@dataclass(frozen=True)
class _Named:
    """A player as the pure advice sees him: compared by id, shown by name in the explanation."""

    pk: int
    name: str = field(compare=False)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class WhatIfSide:
    player: Player
    rating_before: float
    rating_after: float

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class WhatIf:
    black: WhatIfSide
    white: WhatIfSide
    score_black: float
    handicap: int
    algorithm: str


def what_if(*, black: Player, white: Player, score_black: float, handicap: int = 0) -> WhatIf:
    """The rating changes one game would cause, from current ratings (nothing is written)."""
    sb, sw = current_strength(black), current_strength(white)
    scale = scale_for(rating_system_name())
    # Players rated under another algorithm restart at their declared rank on this one.
    pre = {
        1: sb.state if sb.algorithm == scale.name else scale.start(black.declared_rank),
        2: sw.state if sw.algorithm == scale.name else scale.start(white.declared_rank),
    }
    try:
        new = scale.system.rate_event(pre, [GameOutcome(1, 2, score_black, handicap)])
    except RatingError as exc:
        # e.g. EGF: a handicap that lifts Black to 3300 or more, the formula's pole.
        raise ValidationError(
            {"handicap": f"The rating formula cannot rate this game: {exc}."}
        ) from None
    return WhatIf(
        black=WhatIfSide(black, pre[1].rating, new[1].rating),
        white=WhatIfSide(white, pre[2].rating, new[2].rating),
        score_black=score_black,
        handicap=handicap,
        algorithm=scale.name,
    )
