"""Replaying records: turn order, legality per preset, prisoners, passes, first capture."""

from __future__ import annotations

import pytest

from games.engine.replay import Violation, replay
from games.engine.rules import get_rules
from games.engine.types import Color, GameRecord, Move, Setup

from .engine_helpers import pt, record

B, W = Color.BLACK, Color.WHITE

SINGLE_SUICIDE = ".x...\nx....\n.....\n.....\n....."  # docs/rules.md, Legality
MULTI_SUICIDE = ".x...\nox...\nx....\n.....\n....."  # docs/rules.md, Legality

TRIPLE_KO = """
ooooooo
oxo.o.o
x.xoxox
xxxxxxx
ooooooo
.......
.......
"""  # triple ko (KataGo rules tests; docs/rules.md), 7x6 padded with an empty bottom row (points keep their names)
CYCLE = "B D5 W B4 B F5 W D4 B B5 W F4"

SEND_TWO = """
.o.xxo
oxxxo.
o.x.oo
xx.oo.
oooo.o
......
"""  # sending two, returning one (KataGo rules tests), 6x5 padded with an empty bottom row


def test_black_moves_first_in_an_even_game():
    r = replay(GameRecord(size=9, actions=(Move(B, (4, 4)),)), get_rules("chinese"))
    assert not r.violations and r.to_move is W


def test_white_moves_first_after_handicap_stones():
    setup = Setup(black=frozenset({(2, 6), (6, 2)}))
    rec = GameRecord(size=9, handicap=2, setup=setup, actions=(Move(W, (4, 4)),))
    assert replay(rec, get_rules("japanese")).violations == []
    bad = GameRecord(size=9, handicap=2, setup=setup, actions=(Move(B, (4, 4)),))
    assert replay(bad, get_rules("japanese")).first_illegal.reason == "wrong-turn"


def test_nz_free_placement_alternates_with_white_passes():
    moves = (Move(B, (2, 2)), Move(W, None), Move(B, (6, 6)), Move(W, None), Move(B, (2, 6)))
    rec = GameRecord(size=9, handicap=3, actions=moves)
    r = replay(rec, get_rules("nz"))
    assert r.violations == [] and r.first_pass is W and not r.ended_by_passes


def test_two_moves_in_a_row_are_a_wrong_turn_and_tolerant_replay_accepts_them():
    rec = GameRecord(size=9, actions=(Move(B, (0, 0)), Move(B, (1, 1)), Move(W, (2, 2))))
    strict = replay(rec, get_rules("chinese"))
    assert strict.first_illegal == Violation(2, B, (1, 1), "wrong-turn", 9)
    assert strict.moves_played == 1 and strict.board.get((1, 1)) is None
    tolerant = replay(rec, get_rules("chinese"), strict=False)
    assert [v.reason for v in tolerant.violations] == ["wrong-turn"]
    assert tolerant.board.get((1, 1)) is B and tolerant.board.get((2, 2)) is W


def test_a_stone_on_an_occupied_point_is_skipped_but_the_turn_passes():
    rec = GameRecord(size=9, actions=(Move(B, (0, 0)), Move(W, (0, 0)), Move(B, (1, 1))))
    r = replay(rec, get_rules("chinese"), strict=False)
    assert [(v.number, v.reason) for v in r.violations] == [(2, "occupied")]
    assert r.board.get((0, 0)) is B and r.board.get((1, 1)) is B and r.moves_played == 3


def test_a_violation_describes_itself_in_letters_and_numbers():
    v = Violation(37, W, (9, 9), "superko", 19)
    assert v.describe() == "move 37, White K10: superko"
    assert Violation(3, B, None, "wrong-turn", 9).describe() == "move 3, Black pass: wrong-turn"


def test_a_violation_as_a_dict_names_the_point_in_gtp_and_a_pass_as_none():
    assert Violation(37, W, (9, 9), "superko", 19).to_dict() == {
        "number": 37,
        "color": "W",
        "point": "K10",
        "reason": "superko",
        "text": "move 37, White K10: superko",
    }
    assert Violation(3, B, None, "wrong-turn", 9).to_dict()["point"] is None


