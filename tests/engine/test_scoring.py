"""Counting: area, territory with the seki rule, WGA, fill-in, first capture, dead stones."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from games.engine.board import Board
from games.engine.coords import gtp_to_point, sgf_to_point
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import (
    DeadStoneError,
    dead_from_markup,
    margin_from_counts,
    score,
    score_position,
)
from games.engine.types import Color, GameRecord, Move

from .engine_helpers import SCORE_KEYS, pt, record

B, W = Color.BLACK, Color.WHITE
D = Decimal

SEKI = """
.x.xo.o.x
...xooox.
.xxxxxxoo
xoooooxo.
xo.o.oxoo
xoooooxxx
xxxo...oo
.xxxoooo.
.x.xo.o.o
"""  # KataGo GroupTaxSekiScoring (docs/rules.md, "Territory counting")


def test_seki_under_area_counting_is_white_by_4_5():
    s = score_position(Board.from_ascii(SEKI), get_rules("chinese"), komi=D("0.5"))
    assert (s.black_area, s.white_area, s.dame) == (36, 40, 5)
    assert str(s.result) == "W+4.5" and s.margin == D("-4.5")


def test_seki_under_japanese_counting_gives_seki_eyes_nothing():
    # Top right: Black A9/H8 (here (8,0), (7,1)) and the White chains beside
    # them share H9 and J8, which neither side can fill without self-atari:
    # two seki points.  White's eyes F9 and J6 belong to those seki chains and
    # count nothing, so White has 7 - 2 = 5.  The three points E3 F3 G3 are
    # ordinary dame (White fills them safely) and cost nobody anything, so
    # Black keeps all 9.  KataGo gives W+0.5 here: that is KataGo's
    # non-dame-touching count, which zeroes every area next to an open dame
    # (the earlier behaviour of this module); with the dame filled KataGo
    # also counts 9 - 5, B+3.5.
    s = score_position(Board.from_ascii(SEKI), get_rules("japanese"), komi=D("0.5"))
    assert (s.black_territory, s.white_territory) == (9, 5)
    assert s.seki_points == 2 and s.dame == 5
    assert str(s.result) == "B+3.5"


def test_a_seki_eye_counts_nothing_but_the_same_eye_out_of_seki_does():
    # White's F9 eye (5,0) is lost only because its chain touches the seki
    # point H9.  Give Black's stones at the top right to White (no seki left):
    # the eye counts again.
    drawing = SEKI.strip().splitlines()
    drawing[0] = drawing[0][:7] + "oo"
    drawing[1] = drawing[1][:7] + "o."
    s = score_position(Board.from_ascii("\n".join(drawing)), get_rules("japanese"))
    assert s.seki_points == 0
    assert s.white_territory == 7 + 1  # F9 and J6 count again, and J8 is new


def test_open_dame_at_the_end_do_not_cost_territory_under_japanese():
    # A finished 9x9 game with three dame left open on the right-hand wall.
    # Hand count: Black owns columns A-D (36 points), White columns H-J
    # (18 points); F3 F2 F1 are dame.  No prisoners: B-W = 36 - 18 - 6.5.
    drawing = """
    ....xxo..
    ....xxo..
    ....xxo..
    ....xoo..
    ....xoo..
    ....xoo..
    ....x.o..
    ....x.o..
    ....x.o..
    """
    s = score_position(Board.from_ascii(drawing), get_rules("japanese"))
    assert (s.black_territory, s.white_territory, s.dame, s.seki_points) == (36, 18, 3, 0)
    assert str(s.result) == "B+11.5"
    # The same count as with the dame filled.
    filled = drawing.replace("....x.o..", "....xxo..", 1).replace("....x.o..", "....xoo..")
    filled_score = score_position(Board.from_ascii(filled), get_rules("japanese"))
    assert (filled_score.black_territory, filled_score.white_territory) == (36, 18)
    assert filled_score.dame == 0


def test_seki_under_territory_counting_without_the_seki_rule_is_black_by_1_5():
    rules = replace(get_rules("japanese"), seki_territory=True)
    s = score_position(Board.from_ascii(SEKI), rules, komi=D("0.5"))
    assert (s.black_territory, s.white_territory) == (9, 7)
    assert str(s.result) == "B+1.5"


def test_an_all_seki_board_is_36_all_with_9_dame():
    drawing = "\n".join("xxxx.oooo" for _ in range(9))
    s = score_position(Board.from_ascii(drawing), get_rules("chinese"))
    assert (s.black_area, s.white_area, s.dame) == (36, 36, 9)
    assert str(s.result) == "W+7.5"


def test_the_simple_ko_position_is_one_point_to_white_by_area():
    # docs/rules.md, "Legality", simple ko: Black A1, B2, A3; White B1; White A2 captures A1.
    drawing = ".........\n" * 6 + "x........\n.x.......\nxo......."
    r = replay(record(drawing, "W A2", first=W), get_rules("chinese"))
    assert r.violations == [] and r.prisoners[W] == 1
    board = r.board
    s = score_position(board, get_rules("chinese"), komi=D(0))
    assert (s.black_area, s.white_area) == (2, 3) and s.margin == -1


def test_area_komi_and_compensation_go_to_white():
    board = Board.from_ascii("xx.oo\nxx.oo\nxx.oo\nxx.oo\nxx.oo")
    chinese = score_position(board, get_rules("chinese"), handicap=3)
    assert chinese.komi == D("0.5") and chinese.compensation == 3 and chinese.margin == D("-3.5")
    aga = score_position(board, get_rules("aga"), handicap=3)
    assert aga.compensation == 2 and aga.margin == D("-2.5")
    nz = score_position(board, get_rules("nz"), handicap=3)
    assert nz.margin == 0 and str(nz.result) == "0"


def test_the_seed_002_example_is_white_by_one_both_ways():
    japanese = margin_from_counts(
        get_rules("japanese"), black_territory=15, white_territory=17, black_prisoners=1, komi=D(0)
    )
    chinese = margin_from_counts(
        get_rules("chinese"),
        black_territory=15,
        white_territory=17,
        black_stones=25,
        white_stones=24,
        komi=D(0),
    )
    assert japanese == chinese == -1


def test_the_wga_example_is_47_to_44():
    margin = margin_from_counts(
        get_rules("wga"),
        black_territory=27,
        black_stones=18,
        black_prisoners=2,
        white_territory=22,
        white_stones=14,
        white_prisoners=1,
        komi=D(7),
    )
    assert margin == 3
    area_only = margin_from_counts(
        get_rules("chinese"),
        black_territory=27,
        black_stones=18,
        white_territory=22,
        white_stones=14,
        komi=D(7),
    )
    assert area_only == 2


def test_an_nz_even_game_of_184_to_177_is_a_jigo():
    margin = margin_from_counts(
        get_rules("nz"), black_territory=184, white_territory=177, komi=get_rules("nz").komi
    )
    assert margin == 0


def test_wmsg_takes_a_point_from_black_when_white_passed_first():
    board = Board.from_ascii("xx.oo\nxx.oo\nxx.oo\nxx.oo\nxx.oo")
    plain = score_position(board, get_rules("wmsg"), komi=D(0))
    white_first = score_position(board, get_rules("wmsg"), komi=D(0), white_passed_first=True)
    assert plain.margin - white_first.margin == 1
    assert plain.fill_in is not None and plain.fill_in.margin == plain.margin
    assert plain.black_area == D("12.5") and plain.seki_points == 5


def gnugo_record() -> GameRecord:
    # docs/rules.md, "One game under three presets".
    line = (
        "ee cg eg gg ge eh fh fg dh ce hf gc ec cc fb ch db cb ef da ea ca ci bi di bh "
        "dd cd dg dc cf bf de eb fc fa gb ga ha ea hb df"
    )
    moves = line.split()
    acts = [Move(B if k % 2 == 0 else W, sgf_to_point(m, 9)) for k, m in enumerate(moves)]
    acts += [Move(B, None), Move(W, sgf_to_point("cf", 9)), Move(B, None), Move(W, None)]
    return GameRecord(size=9, komi=D("7.5"), actions=tuple(acts))


GNUGO_DEAD = [gtp_to_point(p, 9) for p in ("G7", "F3", "G3", "E2")]


def test_the_gnugo_game_end_to_end():
    chinese = score(replay(gnugo_record(), get_rules("chinese")), dead=GNUGO_DEAD)
    assert (chinese.black_area, chinese.white_area, chinese.dame) == (47, 34, 0)
    assert str(chinese.result) == "B+5.5"
    tt = replay(gnugo_record(), get_rules("tromp-taylor"))
    assert tt.violations == [] and str(score(tt).result) == "W+27.5"
    wmsg = replay(gnugo_record(), get_rules("wmsg"))
    assert wmsg.first_pass is B
    assert str(score(wmsg, dead=GNUGO_DEAD).result) == "B+6.5"


def test_tromp_taylor_refuses_a_dead_stone_list():
    tt = replay(gnugo_record(), get_rules("tromp-taylor"))
    with pytest.raises(DeadStoneError, match="captured before the two passes"):
        score(tt, dead=GNUGO_DEAD)


def test_dead_stones_become_prisoners():
    r = replay(gnugo_record(), get_rules("japanese"))
    before = score(r)
    after = score(r, dead=GNUGO_DEAD)
    # G7 F3 G3 E2 are all White stones.
    assert after.black_prisoners == before.black_prisoners + 4
    assert after.white_prisoners == before.white_prisoners


def test_a_dead_stone_on_an_empty_point_is_named():
    board = Board.from_ascii("x....\n.....\n.....\n.....\n.....")
    with pytest.raises(DeadStoneError, match="D4: the point is empty"):
        score_position(board, get_rules("chinese"), dead=[gtp_to_point("D4", 5)])


def test_a_dead_list_naming_part_of_a_chain_is_refused():
    board = Board.from_ascii("xx...\n.....\n.....\n.....\n.....")
    with pytest.raises(DeadStoneError, match="A5: its chain also has B5"):
        score_position(board, get_rules("chinese"), dead=[pt("A5", 5)])


def test_markup_reads_stones_under_the_opponents_territory_as_dead():
    board = Board.from_ascii("xo...\n.....\n..x..\n...o.\n.....")
    dead = dead_from_markup(
        board, territory_black={(1, 0), (3, 3), (4, 4)}, territory_white={(2, 2), (0, 0), (1, 1)}
    )
    assert dead == {(1, 0), (3, 3), (2, 2), (0, 0)}
    assert dead_from_markup(board, {(0, 0)}, {(1, 0)}) == set()  # own stones are not dead


def test_first_capture_is_won_by_the_capturer_and_a_draw_without_capture():
    drawing = ".x...\n.....\n.....\n.....\n....."
    won = score(replay(record(drawing, "W A5 B A4", first=W), get_rules("first-capture")))
    assert won.winner is B and str(won.result) == "B+" and won.margin is None
    none = score(replay(record(drawing, "W E1 B E2", first=W), get_rules("first-capture")))
    assert none.winner is None and str(none.result) == "0"


def test_score_to_dict_is_json_ready():
    import json

    d = score(replay(gnugo_record(), get_rules("wmsg")), dead=GNUGO_DEAD).to_dict()
    assert {*SCORE_KEYS, "fill_in"} <= set(d)
    assert d["result"] == "B+6.5" and d["winner"] == "B" and d["komi"] == 6.5
    assert d["fill_in"]["margin"] == 6.5
    json.dumps(d)
