"""Small synthetic histories for the promotion tests (ratings.promotion.engine.evaluate inputs)."""

from __future__ import annotations

from datetime import date, timedelta

from ratings.promotion.engine import EventRecord, GameRecordLite, PlayerHistory
from ratings.ranks import Rank

DAY0 = date(2024, 1, 1)
SCORE = {"W": 1.0, "J": 0.5, "L": 0.0}


def day(n: int) -> date:
    return DAY0 + timedelta(days=n)


def event(
    n: int,
    after: float,
    before: float | None = None,
    results: str = "",
    opp: str = "5k",
    rounds: int | None = None,
    handicap: int = 0,
    received: bool = False,
) -> EventRecord:
    """Event ``e<n>`` ending on day n; ``results`` is one letter per game: W, J (jigo) or L."""
    opponent = Rank.parse(opp)
    games = tuple(
        GameRecordLite(
            game_id=f"e{n}g{i}",
            opponent_rank=opponent,
            opponent_rating=float(opponent.nominal_gor) if not opponent.is_honorary else 2900.0,
            won=SCORE[r],
            handicap=handicap,
            received_handicap=received,
        )
        for i, r in enumerate(results, start=1)
    )
    return EventRecord(
        event_id=f"e{n}",
        end_date=day(n),
        rating_before=after if before is None else before,
        rating_after=after,
        games=games,
        rounds=(len(results) or 5) if rounds is None else rounds,
    )


def merge(*events: EventRecord) -> EventRecord:
    """One event holding the games of several (to mix opponents inside an event)."""
    first, last = events[0], events[-1]
    return EventRecord(
        event_id=first.event_id,
        end_date=first.end_date,
        rating_before=first.rating_before,
        rating_after=last.rating_after,
        games=tuple(
            GameRecordLite(
                f"{first.event_id}x{i}",
                g.opponent_rank,
                g.opponent_rating,
                g.won,
                g.handicap,
                g.received_handicap,
            )
            for i, g in enumerate((g for e in events for g in e.games), start=1)
        ),
        rounds=sum(e.rounds for e in events),
    )


def history(
    rank: str, *events: EventRecord, since: int | None = None, player: int = 7
) -> PlayerHistory:
    return PlayerHistory(
        player_id=player,
        current_rank=Rank.parse(rank),
        events=events,
        rank_since=None if since is None else day(since),
    )


def r(text: str) -> Rank:
    return Rank.parse(text)