@pytest.mark.parametrize("name", ["chinese", "japanese", "aga", "wmsg", "wga"])
def test_single_and_multi_stone_suicide_are_illegal_under(name):
    for drawing in (SINGLE_SUICIDE, MULTI_SUICIDE):
        r = replay(record(drawing, "W A5", first=W), get_rules(name))
        assert r.first_illegal.reason == "suicide"


def test_single_stone_suicide_is_legal_under_nz_and_passes_the_turn():
    r = replay(record(SINGLE_SUICIDE, "W A5 B E1", first=W), get_rules("nz"))
    assert r.violations == [] and r.board.get(pt("A5", 5)) is None
    assert r.prisoners == {B: 1, W: 0}


def test_nz_single_stone_suicide_right_after_a_black_pass_repeats_a_position():
    r = replay(record(SINGLE_SUICIDE, "W E1 B pass W A5", first=W), get_rules("nz"))
    assert r.first_illegal.reason == "superko"


def test_single_stone_suicide_is_illegal_under_tromp_taylor_as_the_board_repeats():
    r = replay(record(SINGLE_SUICIDE, "W A5", first=W), get_rules("tromp-taylor"))
    assert r.first_illegal.reason == "superko"


@pytest.mark.parametrize("name", ["nz", "tromp-taylor"])
def test_multi_stone_suicide_is_legal_and_removes_both_stones_under(name):
    r = replay(record(MULTI_SUICIDE, "W A5", first=W), get_rules(name))
    assert r.violations == []
    assert r.board.get(pt("A5", 5)) is None and r.board.get(pt("A4", 5)) is None
    assert r.prisoners[B] == 2


@pytest.mark.parametrize("drawing", [SINGLE_SUICIDE, MULTI_SUICIDE])
def test_a_self_capture_gives_black_the_first_capture_win(drawing):
    r = replay(record(drawing, "W A5 B E1 W E2", first=W), get_rules("first-capture"))
    assert r.first_capture.winner is B and r.first_capture.self_capture
    assert r.first_capture.number == 1 and r.moves_after_end == 2


def test_the_first_capture_ends_a_first_capture_game():
    drawing = ".x...\n.....\n.....\n.....\n....."
    r = replay(record(drawing, "W A5 B A4 W C3", first=W), get_rules("first-capture"))
    assert r.first_capture.winner is B and not r.first_capture.self_capture
    assert r.first_capture.number == 2 and r.moves_after_end == 1 and r.moves_played == 2


def test_tolerant_replay_plays_a_suicide_anyway():
    r = replay(record(MULTI_SUICIDE, "W A5 B E1", first=W), get_rules("chinese"), strict=False)
    assert [v.reason for v in r.violations] == ["suicide"]
    assert r.board.get(pt("A4", 5)) is None and r.prisoners[B] == 2
    assert r.board.get(pt("E1", 5)) is B


def test_in_the_triple_ko_white_may_not_retake_b4_under_simple_ko():
    r = replay(record(TRIPLE_KO, CYCLE, height=6), get_rules("japanese"), stop_after=5)
    assert r.to_move is W and r.violations == []
    assert r.illegal_points() == {pt("B4", 6): "ko"}


@pytest.mark.parametrize("name", ["chinese", "nz"])
def test_in_the_triple_ko_white_may_not_play_b4_or_f4_under_superko(name):
    r = replay(record(TRIPLE_KO, CYCLE, height=6), get_rules(name), stop_after=5)
    assert set(r.illegal_points()) == {pt("B4", 6), pt("F4", 6)}
    full = replay(record(TRIPLE_KO, CYCLE, height=6), get_rules(name))
    assert full.first_illegal == Violation(6, W, pt("F4", 6), "superko", 7)


def test_the_triple_ko_cycle_repeats_the_start_under_simple_ko():
    start = record(TRIPLE_KO, "", height=6)
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6), get_rules("japanese"))
    assert r.violations == [] and r.moves_played == 12
    assert r.board == replay(start, get_rules("japanese")).board


def test_returning_one_is_legal_under_situational_but_not_positional_superko():
    moves = "B F4 W C5 B A5 W B5"
    sit = replay(record(SEND_TWO, moves, height=5), get_rules("nz"))
    assert sit.violations == []
    pos = replay(record(SEND_TWO, moves, height=5), get_rules("chinese"))
    assert pos.first_illegal == Violation(4, W, pt("B5", 5), "superko", 6)


