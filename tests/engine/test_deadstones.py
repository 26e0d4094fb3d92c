"""Dead-stone estimation (``games.engine.deadstones``) and the claim check that uses it
(``games.engine.verdict``): drawn positions, and real games whose players marked the
dead stones (tests/data/sgf/marked/)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.engine.benson import pass_alive
from games.engine.board import Board
from games.engine.deadstones import Estimate, estimate_dead, flipped_dead_sets
from games.engine.record import parse_record
from games.engine.replay import Replay, replay
from games.engine.result import Result
from games.engine.rules import get_rules
from games.engine.scoring import dead_from_markup, score
from games.engine.types import Color, GameRecord, Point, Setup
from games.engine.verdict import DeadSource, Step, check_claim

from .engine_helpers import record

MARKED = sorted((Path(__file__).parents[1] / "data" / "sgf" / "marked").glob("*.sgf"))
CHINESE = get_rules("chinese")
# The exact dead set on this share of the human-marked games at least (measured: 102 of
# 107, docs/rules.md "How dead stones are found"); a change that loses games fails here.
ACCURACY_FLOOR = 0.95

# A 9x9 game played out: a lone White stone in Black's area, a Black one in White's.
FINISHED = """
. x . x x o . o .
x x x x x o o o o
. . . x x o . . .
x x x x x o o o o
. . o . x o . x .
x x x x x o o o o
. x . x x o . o .
x x x x x o o o o
. x . x x o . o .
"""


def pts(board: Board, *labels: str) -> set[Point]:
    cols = "ABCDEFGHJKLMNOPQRST"
    return {(cols.index(s[0]), board.size - int(s[1:])) for s in labels}


def test_a_lone_stone_inside_the_opponents_area_is_dead() -> None:
    board = Board.from_ascii(FINISHED)
    estimate = estimate_dead(board, CHINESE)
    assert estimate.dead == pts(board, "C5", "H5")
    assert estimate.unsure == ()


def test_the_estimate_is_the_same_every_time() -> None:
    board = Board.from_ascii(FINISHED)
    first = estimate_dead(board, CHINESE)
    assert estimate_dead(board.copy(), CHINESE) == first


def test_pass_alive_chains_are_never_dead_and_what_they_enclose_is() -> None:
    board = Board.from_ascii(
        """
        . x o . .
        x x o . .
        o x x o o
        . x . x o
        x x x x o
        """
    )
    alive, dead = pass_alive(board)
    assert pts(board, "B5", "B4", "B3", "C3", "B2", "D2", "A1", "B1", "C1", "D1") <= alive
    assert pts(board, "A3") <= dead
    estimate = estimate_dead(board, CHINESE)
    assert not (estimate.dead & alive)
    assert pts(board, "A3") <= estimate.dead


def test_no_stone_is_dead_when_every_stone_counts() -> None:
    board = Board.from_ascii(FINISHED)
    assert estimate_dead(board, get_rules("tromp-taylor")).dead == frozenset()


def test_a_group_whose_eye_space_the_opponent_can_fill_by_a_two_stone_nakade_is_dead() -> None:
    # Black's corner has A9 and C9 around White's B9.  White A9 puts two stones in
    # atari, Black takes them, and the two-point space left is one eye: dead.  Without
    # that self-atari the playouts would leave it standing like a seki.
    board = Board.from_ascii(
        """
        . O . X O . O . O
        X X X X O O O O O
        O O O O O O O O O
        O . O . O . O . O
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        """
    )
    assert estimate_dead(board, CHINESE).dead == pts(board, "A8", "B8", "C8", "D8", "D9")


def test_a_seki_is_left_standing() -> None:
    # White's group has one eye (D9) and shares B8 with Black's A8 and B9.  Black B8
    # would put three stones in atari and give White a second eye: never played.
    board = Board.from_ascii(
        """
        . X O . O X . X .
        X . O O O X X X X
        O O O X X X . X .
        X X X X . X X X X
        . X . X X X . X .
        X X X X . X X X X
        . X . X X X . X .
        X X X X . X X X X
        . X . X X X . X .
        """
    )
    assert estimate_dead(board, CHINESE).dead == frozenset()


def test_flips_turn_one_chain_before_two() -> None:
    board = Board.from_ascii(FINISHED)
    estimate = estimate_dead(board, CHINESE)
    sets = [chains for _, chains in flipped_dead_sets(estimate)]
    sizes = [len(c) for c in sets]
    assert sizes == sorted(sizes) and sizes[0] == 1 and max(sizes) == 2


# --------------------------------------------------------------------------- real games


@cache
def _marked(path: Path) -> tuple[Replay, frozenset[Point], Estimate]:
    rec = parse_record(path.read_bytes())
    played = replay(rec, CHINESE, strict=False)
    expected = frozenset(dead_from_markup(played.board, rec.territory_black, rec.territory_white))
    return played, expected, estimate_dead(played.board, CHINESE)


def _unmarked(played: Replay) -> Replay:
    """The same game as if its record had no TB/TW."""
    bare: GameRecord = dataclasses.replace(
        played.record, territory_black=frozenset(), territory_white=frozenset()
    )
    return dataclasses.replace(played, record=bare)


def test_the_test_set_is_real_and_marked() -> None:
    assert len(MARKED) >= 100
    assert sum(1 for p in MARKED if _marked(p)[1]) >= 90


def test_the_estimate_finds_the_players_dead_stones_in_most_games() -> None:
    exact = [p.name for p in MARKED if _marked(p)[2].dead == _marked(p)[1]]
    assert len(exact) / len(MARKED) >= ACCURACY_FLOOR, f"{len(exact)} of {len(MARKED)}"


@pytest.mark.parametrize("path", MARKED, ids=lambda p: p.stem)
def test_a_wrong_claim_is_never_verified(path: Path) -> None:
    played, expected, estimate = _marked(path)
    bare = _unmarked(played)
    komi = Decimal("6.5")
    true = score(played, dead=expected, komi=komi).result
    assert true.winner is not None and true.margin is not None
    wrong = [
        Result(true.winner.opponent, true.reason, true.margin),
        Result(true.winner, true.reason, true.margin + 1),
    ]
    for claim in wrong:
        verdict = check_claim(bare, claim, komi=komi, estimate=estimate)
        assert verdict.step is not Step.VERIFIED, (claim, verdict.dead ^ expected)
    verdict = check_claim(bare, true, komi=komi, estimate=estimate)
    if verdict.step is Step.VERIFIED:
        # The claim as arbiter: a count that equals it was made with the right stones.
        assert verdict.dead == expected
        assert verdict.source is DeadSource.ESTIMATED
    else:
        assert verdict.step in (Step.CONFIRM, Step.REMOVAL)


def test_the_markup_decides_when_the_record_has_it() -> None:
    played, expected, _ = _marked(MARKED[0])
    true = score(played, dead=expected, komi=Decimal("6.5")).result
    verdict = check_claim(played, true, komi=Decimal("6.5"))
    assert (verdict.step, verdict.source, verdict.dead) == (
        Step.VERIFIED,
        DeadSource.MARKUP,
        expected,
    )


def test_an_all_alive_count_that_equals_a_wrong_claim_does_not_verify_it() -> None:
    # Black wins by 0.5 with C5 and H5 dead; every stone alive, White wins by 0.5, and
    # that wrong claim was verified.
    board = Board.from_ascii(FINISHED)
    rec = record(FINISHED, "B pass W pass", komi=Decimal("8.5"))
    played = replay(rec, CHINESE, strict=False)
    all_alive = score(played, komi=Decimal("8.5")).result
    truth = score(played, dead=pts(board, "C5", "H5"), komi=Decimal("8.5")).result
    assert all_alive.winner is not truth.winner
    verdict = check_claim(played, all_alive, komi=Decimal("8.5"))
    assert verdict.step is not Step.VERIFIED
    verdict = check_claim(played, truth, komi=Decimal("8.5"))
    assert (verdict.step, verdict.source) == (Step.VERIFIED, DeadSource.ESTIMATED)


def test_a_flip_that_matches_asks_for_confirmation() -> None:
    board = Board.from_ascii(FINISHED)
    rec = record(FINISHED, "B pass W pass", komi=Decimal("7.5"))
    played = replay(rec, CHINESE, strict=False)
    # The claim a player makes who thinks his H5 stone alive.
    claim = score(played, dead=pts(board, "C5"), komi=Decimal("7.5")).result
    verdict = check_claim(played, claim, komi=Decimal("7.5"))
    assert verdict.step is Step.CONFIRM and verdict.source is DeadSource.FLIPPED
    assert verdict.flipped == (tuple(sorted(pts(board, "H5"))),)
    assert verdict.matches is None


def test_the_players_dead_stones_come_first() -> None:
    board = Board.from_ascii(FINISHED)
    rec = record(FINISHED, "B pass W pass", komi=Decimal("7.5"))
    played = replay(rec, CHINESE, strict=False)
    given = pts(board, "C5")
    claim = score(played, dead=given, komi=Decimal("7.5")).result
    verdict = check_claim(played, claim, dead=given, komi=Decimal("7.5"))
    assert (verdict.step, verdict.source) == (Step.VERIFIED, DeadSource.SUBMITTED)
    other = Result(Color.WHITE, claim.reason, Decimal("30.5"))
    assert check_claim(played, other, dead=given, komi=Decimal("7.5")).step is Step.MISMATCH


def test_a_resignation_needs_no_dead_stones() -> None:
    rec = record(FINISHED, "B pass W pass", komi=Decimal("8.5"))
    played = replay(rec, CHINESE, strict=False)
    verdict = check_claim(played, Result.parse("B+R"), komi=Decimal("8.5"))
    assert (verdict.step, verdict.source, verdict.estimate) == (
        Step.UNCHECKED,
        DeadSource.NONE,
        None,
    )
    assert verdict.matches is None


def test_an_unfinished_position_stops_at_the_move_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.engine import deadstones

    board = Board(19)  # an opening: the playouts run over the whole board
    board.place_setup(Setup(black=frozenset({(3, 3), (15, 3)}), white=frozenset({(15, 15)})))
    played: list[int] = []
    real = deadstones._playout

    def counted(*args: Any) -> tuple[list[int], int]:
        final, moves = real(*args)
        played.append(moves)
        return final, moves

    monkeypatch.setattr(deadstones, "_playout", counted)
    first = estimate_dead(board, CHINESE, move_budget=0)
    assert len(played) == deadstones.MIN_PLAYOUTS
    played.clear()
    unbounded = estimate_dead(board, CHINESE, move_budget=10**9)
    everything = len(played)
    played.clear()
    assert estimate_dead(board, CHINESE, move_budget=12_000) is not None
    assert deadstones.MIN_PLAYOUTS <= len(played) <= everything
    if len(played) > deadstones.MIN_PLAYOUTS:  # stopped at the first check past the budget
        assert sum(played[: -deadstones.PLAYOUT_STEP]) < 12_000
    assert first.size == unbounded.size == 19
