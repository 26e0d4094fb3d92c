"""``manage.py seed_demo``: a small McMahon tournament to look at and click through.

Nine entries, three rounds on 9x9 (a bye in round 1 for the ninth, who then
withdraws), three games with real SGF records, and one Alice-Bob result waiting for
Bob to confirm, so the tournament is still open.  Written through the services, as a
director would; running it again changes nothing (the tournament's name is the marker).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import services
from games.engine.board import Board, IllegalMove
from games.engine.record import write_record
from games.engine.rules import get_rules
from games.engine.types import Color, GameRecord, Move, Point
from games.models import Game, Player, Tournament
from games.people import services as people
from games.people.services.grants import director_grant_admin, ensure_directors_group
from games.tournament import services as tournament_services

DEMO_TOURNAMENT = "goref demo open"
RULES = "japanese"
SIZE = 9
# Demo accounts: fixed, printed, and only ever meant for a local demo.
USERS = {
    "director": ("demo-director", "demo-director-pw"),
    "alice": ("demo-alice", "demo-alice-pw"),
    "bob": ("demo-bob", "demo-bob-pw"),
}
PLAYERS = (  # family name, given name, rank, club, country
    ("Anderson", "Alice", "3d", "Wellington Go Club", "NZ"),
    ("Brown", "Bob", "2d", "Auckland Go Club", "NZ"),
    ("Chen", "Wei", "1d", "Auckland Go Club", "NZ"),
    ("Dubois", "Claire", "1k", "Paris Go Club", "FR"),
    ("Evans", "Tom", "2k", "Wellington Go Club", "NZ"),
    ("Fischer", "Anna", "3k", "Berlin Go Club", "DE"),
    ("Garcia", "Luis", "5k", "Madrid Go Club", "ES"),
    ("Hill", "Sarah", "8k", "Wellington Go Club", "NZ"),
    ("Ito", "Ken", "10k", "Auckland Go Club", "NZ"),
)
BYE = 8  # Ito: a bye in round 1, then he withdraws
# Player indexes (Black, White) per round: no pair meets twice; Alice–Bob in round 3.
PAIRINGS = (
    ((0, 4), (5, 1), (2, 6), (7, 3)),
    ((5, 0), (1, 4), (7, 2), (3, 6)),
    ((1, 0), (2, 3), (4, 5), (6, 7)),
)
# (round, table) of the games that get an SGF record.
WITH_RECORD = {(1, 1), (1, 3), (2, 2)}


def random_legal_game(seed: int, moves: int = 48) -> tuple[Move, ...]:
    """A seeded random game on 9x9 in which every move is legal under the demo rules."""
    rules = get_rules(RULES)
    rng = random.Random(seed)
    board = Board(SIZE)
    color = Color.BLACK
    played: list[Move] = []
    points: list[Point] = [(x, y) for y in range(SIZE) for x in range(SIZE)]
    for _ in range(moves):
        candidates = [p for p in points if board.get(p) is None]
        rng.shuffle(candidates)
        for p in candidates:
            try:
                board.play(p, color, ko=rules.ko, suicide=rules.suicide)
            except IllegalMove:
                continue
            played.append(Move(color, p))
            break
        else:
            board.pass_move(color)
            played.append(Move(color, None))
        color = color.opponent
    return tuple(played)


def _outcome(rng: random.Random, black: Player, white: Player) -> str:
    """Mostly the stronger player wins; a few wins on points."""
    p_black = 0.5 + 0.12 * (black.declared_rank - white.declared_rank)
    winner = "B" if rng.random() < min(0.9, max(0.1, p_black)) else "W"
    if rng.random() < 0.4:
        return f"{winner}+{rng.randint(1, 15)}.5"
    return f"{winner}+R"


class Command(BaseCommand):
    help = "Create a small McMahon demo tournament (entries, 3 rounds, results, SGF records) and users."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            # The demo accounts' passwords are printed and published: never on a live site.
            raise CommandError(
                "seed_demo creates accounts with published passwords: it runs only with DEBUG on."
            )
        ensure_directors_group()
        if Tournament.objects.filter(name=DEMO_TOURNAMENT).exists():
            self.stdout.write(f"The demo tournament {DEMO_TOURNAMENT!r} exists: nothing to do.")
            self._print_users()
            return
        with transaction.atomic():
            self._seed()
        self.stdout.write(self.style.SUCCESS(f"Created the demo tournament {DEMO_TOURNAMENT!r}."))
        self._print_users()

    def _user(self, key: str) -> Any:
        username, password = USERS[key]
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=password)
        return user

    def _seed(self) -> None:
        director = self._user("director")
        director_grant_admin(user=director)
        alice, bob = self._user("alice"), self._user("bob")
        accounts = {0: alice, 1: bob}

        players: list[Player] = []
        for i, (family, given, rank, club, country) in enumerate(PLAYERS):
            existing = Player.objects.filter(family_name=family, given_name=given).first()
            if existing is None:
                # The operator (actor=None) links the demo accounts: a director may not.
                existing = people.player_create(
                    actor=None,
                    family_name=family,
                    given_name=given,
                    rank=rank,
                    club=club,
                    country=country,
                    user=accounts.get(i),
                )
            players.append(existing)

        start = dt.date.today() - dt.timedelta(days=14)
        tournament = tournament_services.tournament_create(
            actor=director,
            name=DEMO_TOURNAMENT,
            start_date=start,
            end_date=start + dt.timedelta(days=1),
            rules=RULES,
            board_size=SIZE,
            venue="Wellington",
            time_control="30 min + 5x30 s byo-yomi",
            rated=True,
            settings={
                "system": "mcmahon",
                "number_of_rounds": len(PAIRINGS),
                "mm_bar": "2d",
                "mm_floor": "10k",
                "handicap_policy": "mcmahon",
                "handicap_correction": 1,
                "handicap_threshold": "1d",
            },
        )
        entries = [
            tournament_services.entry_add(actor=director, tournament=tournament, player=p)
            for p in players
        ]
        # Check-in: the ninth player has the bye in round 1 and withdraws from round 2.
        tournament_services.entry_participation_set(
            actor=director, entry=entries[BYE], round_number=1, presence="b"
        )
        tournament_services.entry_withdraw(actor=director, entry=entries[BYE], from_round=2)
        rng = random.Random(2024)
        for number, pairs in enumerate(PAIRINGS, start=1):
            rnd = tournament_services.round_get_or_create(
                actor=director, tournament=tournament, number=number
            )
            sheet: list[tuple[int, str]] = []
            for table, (b, w) in enumerate(pairs, start=1):
                game = tournament_services.game_create(
                    actor=director,
                    tournament=tournament,
                    round_number=number,
                    black=players[b],
                    white=players[w],
                    table=table,
                )
                result = _outcome(rng, players[b], players[w])
                if (number, table) == (3, 1):
                    # Alice (White) reports; Bob is left to confirm or contest.
                    services.game_result_submit(actor=alice, game=game, result=result)
                elif (number, table) in WITH_RECORD:
                    self._enter_with_record(director, game, result, seed=number * 10 + table)
                else:
                    sheet.append((game.pk, result))
            for entered in services.round_results_enter(actor=director, round=rnd, results=sheet):
                services.game_finalise(actor=director, game=entered)

    def _enter_with_record(self, director: Any, game: Game, result: str, *, seed: int) -> None:
        record = GameRecord(
            size=SIZE,
            komi=Decimal(game.komi),
            actions=random_legal_game(seed),
            info={
                "PB": game.black.full_name,
                "PW": game.white.full_name,
                "BR": str(game.black.rank),
                "WR": str(game.white.rank),
                "EV": DEMO_TOURNAMENT,
                "RO": str(game.round.number),
            },
        )
        sgf = write_record(record, result=result, rules=RULES)
        game = services.game_result_enter(actor=director, game=game, result=result, sgf=sgf)
        services.game_finalise(actor=director, game=game)

    def _print_users(self) -> None:
        self.stdout.write("Demo users (username / password):")
        for role, (username, password) in USERS.items():
            self.stdout.write(f"  {role:9} {username} / {password}")
        self.stdout.write(
            f"The director logs in to the admin at /admin/ as {USERS['director'][0]}."
        )