def test_white_may_not_retake_the_f5_ko_at_once():
    r = replay(record(SEND_TWO, "B F4 W F5", height=5), get_rules("nz"))
    assert r.first_illegal.reason == "ko"


def test_passes_are_tracked_for_the_first_pass_and_the_closing_pair():
    moves = (
        Move(B, (0, 0)),
        Move(W, None),
        Move(B, (1, 1)),
        Move(W, (2, 2)),
        Move(B, None),
        Move(W, None),
    )
    r = replay(GameRecord(size=9, actions=moves), get_rules("wmsg"))
    assert r.first_pass is W and r.white_passed_first
    assert r.first_pass_of_final_sequence is B and r.ended_by_passes
    assert r.last_move == Move(W, None)


def test_prisoners_count_stones_captured_by_each_colour():
    r = replay(
        record("xo...\n.....\n.....\n.....\n.....", "W A4"), get_rules("chinese"), strict=False
    )
    assert r.prisoners == {B: 0, W: 1}


def test_stop_after_stops_after_that_many_moves():
    rec = GameRecord(size=9, actions=tuple(Move(c, None) for c in (B, W, B, W)))
    assert replay(rec, get_rules("chinese"), stop_after=3).moves_played == 3


def test_an_nz_handicap_record_with_white_passes_replays_without_wrong_turns():
    from games.engine.record import parse_record

    # HA[3], no AB: Black places the stones as moves, White passes between them.
    text = "(;GM[1]FF[4]SZ[9]HA[3]KM[0]RU[NZ];B[cc];W[];B[gg];W[];B[cg];W[ee];B[gc])"
    rec = parse_record(text)
    r = replay(rec, get_rules("nz"))
    assert r.violations == [] and r.moves_played == 7
    assert r.first_pass is W and not r.ended_by_passes and r.to_move is W
    assert r.board.get((4, 4)) is W and r.board.get((6, 2)) is B
    # The same record with the stones as AB instead is White to move first.
    ab = parse_record("(;GM[1]FF[4]SZ[9]HA[3]AB[cc][gg][cg];W[ee];B[gc])")
    assert replay(ab, get_rules("nz")).violations == []


def test_handicap_stones_in_the_second_node_let_white_move_first():
    from games.engine.record import parse_record

    # Fox, Tygem and the 2019 Lee Sedol-HanDol game 1 put the AB after the root.
    rec = parse_record("(;SZ[9]HA[2]KM[0.5];AB[cc][gg];W[ee];B[gc])")
    r = replay(rec, get_rules("japanese"))
    assert r.violations == [] and r.moves_played == 2
    assert r.board.get((2, 2)) is B and r.board.get((4, 4)) is W


def test_black_set_up_stones_without_ha_are_the_handicap_and_white_moves_first():
    from games.engine.record import parse_record

    rec = parse_record("(;SZ[9]KM[0.5]AB[cc][gg];W[ee];B[gc])")
    assert rec.handicap == 2
    assert rec.warnings == ("no HA: the 2 black set-up stones are read as the handicap",)
    assert replay(rec, get_rules("chinese")).violations == []


def test_set_up_stones_do_not_excuse_black_moving_twice():
    from games.engine.record import parse_record

    rec = parse_record("(;SZ[9]HA[2]AB[cc][gg];B[ee])")
    assert [v.reason for v in replay(rec, get_rules("chinese")).violations] == ["wrong-turn"]


def test_ha_stones_written_as_black_moves_are_the_free_placed_handicap():
    from games.engine.record import parse_record

    # As Pachi and KGS write free placement: HA[3], three Black moves, then White.
    rec = parse_record("(;SZ[9]HA[3]KM[0.5];B[cc];B[gg];B[cg];W[ee];B[gc];W[ge])")
    r = replay(rec, get_rules("japanese"))
    assert r.violations == [] and r.moves_played == 6 and r.to_move is B
    # Without HA the same moves are a wrong turn at move 2.
    plain = parse_record("(;SZ[9]KM[0.5];B[cc];B[gg];B[cg];W[ee])")
    assert [v.number for v in replay(plain, get_rules("japanese")).violations] == [2]
    # A fourth Black move is one too many.
    extra = parse_record("(;SZ[9]HA[3];B[cc];B[gg];B[cg];B[gc];W[ee])")
    assert [v.number for v in replay(extra, get_rules("japanese")).violations] == [2]
