"""Evaluate one player's history against a promotion policy: a ``Decision`` or None.

Plain frozen values in (``PlayerHistory`` → ``EventRecord`` → ``GameRecordLite``),
a deterministic ``Decision`` with its evidence and ``idempotency_key`` out.  The
trigger, ``rank_since`` and the caps: docs/promotions.md §3 and §4.
Pure module: standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal, TypeAlias

from ratings.promotion.engine.criteria import (
    Criterion,
    NetWinLadder,
    RatingThreshold,
    ResultTable,
    WinsAtRank,
)
from ratings.promotion.engine.policy import DEFAULT_POLICY, KyuDemotion, PromotionPolicy
from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank

Id: TypeAlias = int | str
Direction: TypeAlias = Literal["promote", "demote"]
SCORES = (0.0, 0.5, 1.0)


# -- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecordLite:
    """One rated game from the player's side.

    ``won`` is 1, 0.5 (jigo) or 0.  ``handicap`` is the stones given (0 for
    an even game; 1 is Black without komi); ``received_handicap`` says
    whether this player took them.
    """

    game_id: Id
    opponent_rank: Rank
    opponent_rating: float
    won: float
    handicap: int = 0
    received_handicap: bool = False

    def __post_init__(self) -> None:
        if self.won not in SCORES:
            raise ValueError(f"game {self.game_id}: won must be 1, 0.5 or 0, not {self.won!r}")
        if (
            isinstance(self.handicap, bool)
            or not isinstance(self.handicap, int)
            or self.handicap < 0
        ):
            raise ValueError(f"game {self.game_id}: handicap must be a whole number >= 0")


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One rated event the player took part in, with his GoR before and after it."""

    event_id: Id
    end_date: date
    rating_before: float
    rating_after: float
    games: tuple[GameRecordLite, ...]
    rounds: int

    def __post_init__(self) -> None:
        for value in (self.rating_before, self.rating_after):
            if not math.isfinite(value):
                raise ValueError(f"event {self.event_id}: ratings must be finite, not {value!r}")
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 0:
            raise ValueError(f"event {self.event_id}: rounds must be a whole number >= 0")


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """A player's current rank and rated events.

    Events ending on or before ``rank_since`` were played at an earlier rank
    (None: the rank never changed).
    """

    player_id: Id
    current_rank: Rank
    events: tuple[EventRecord, ...]
    rank_since: date | None = None


