"""Rated histories built straight into the tables (factories: fixtures, not a write path)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from games.models import Game, GameState, Player, Round, Tournament
from ratings.models import PlayerRating, RatingHistory
from tests.factories import PlayerFactory, TournamentFactory, enter

RESULTS = {
    "B": ("B", "resignation"),
    "W": ("W", "resignation"),
    "=": ("", "draw"),
    "void": ("", "void"),
    "forfeit": ("B", "forfeit"),
}


def event(
    day: dt.date, games: list[tuple[Player, Player, str, int]], *, rated: bool = True, **kw: Any
) -> Tournament:
    """A finished tournament, closed: (black, white, result, handicap) per game, all in
    round 1.. n."""
    kw.setdefault("closed_at", timezone.now())
    t = TournamentFactory(start_date=day, end_date=day, rated=rated, **kw)
    add_games(t, games)
    return t


def add_games(
    t: Tournament, games: list[tuple[Player, Player, str, int]], *, state: str = GameState.FINAL
) -> list[Game]:
    made = []
    enter(t, *{p for b, w, *_ in games for p in (b, w)})
    base = t.rounds.count()
    for n, (b, w, res, h) in enumerate(games, start=1):
        rnd, _ = Round.objects.get_or_create(tournament=t, number=base + n)
        winner, reason = RESULTS[res]
        locked = state in (GameState.FINAL, GameState.CONFIRMED)
        made.append(
            Game.objects.create(
                tournament=t,
                round=rnd,
                black=b,
                white=w,
                handicap=h,
                komi=t.komi,
                rules=t.rules,
                result_winner=winner,
                result_reason=reason,
                state=state,
                locked_at=timezone.now() if locked else None,
            )
        )
    return made


def players(*ranks: int) -> list[Player]:
    return [PlayerFactory(declared_rank=r) for r in ranks]


def history_snapshot() -> list[tuple[Any, ...]]:
    return list(
        RatingHistory.objects.order_by("player_id", "event_date", "tournament_id").values_list(
            "player_id",
            "tournament_id",
            "event_date",
            "rating_before",
            "rating_after",
            "change",
            "deviation_after",
            "volatility_after",
            "games",
            "wins",
            "total_games",
            "algorithm",
            "version",
        )
    )


def current_snapshot() -> list[tuple[Any, ...]]:
    return list(
        PlayerRating.objects.order_by("player_id").values_list(
            "player_id",
            "rating",
            "deviation",
            "volatility",
            "games",
            "tournaments",
            "provisional",
            "rank",
            "last_tournament_id",
            "algorithm",
            "version",
        )
    )


def rate(player: Player, gor: float, games: int = 20) -> PlayerRating:
    """Give ``player`` a current EGF rating directly (for handicap and what-if tests)."""
    from ratings.ranks import Rank

    return PlayerRating.objects.update_or_create(
        player=player,
        defaults={
            "rating": gor,
            "games": games,
            "tournaments": 1,
            "provisional": games < 10,
            "rank": Rank.from_gor(gor).index,
            "algorithm": "egf2021",
            "version": "1",
        },
    )[0]


def close(t: Tournament) -> Tournament:
    """Mark ``t`` closed (a fixture: ``tournament_close`` is tested on its own)."""
    Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
    t.refresh_from_db()
    return t
