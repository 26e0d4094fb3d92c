"""SGF game records: main line, setup, territory markup, komi quirks, writing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from games.engine.coords import parse_points, sgf_to_point
from games.engine.record import parse_record, write_record
from games.engine.replay import first_player, replay
from games.engine.result import Result
from games.engine.rules import get_rules
from games.engine.sgf import SgfError
from games.engine.types import Color, GameRecord, Move, Setup

FIXTURES = Path(__file__).parent / "fixtures"
# docs/rules.md, "One game under three presets", Black first, before the closing B pass, W cf, B pass, W pass.
GNUGO_MOVES = [
    "ee",
    "cg",
    "eg",
    "gg",
    "ge",
    "eh",
    "fh",
    "fg",
    "dh",
    "ce",
    "hf",
    "gc",
    "ec",
    "cc",
    "fb",
    "ch",
    "db",
    "cb",
    "ef",
    "da",
    "ea",
    "ca",
    "ci",
    "bi",
    "di",
    "bh",
    "dd",
    "cd",
    "dg",
    "dc",
    "cf",
    "bf",
    "de",
    "eb",
    "fc",
    "fa",
    "gb",
    "ga",
    "ha",
    "ea",
    "hb",
    "df",
]


def read(name: str) -> GameRecord:
    return parse_record((FIXTURES / name).read_bytes())


def test_the_gnugo_game_reads_as_its_rules_md_move_list() -> None:
    record = read("gnugo_9x9_seed2.sgf")
    assert record.size == 9
    assert record.komi == Decimal("7.5")
    assert len(record.moves) == 46
    points = [m.point for m in record.moves]
    assert points[:42] == [sgf_to_point(m, 9) for m in GNUGO_MOVES]
    assert [m.color for m in record.moves[:2]] == [Color.BLACK, Color.WHITE]
    # B pass, W cf, B pass, W pass (docs/rules.md, the GNU Go game)
    assert points[42:] == [None, (2, 5), None, None]
    assert record.info["RE"] == "B+5.5"
    assert record.warnings == ()


def test_cgoban_territory_markup_on_the_final_node_becomes_territory() -> None:
    record = read("cgoban_9x9_territory.sgf")
    assert record.komi == Decimal("7.5")  # written KM[7.50]
    assert len(record.territory_black) == 29
    assert len(record.territory_white) == 16
    dead_white = set(parse_points("gc fg gg eh", 9))
    assert dead_white <= record.territory_black
    assert record.info["WR"] == "3d" and record.info["OT"] == "5x30 byo-yomi"


def test_markup_before_the_final_node_is_not_territory() -> None:
    record = parse_record("(;SZ[9];B[ee]TB[aa];W[cc])")
    assert record.territory_black == frozenset()


def test_compressed_point_lists_expand_in_setup_and_territory() -> None:
    record = parse_record("(;SZ[9]AB[aa:bb]AW[ii];B[ee]TB[gg:hh][ce]TW[aa:ab])")
    assert record.setup.black == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert record.territory_black == {(6, 6), (7, 6), (6, 7), (7, 7), (2, 4)}
    assert record.territory_white == {(0, 0), (0, 1)}


def test_the_main_line_is_the_first_variation_at_each_branch() -> None:
    record = parse_record("(;SZ[9];B[ee](;W[cc](;B[gg])(;B[gc]))(;W[gc]))")
    assert [m.point for m in record.moves] == [(4, 4), (2, 2), (6, 6)]


def test_both_pass_forms_are_passes_up_to_19_and_tt_is_a_point_above() -> None:
    small = parse_record("(;SZ[19];B[];W[tt])")
    assert [m.point for m in small.moves] == [None, None]
    big = parse_record("(;SZ[21];B[];W[tt])")
    assert [m.point for m in big.moves] == [None, (19, 19)]


def test_mid_game_setup_becomes_a_setup_action_before_the_nodes_move() -> None:
    record = parse_record("(;SZ[9];B[ee];AW[aa]AE[ee];W[cc])")
    assert record.actions == (
        Move(Color.BLACK, (4, 4)),
        Setup(white=frozenset({(0, 0)}), empty=frozenset({(4, 4)})),
        Move(Color.WHITE, (2, 2)),
    )


def test_handicap_stones_are_the_root_setup() -> None:
    record = parse_record("(;SZ[19]HA[2]KM[0.5]AB[dp][pd];W[pp])")
    assert record.handicap == 2
    assert record.setup.black == set(parse_points("D4 Q16", 19))
    assert record.moves[0] == Move(Color.WHITE, (15, 15))


def test_a_handicap_game_without_its_stones_that_white_opens_is_white_first() -> None:
    # A KGS handicap record whose AB was left out: White's opening move is no wrong turn.
    record = parse_record("(;SZ[19]HA[3]KM[0.5];W[qp];B[oq];W[lp])")
    assert first_player(record) is Color.WHITE
    assert replay(record, get_rules("chinese"), strict=True).first_illegal is None
    assert any("no handicap stones in the record" in w for w in record.warnings)


def test_pl_on_the_root_is_the_first_player() -> None:
    assert parse_record("(;PL[W])").first_player is Color.WHITE
    assert parse_record("(;)").first_player is None


@pytest.mark.parametrize(
    ("raw", "komi"),
    [
        ("375", "7.5"),
        ("750", "7.5"),
        ("325", "6.5"),
        ("650", "6.5"),
        ("275", "5.5"),
        ("550", "5.5"),
        ("350", "7"),
        ("700", "7"),
    ],
)
def test_fox_scaled_komi_is_read_as_real_komi(raw: str, komi: str) -> None:
    record = parse_record(f"(;AP[foxwq]KM[{raw}])")
    assert record.komi == Decimal(komi)
    assert any("Fox" in w for w in record.warnings)


def test_fox_is_named_by_any_ap_value_not_only_the_first() -> None:
    # As Fox writes its records: the GNU Go AP first, its own later in the root.
    record = parse_record("(;KM[750]HA[0]RU[Japanese]AP[GNU Go:3.8]RE[W+R]AP[foxwq];B[pd])")
    assert record.komi == Decimal("7.5")
    assert record.warnings == ("Fox record: KM[750] read as komi 7.5",)
    assert parse_record("(;AP[foxwq:1.0]KM[6.5])").komi == Decimal("6.5")


def test_a_scaled_fox_komi_is_read_even_without_the_fox_application() -> None:
    record = parse_record("(;AP[YuanYu]KM[375]RU[Chinese])")
    assert record.komi == Decimal("7.5")
    assert record.warnings == ("Fox's scaled komi: KM[375] read as komi 7.5",)


@pytest.mark.parametrize("raw", ["2.75", "3.25", "3.75"])
def test_a_gogod_quarter_komi_is_doubled(raw: str) -> None:
    record = parse_record(f"(;RU[Chinese]KM[{raw}])")
    assert record.komi == Decimal(raw) * 2
    assert any("quarter komi" in w for w in record.warnings)


@pytest.mark.parametrize("raw", ["0.25", "6.25", "7.75", "-3.75"])
def test_other_quarter_komi_are_not_doubled_but_unknown(raw: str) -> None:
    record = parse_record(f"(;KM[{raw}])")
    assert record.komi is None
    assert record.warnings == (f"KM[{raw}] is not a whole or half point: komi unknown",)


def test_komi_zero_with_a_half_point_result_means_unknown_komi() -> None:
    record = parse_record("(;KM[0]RE[W+6.5])")
    assert record.komi is None
    assert any("komi is missing" in w for w in record.warnings)
    assert parse_record("(;KM[0]RE[W+6])").komi == 0
    assert parse_record("(;KM[0]RE[W+R])").komi == 0


def test_ha_1_is_no_handicap_with_black_first_and_no_komi() -> None:
    record = parse_record("(;HA[1];B[dd])")
    assert record.handicap == 0
    assert record.first_player is Color.BLACK
    assert record.komi == 0
    assert any("HA[1]" in w for w in record.warnings)


def test_ha_1_keeps_a_komi_the_file_gives() -> None:
    assert parse_record("(;HA[1]KM[0.5])").komi == Decimal("0.5")


def test_a_missing_komi_is_none_and_a_missing_size_is_19() -> None:
    record = parse_record("(;B[dd])")
    assert record.komi is None and record.size == 19


@pytest.mark.parametrize(
    ("text", "line", "column", "prop", "words"),
    [
        ("(;GM[2])", 1, 3, "GM", "not a game of Go"),
        ("(;SZ[19:30])", 1, 3, "SZ", "size 30 is out of range"),
        ("(;FF[4]\n  SZ[40])", 2, 3, "SZ", "size 40 is out of range \\(2-25\\)"),
        ("(;SZ[x])", 1, 3, "SZ", "not a number"),
        ("(;SZ[9];B[jj])", 1, 9, "B", "'jj' is not on a 9x9 board"),
        ("(;SZ[9]\n;B[aa]W[bb])", 2, 7, "W", "both"),
        ("(;SZ[9];B[aa][bb])", 1, 9, "B", "one point"),
        ("(;SZ[9]AB[aa:zz])", 1, 8, "AB", "not on a 9x9 board"),
        ("(;SZ[9]AB[aa]AW[aa])", 1, 14, "AW", "set up twice"),
        ("(;SZ[9];W[ee]TW[jj])", 1, 14, "TW", "not on a 9x9"),
    ],
)
def test_each_record_error_names_line_column_and_property(
    text: str, line: int, column: int, prop: str, words: str
) -> None:
    with pytest.raises(SgfError, match=words) as err:
        parse_record(text)
    assert (err.value.line, err.value.column, err.value.property) == (line, column, prop)


@pytest.mark.parametrize(
    ("text", "field", "value", "warning"),
    [
        ("(;KM[six];B[dd])", "komi", None, "KM[six] is not a number: komi unknown"),
        ("(;KM[6.4];B[dd])", "komi", None, "KM[6.4] is not a whole or half point: komi unknown"),
        ("(;KM[NaN];B[dd])", "komi", None, "KM[NaN] is out of range: komi unknown"),
        ("(;HA[-2];B[dd])", "handicap", 0, "HA[-2] is not a number of stones: ignored"),
        # A real record (DeepZenGo against Leela, 2017) gives its komi as HA.
        ("(;HA[7.5];B[dd])", "handicap", 0, "HA[7.5] is not a number of stones: ignored"),
        ("(;SZ[9]HA[81];B[dd])", "handicap", 0, "HA[81] does not fit on a 9x9 board: ignored"),
        ("(;PL[X];B[dd])", "first_player", None, "PL[X] is not B or W: ignored"),
        ("(;FF[1]PL[1];B[dd])", "first_player", None, "PL[1] is not B or W: ignored"),
    ],
)
def test_an_unreadable_information_property_is_a_warning_not_a_refusal(
    text: str, field: str, value: object, warning: str
) -> None:
    record = parse_record(text)
    assert getattr(record, field) == value
    assert record.warnings == (warning,)
    assert record.moves == (Move(Color.BLACK, (3, 3)),)


def test_only_the_first_game_of_a_collection_is_read_with_a_warning() -> None:
    record = parse_record("(;SZ[9])(;SZ[13])")
    assert record.size == 9
    assert record.warnings == ("the file holds 2 games; only the first is read",)


def test_max_bytes_is_passed_to_the_reader() -> None:
    with pytest.raises(SgfError, match="larger than 10 bytes"):
        parse_record("(;SZ[9];B[ee])", max_bytes=10)


def without_file_notes(record: GameRecord) -> dict[str, object]:
    info = {k: v for k, v in record.info.items() if k not in ("AP", "CA")}
    return {
        "size": record.size,
        "komi": record.komi,
        "handicap": record.handicap,
        "setup": record.setup,
        "actions": record.actions,
        "first": record.first_player,
        "info": info,
        "tb": record.territory_black,
        "tw": record.territory_white,
    }


@pytest.mark.parametrize(
    "name",
    [
        "gnugo_9x9_seed2.sgf",
        "cgoban_9x9_territory.sgf",
        "superko_sending_two_returning_one.sgf",
        "simple_ko_retake.sgf",
    ],
)
def test_fixtures_round_trip_through_the_writer(name: str) -> None:
    record = read(name)
    again = parse_record(write_record(record))
    assert without_file_notes(again) == without_file_notes(record)


def test_a_built_record_round_trips_with_setup_passes_and_territory() -> None:
    record = GameRecord(
        size=13,
        komi=Decimal("-2.5"),
        handicap=2,
        setup=Setup(black=frozenset(parse_points("K10 D4", 13))),
        actions=(
            Move(Color.WHITE, (2, 2)),
            Setup(empty=frozenset({(2, 2)}), white=frozenset({(5, 5)})),
            Move(Color.BLACK, None),
            Move(Color.WHITE, None),
        ),
        first_player=Color.WHITE,
        info={"PB": "Ann ]\\ [x]", "PW": "Bo", "C": "two\nlines"},
        territory_black=frozenset({(0, 0)}),
        territory_white=frozenset({(12, 12)}),
    )
    assert without_file_notes(parse_record(write_record(record))) == without_file_notes(record)


def test_the_writer_puts_ff_gm_and_game_info_on_the_root() -> None:
    record = parse_record(
        "(;SZ[9]KM[7]HA[0]RU[wga]PB[b]PW[w]BR[1k]WR[2d]DT[2023-04-01]EV[Cup]AP[foxwq];B[ee])"
    )
    text = write_record(record, result=Result.parse("B+3"))
    root = text.split(";")[1]
    for prop in [
        "FF[4]",
        "GM[1]",
        "SZ[9]",
        "KM[7]",
        "HA[0]",
        "RU[wga]",
        "RE[B+3]",
        "PB[b]",
        "PW[w]",
        "BR[1k]",
        "WR[2d]",
        "DT[2023-04-01]",
        "EV[Cup]",
    ]:
        assert prop in root
    assert "foxwq" not in text
    assert ";B[ee]" in text


def test_the_writer_can_replace_result_and_rules() -> None:
    record = parse_record("(;RE[W+R]RU[Japanese])")
    text = write_record(record, result="B+T", rules="chinese")
    assert "RE[B+T]" in text and "RU[chinese]" in text and "W+R" not in text


def test_the_writer_writes_passes_as_empty_values() -> None:
    record = parse_record("(;SZ[19];B[tt];W[])")
    assert ";B[]" in write_record(record) and "tt" not in write_record(record)


def test_a_flood_of_compressed_point_lists_is_refused_quickly() -> None:
    import time

    text = "(;SZ[25]" + ";AB[aa:yy]" * 19_000 + ")"
    start = time.perf_counter()
    with pytest.raises(SgfError, match="more than 250,000"):
        parse_record(text)
    assert time.perf_counter() - start < 2


def test_the_plain_move_fast_path_gives_the_same_record_as_the_general_path() -> None:
    from games.engine.randgame import random_moves
    from games.engine.sgf import parse as parse_tree

    moves = random_moves(9, 120, 3)
    body = "".join(
        f";{m.color.letter}[{'' if m.point is None else chr(97 + m.point[0]) + chr(97 + m.point[1])}]"
        for m in moves
    )
    fast = parse_record(f"(;GM[1]SZ[9]KM[6.5]\n{body}\n)\n")
    # A comment on the last move sends the file down the general path.
    general = parse_record(f"(;GM[1]SZ[9]KM[6.5]\n{body}C[end])")
    assert fast == general and fast.moves == tuple(moves)
    assert len(parse_tree(f"(;SZ[9]{body})")[0].nodes) == len(moves) + 1


def test_an_off_board_plain_move_is_located_like_any_other() -> None:
    with pytest.raises(SgfError, match="not on a 9x9") as err:
        parse_record("(;GM[1]SZ[9]\n;B[ee];W[zz])")
    assert (err.value.line, err.value.column, err.value.property) == (2, 8, "W")


def test_a_second_game_after_plain_moves_is_still_noticed() -> None:
    rec = parse_record("(;SZ[9];B[ee];W[cc]) (;SZ[13];B[aa])")
    assert rec.size == 9 and len(rec.moves) == 2
    assert any("2 games" in w for w in rec.warnings)


@pytest.mark.parametrize(
    ("text", "line", "column", "prop", "words"),
    [
        ("(;SZ[9]AB[ab][ba]AW[aa])", 1, 18, "AW", "white chain at A9 \\(aa\\) has no liberty"),
        ("(;SZ[9]\n;AW[ab][ba]AB[aa];W[ee])", 2, 12, "AB", "black chain at A9 \\(aa\\)"),
    ],
)
def test_a_set_up_chain_without_liberties_is_refused_naming_the_point(
    text: str, line: int, column: int, prop: str, words: str
) -> None:
    with pytest.raises(SgfError, match=words) as err:
        parse_record(text)
    assert (err.value.line, err.value.column, err.value.property) == (line, column, prop)


def test_every_set_up_node_before_the_first_move_is_checked_quickly() -> None:
    import time

    # 5,000 set-up nodes of one stone each fill a 25x25 board with Black (checking
    # node by node, rebuilding the board each time, took seconds).
    nodes = "".join(f";AB[{chr(97 + i % 25)}{chr(97 + i // 25 % 25)}]" for i in range(5_000))
    start = time.perf_counter()
    with pytest.raises(SgfError, match="black chain at A25 \\(aa\\) has no liberty") as err:
        parse_record("(;SZ[25]" + nodes + ";B[])")
    assert time.perf_counter() - start < 2
    assert err.value.property == "AB"
    # A chain closed by a third node is found too, and a later move does not hide it.
    with pytest.raises(SgfError, match="white chain at A9"):
        parse_record("(;SZ[9];AB[ab];AB[ba]AW[aa];B[ee])")


def test_the_node_limit_counts_only_the_first_game_of_a_collection() -> None:
    big = "(" + ";B[aa];W[bb]" * 6_000 + ")"
    record = parse_record("(;SZ[9];B[ee])" + big * 3)
    assert record.moves == (Move(Color.BLACK, (4, 4)),)
    assert record.warnings == ("the file holds 4 games; only the first is read",)


def test_a_shift_jis_record_is_read_under_its_java_and_windows_names() -> None:
    text = "(;CA[{}]PB[井山裕太]PW[張栩]C[ソ表];B[pd];W[dp])"
    for name in ("Windows-31J", "x-sjis", "Shift_JIS", "MS_KANJI"):
        record = parse_record(text.format(name).encode("cp932"))
        assert record.charset == "cp932" and record.warnings == ()
        assert record.info["PB"] == "井山裕太" and record.info["C"] == "ソ表"
        assert len(record.moves) == 2


def test_a_record_is_never_refused_for_its_text() -> None:
    # Shift_JIS without CA: not UTF-8, so GB18030, which takes the 0x5C of "ソ"
    # as part of a character as Shift_JIS does (byte by byte it would be an
    # escape): the name is wrong, the moves intact.
    record = parse_record("(;PB[ソ]C[x];B[pd];W[dp])".encode("cp932"))
    assert record.charset == "GB18030"
    assert record.moves == (Move(Color.BLACK, (15, 3)), Move(Color.WHITE, (3, 15)))