# -- output ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evidence:
    """What satisfied the criterion: event ids, game ids (in history order), and a sentence."""

    events: tuple[Id, ...]
    games: tuple[Id, ...]
    detail: str

    def as_dict(self) -> dict[str, object]:
        """``{"events": [...], "games": [...], "detail": str}``, ready for a JSONField."""
        return {"events": list(self.events), "games": list(self.games), "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Decision:
    """Move ``player_id`` from ``old_rank`` to ``new_rank``, because of ``criterion``.

    ``criterion`` is a family name (``rating_threshold``, ``wins_at_rank``,
    ``net_win_ladder``, ``result_table``, ``kyu_demotion``) or, for a band
    combined with "all", ``all(<name>+<name>…)``.
    """

    player_id: Id
    old_rank: Rank
    new_rank: Rank
    direction: Direction
    criterion: str
    evidence: Evidence
    trigger_event_id: Id

    @property
    def idempotency_key(self) -> str:
        """Stable across runs: the player, the new rank and the triggering event."""
        return f"promotion:{self.player_id}:{self.new_rank}:{self.trigger_event_id}"

    def to_dict(self) -> dict[str, object]:
        return {
            "player_id": self.player_id,
            "old_rank": str(self.old_rank),
            "new_rank": str(self.new_rank),
            "direction": self.direction,
            "criterion": self.criterion,
            "evidence": self.evidence.as_dict(),
            "trigger_event_id": self.trigger_event_id,
            "idempotency_key": self.idempotency_key,
        }


# -- what one criterion says ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """One criterion's finding: move to ``target``, because of these events and games."""

    criterion: str
    target: Rank
    events: tuple[Id, ...]
    games: tuple[Id, ...]
    detail: str


@dataclass(frozen=True, slots=True)
class _View:
    current: Rank
    events: tuple[EventRecord, ...]  # every event, in order
    fresh: tuple[EventRecord, ...]  # those played at the current rank
    since: date | None


def _games_of(events: Sequence[EventRecord]) -> tuple[Id, ...]:
    return tuple(g.game_id for e in events for g in e.games)


def _lower_bound(rank: Rank) -> int:
    """Where the band of ``rank`` starts: 50 below its nominal GoR."""
    return rank.nominal_gor - 50


def _gor(value: float) -> str:
    return f"{value:.1f}"


def judge_rating_threshold(c: RatingThreshold, view: _View) -> Verdict | None:
    """The grade the GoR reaches (with the margin), held over K events or N games."""
    if c.games is None:
        if len(view.events) < c.events:
            return None
        window = view.events[-c.events :]
        target = min(Rank.from_gor(e.rating_after - c.margin) for e in window)
        if target <= view.current:
            return None
        detail = (
            f"GoR at or above {_lower_bound(target) + c.margin} ({target}'s band from "
            f"{_lower_bound(target)}, margin {c.margin}) at the end of {c.events} event(s): "
            + ", ".join(_gor(e.rating_after) for e in window)
        )
        return Verdict(c.name, target, tuple(e.event_id for e in window), _games_of(window), detail)
    run: list[EventRecord] = []
    games = 0
    for event in reversed(view.events):
        run.insert(0, event)
        games += len(event.games)
        if games >= c.games:
            break
    if games < c.games:
        return None
    start, end = run[0].rating_before, run[-1].rating_after
    target = Rank.from_gor(end - c.margin)
    if end < start or target <= view.current:
        return None
    detail = (
        f"a run of {len(run)} event(s) with {games} games (at least {c.games}) without net "
        f"rating loss, GoR {_gor(start)} to {_gor(end)}; {_gor(end)} reaches {target} "
        f"(band from {_lower_bound(target)}, margin {c.margin})"
    )
    return Verdict(c.name, target, tuple(e.event_id for e in run), _games_of(run), detail)


def _counts_against(c: WinsAtRank, game: GameRecordLite, target: Rank) -> bool:
    """Was the opponent at least ``target``, after the handicap (in half grades)?"""
    if game.handicap and c.handicap == "exclude":
        return False
    strength = 2 * game.opponent_rank.index
    if game.handicap:
        worth = 2 * game.handicap - 1  # H stones are worth H − 0.5 grades (EGF rating system)
        strength += -worth if game.received_handicap else worth
    return strength >= 2 * target.index


def judge_wins_at_rank(c: WinsAtRank, view: _View) -> Verdict | None:
    """N wins among the last M games at this rank against the target rank."""
    if view.current.index >= MAX_INDEX:
        return None
    target = Rank(view.current.index + 1)
    eligible = [
        (e.event_id, g) for e in view.fresh for g in e.games if _counts_against(c, g, target)
    ]
    window = eligible[-c.window :]
    wins = sum(g.won for _, g in window)
    if wins < c.wins:
        return None
    won = [(eid, g) for eid, g in window if g.won > 0]
    events = tuple(dict.fromkeys(eid for eid, _ in won))
    detail = (
        f"{wins:g} wins in the last {len(window)} games (window {c.window}) against {target} "
        f"or stronger, handicap games {'adjusted' if c.handicap == 'adjust' else 'excluded'}; "
        f"{c.wins} needed"
    )
    return Verdict(c.name, target, events, tuple(g.game_id for _, g in won), detail)


def judge_net_win_ladder(c: NetWinLadder, view: _View) -> Verdict | None:
    """Net +N promotes one grade, net −N demotes one, N by rank."""
    games = [g for e in view.fresh for g in e.games]
    wins = sum(1 for g in games if g.won == 1)
    losses = sum(1 for g in games if g.won == 0)
    net = wins - losses
    n = c.steps_for(view.current)
    if net >= n and view.current.index < MAX_INDEX:
        target = Rank(view.current.index + 1)
    elif net <= -n and view.current.index > MIN_INDEX:
        target = Rank(view.current.index - 1)
    else:
        return None
    since = "the start of the history" if view.since is None else view.since.isoformat()
    detail = (
        f"net {net:+d} ({wins} wins, {losses} losses, {len(games) - wins - losses} jigo) "
        f"since {since}; N = {n} at {view.current}"
    )
    events = tuple(e.event_id for e in view.fresh if e.games)
    return Verdict(c.name, target, events, tuple(g.game_id for g in games), detail)


def judge_result_table(c: ResultTable, view: _View) -> Verdict | None:
    """Entry rank × wins in the latest event of ``rounds`` rounds."""
    latest = view.events[-1]
    if latest.rounds != c.rounds:
        return None
    wins = min(math.floor(sum(g.won for g in latest.games)), c.rounds)
    certificate = c.certificate(view.current, wins)
    if certificate is None or certificate <= view.current:
        return None
    detail = (
        f"entered at {view.current}, {wins} win(s) in {c.rounds} rounds: certificate {certificate}"
    )
    return Verdict(c.name, certificate, (latest.event_id,), _games_of((latest,)), detail)


def judge_kyu_demotion(d: KyuDemotion, view: _View) -> Verdict | None:
    """The policy's hysteresis: below the band by ``margin`` for ``events`` events at this rank."""
    if len(view.fresh) < d.events:
        return None
    window = view.fresh[-d.events :]
    target = max(Rank.from_gor(e.rating_after + d.margin) for e in window)
    if target >= view.current:
        return None
    detail = (
        f"GoR below {_lower_bound(view.current) - d.margin} ({view.current}'s band from "
        f"{_lower_bound(view.current)}, margin {d.margin}) at the end of {d.events} event(s): "
        + ", ".join(_gor(e.rating_after) for e in window)
    )
    return Verdict(
        "kyu_demotion", target, tuple(e.event_id for e in window), _games_of(window), detail
    )


def judge(criterion: Criterion, view: _View) -> Verdict | None:
    if isinstance(criterion, RatingThreshold):
        return judge_rating_threshold(criterion, view)
    if isinstance(criterion, WinsAtRank):
        return judge_wins_at_rank(criterion, view)
    if isinstance(criterion, NetWinLadder):
        return judge_net_win_ladder(criterion, view)
    return judge_result_table(criterion, view)


# -- combining and capping --------------------------------------------------------------------


def _ordered(ids: Sequence[Id], order: Sequence[Id]) -> tuple[Id, ...]:
    wanted = set(ids)
    return tuple(dict.fromkeys(i for i in order if i in wanted))


def _all_of(verdicts: Sequence[Verdict], history: tuple[EventRecord, ...]) -> Verdict:
    names = "+".join(v.criterion for v in verdicts)
    return Verdict(
        criterion=f"all({names})",
        target=min(v.target for v in verdicts),
        events=_ordered([i for v in verdicts for i in v.events], [e.event_id for e in history]),
        games=_ordered([i for v in verdicts for i in v.games], _games_of(history)),
        detail="; ".join(f"{v.criterion}: {v.detail}" for v in verdicts),
    )


def _promotion(policy: PromotionPolicy, view: _View) -> tuple[Verdict | None, list[Verdict]]:
    """The band's promoting verdict (combined) and any demoting verdicts."""
    rule = policy.rule_for(policy.band_of(view.current))
    verdicts = [judge(c, view) for c in rule.criteria]
    ups = [v for v in verdicts if v is not None and v.target > view.current]
    downs = [v for v in verdicts if v is not None and v.target < view.current]
    if not ups:
        return None, downs
    if rule.combine == "all":
        if len(ups) < len(rule.criteria):
            return None, downs
        return _all_of(ups, view.events), downs
    best = ups[0]
    for v in ups[1:]:
        if v.target > best.target:
            best = v
    return best, downs


def evaluate(history: PlayerHistory, policy: PromotionPolicy = DEFAULT_POLICY) -> Decision | None:
    """The promotion or demotion ``policy`` gives after ``history``'s latest event, or None."""
    current = history.current_rank
    if current.is_honorary or not history.events:
        return None
    events = tuple(sorted(history.events, key=lambda e: e.end_date))
    latest = events[-1]
    since = history.rank_since
    if since is not None and latest.end_date <= since:
        return None  # the latest event's step is used up (or there is nothing new)
    fresh = events if since is None else tuple(e for e in events if e.end_date > since)
    view = _View(current, events, fresh, since)
    cap = policy.max_grades_per_event

    up, downs = _promotion(policy, view)
    if up is not None:
        new = Rank(min(up.target.index, current.index + cap, MAX_INDEX))
        return _decision(history, current, new, "promote", up, latest, cap)

    if current.is_dan and not policy.revoke_dan:
        return None
    if policy.kyu_demotion is not None:
        rating_down = judge_kyu_demotion(policy.kyu_demotion, view)
        if rating_down is not None:
            downs.append(rating_down)
    if not downs:
        return None
    mildest = downs[0]
    for v in downs[1:]:
        if v.target > mildest.target:
            mildest = v
    new = Rank(max(mildest.target.index, current.index - cap, MIN_INDEX))
    return _decision(history, current, new, "demote", mildest, latest, cap)


def _decision(
    history: PlayerHistory,
    old: Rank,
    new: Rank,
    direction: Direction,
    verdict: Verdict,
    latest: EventRecord,
    cap: int,
) -> Decision:
    detail = verdict.detail
    if new != verdict.target:
        detail += f"; reached {verdict.target}, capped at {new} ({cap} grade(s) per event)"
    return Decision(
        player_id=history.player_id,
        old_rank=old,
        new_rank=new,
        direction=direction,
        criterion=verdict.criterion,
        evidence=Evidence(verdict.events, verdict.games, detail),
        trigger_event_id=latest.event_id,
    )
