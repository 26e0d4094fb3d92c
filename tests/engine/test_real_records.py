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
    "ogs.sgf": (19, "6.5", 0, "B", "UTF-8", None),
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


@pytest.mark.parametrize("name", FILES)
def test_every_file_sgfmill_reads_replays_to_the_same_board(name: str) -> None:
    data = (REAL / name).read_bytes()
    theirs = sgfmill_board(data)
    record = parse_record(data)
    if theirs is None:  # sgfmill refuses set-up after the root (HanDol, Fox handicaps)
        assert any(not hasattr(a, "color") for a in record.actions)
        return
    ours = replay(record, CHINESE, strict=False).board.stones()
    assert ours == theirs


def test_sgfmill_reads_most_of_the_real_files() -> None:
    # The cross-check above must compare real boards, not skip them all.
    read = [n for n in FILES if sgfmill_board((REAL / n).read_bytes()) is not None]
    assert len(read) >= len(FILES) - 8
