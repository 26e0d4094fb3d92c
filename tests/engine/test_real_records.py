"""Real records from servers and programs (tests/data/sgf/real/README.md names each
source): each is read, with the right komi, handicap, first player and charset, and
replays to the same board as sgfmill wherever sgfmill reads it."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from sgfmill import sgf, sgf_moves

from games.engine.record import parse_record
from games.engine.replay import first_player, replay
from games.engine.rules import get_rules
from games.engine.types import Color

REAL = Path(__file__).parents[1] / "data" / "sgf" / "real"
FILES = sorted(p.name for p in REAL.glob("*.sgf"))
CHINESE = get_rules("chinese")

# file: size, komi, handicap, first player, charset, first illegal move (number, reason)
EXPECTED: dict[str, tuple[int, str | None, int, str, str, tuple[int, str] | None]] = {
    "alphago-lee-sedol-g4-sabaki.sgf": (19, "7.5", 0, "B", "UTF-8", None),
    "ff1-long-identifiers.sgf": (9, "-1.5", 0, "B", "UTF-8", None),
    "fox-bensondarr-ha1.sgf": (19, "0", 0, "B", "UTF-8", None),
    "fox-bensondarr-ha3-km550.sgf": (19, "5.5", 3, "W", "UTF-8", None),
    "fox-cgi-cut-utf8.sgf": (19, "7.5", 0, "B", "ISO-8859-1", None),
    "fox-dancer-ha2-km650.sgf": (19, "6.5", 2, "W", "UTF-8", (2, "wrong-turn")),
    "fox-dancer-white-first-no-setup.sgf": (19, "0", 0, "B", "UTF-8", (1, "wrong-turn")),
    "fox-deepzen-cho-km650.sgf": (19, "6.5", 0, "B", "UTF-8", None),
    "fox-foxwq-ha1.sgf": (19, "0", 0, "B", "UTF-8", None),
    "fox-foxwq-second-ap.sgf": (19, "0", 0, "B", "UTF-8", None),
    "fox-fuheyuqi-ha3-second-node.sgf": (19, "0", 3, "W", "UTF-8", None),
    "fox-fuheyuqi-ha4-second-node.sgf": (19, "0", 4, "W", "UTF-8", None),
    "fox-lilong-cut-utf8.sgf": (19, "0", 0, "B", "ISO-8859-1", None),
    "fox-txwg-cut-utf8.sgf": (19, "0", 0, "B", "ISO-8859-1", None),
    "igs-pandanet.sgf": (19, "0.5", 2, "W", "UTF-8", None),
    "lee-sedol-handol-g1.sgf": (19, "7.5", 2, "W", "UTF-8", None),
    "lee-sedol-handol-g3.sgf": (19, "7.5", 2, "W", "UTF-8", None),
    "multigo-gbk-no-ca.sgf": (19, None, 0, "B", "GB18030", None),
    "nihon-kiin-sjis-no-ca.sgf": (19, None, 0, "B", "GB18030", None),
    "ogs.sgf": (19, "6.5", 0, "B", "UTF-8", None),
    "sabaki-euc-kr.sgf": (19, None, 0, "B", "cp949", None),
    "sabaki-gb2312.sgf": (19, None, 0, "B", "GB18030", None),
    "sabaki-ms-kanji-over-utf8.sgf": (19, None, 0, "B", "UTF-8", None),
    "sabaki-shift-jis.sgf": (19, None, 0, "B", "cp932", None),
    "sabaki-utf16le.sgf": (19, "0", 0, "B", "UTF-16", None),
    "tencent-2018-km375.sgf": (19, "7.5", 0, "B", "UTF-8", None),
    "uec-11-nngs-no-ca.sgf": (19, "6.5", 0, "B", "UTF-8", None),
    "wago-2017-ha-7.5.sgf": (19, "7.5", 0, "B", "UTF-8", None),
}


def test_every_real_file_has_its_expectation() -> None:
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_a_real_record_is_read_as_its_writer_meant(name: str) -> None:
    size, komi, handicap, first, charset, illegal = EXPECTED[name]
    record = parse_record((REAL / name).read_bytes())
    assert record.size == size
    assert record.komi == (None if komi is None else Decimal(komi))
    assert record.handicap == handicap
    assert first_player(record) is Color.from_letter(first)
    assert record.charset == charset
    bad = replay(record, CHINESE, strict=True).first_illegal
    assert (None if bad is None else (bad.number, bad.reason)) == illegal


def test_fox_records_as_the_server_sends_them_gbk_without_ca_are_read() -> None:
    # The Fox server's own bytes are GBK with no CA; the stored copy is UTF-8.
    text = (REAL / "fox-foxwq-second-ap.sgf").read_text("utf-8")
    record = parse_record(text.encode("gbk"))
    assert record.charset == "GB18030"
    assert record.info["PW"] == "注号用名"
    assert record.warnings[0] == ("no CA property names the charset: the text was read as GB18030")
    assert record.moves == parse_record(text).moves


def sgfmill_board(data: bytes) -> dict[tuple[int, int], Color] | None:
    """The final position sgfmill reaches, or None when sgfmill refuses the file."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
        board, plays = sgf_moves.get_setup_and_moves(game)
        for colour, move in plays:
            if move is not None:
                board.play(move[0], move[1], colour)
    except ValueError:
        return None
    size = board.side
    return {
        (col, size - 1 - row): Color.BLACK if colour == "b" else Color.WHITE
        for colour, (row, col) in board.list_occupied_points()
    }


# sgfmill refuses set-up after the root, a first node without ';' and UTF-16.
SGFMILL_REFUSES = {
    "fox-bensondarr-ha3-km550.sgf",
    "fox-dancer-ha2-km650.sgf",
    "fox-fuheyuqi-ha3-second-node.sgf",
    "fox-fuheyuqi-ha4-second-node.sgf",
    "lee-sedol-handol-g1.sgf",
    "lee-sedol-handol-g3.sgf",
    "nihon-kiin-sjis-no-ca.sgf",
    "sabaki-utf16le.sgf",
}


@pytest.mark.parametrize("name", FILES)
def test_every_file_sgfmill_reads_replays_to_the_same_board(name: str) -> None:
    data = (REAL / name).read_bytes()
    theirs = sgfmill_board(data)
    assert (theirs is None) == (name in SGFMILL_REFUSES)
    ours = replay(parse_record(data), CHINESE, strict=False).board.stones()
    if theirs is not None:
        assert ours == theirs
    else:  # goref reads it all the same, with its moves
        assert ours


def test_text_in_each_named_charset_is_read_as_written() -> None:
    def info(name: str, key: str) -> str:
        return parse_record((REAL / name).read_bytes()).info[key]

    assert info("sabaki-shift-jis.sgf", "PB") == "井山 裕太"
    assert info("sabaki-euc-kr.sgf", "PB") == "이세돌"
    assert info("sabaki-gb2312.sgf", "PW") == "柯洁"
    assert info("sabaki-utf16le.sgf", "PW") == "Go Seigen"
    assert info("multigo-gbk-no-ca.sgf", "C").startswith("【第三型】 黑先")


def test_a_nihon_kiin_record_without_ca_or_root_semicolon_keeps_its_moves() -> None:
    # Shift_JIS with no CA is read as GB18030 (the order of guesses puts Chinese
    # first): the names are wrong, the moves are not.
    record = parse_record((REAL / "nihon-kiin-sjis-no-ca.sgf").read_bytes())
    assert "the first node has no ';': read as if it had one" in record.warnings
    assert [m.point for m in record.moves][:3] == [(15, 3), (3, 15), (2, 16)]
    assert len(record.moves) == 8
