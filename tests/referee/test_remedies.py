"""The New Zealand Rules remedies (referee.remedies), on small records."""

from __future__ import annotations

import pytest

from games.engine.record import parse_record
from games.engine.rules import get_rules
from games.engine.types import Color, Move
from referee import remedies
from tests.referee.conftest import sgf

KO = sgf("B A1", "W B1", "B B2", "W J9", "B A3", "W A2", "B A1")


def moves(record):  # type: ignore[no-untyped-def]
    return [(m.color.letter, m.point) for m in record.moves]


def test_replace_with_pass_turns_the_offending_move_into_a_pass_of_the_same_colour():
    record = parse_record(KO)
    new = remedies.replace_with_pass(record, 7)
    assert moves(new)[:6] == moves(record)[:6]
    assert new.moves[6] == Move(Color.BLACK, None) and len(new.moves) == 7


def test_restore_with_pass_passes_for_the_offender_and_keeps_the_later_legal_moves():
    record = parse_record(sgf("B E5", "W C3", "B G7", "W E5", "B D4"))
    new = remedies.restore_with_pass(record, 4, get_rules("nz"))
    assert moves(new) == [*moves(record)[:3], ("W", None), moves(record)[4]]


def test_restore_with_pass_drops_the_later_moves_from_the_first_that_became_illegal():
    # Black's retake (move 7) becomes a pass; White then fills A1 (move 8), so
    # Black's move 9 on A1 is on an occupied point: it and move 10 go.
    record = parse_record(
        sgf("B A1", "W B1", "B B2", "W J9", "B A3", "W A2", "B A1", "W A1", "B A1", "W E5")
    )
    new = remedies.restore_with_pass(record, 7, get_rules("nz"))
    assert moves(new) == [*moves(record)[:6], ("B", None), moves(record)[7]]


def test_a_repetition_is_in_time_only_at_the_last_move():
    record = parse_record(KO)
    assert remedies.repetition_in_time(record, 7)
    assert not remedies.repetition_in_time(parse_record(sgf("B A1", "W B1", "B pass")), 2)


def test_the_continuation_alternates_from_the_owner_and_is_appended():
    record = parse_record(sgf("B E5", "W pass", "B pass"))
    points = remedies.parse_continuation(["C5", "pass", "d4"], 9)
    new = remedies.append_continuation(record, points, owner=Color.WHITE)
    assert moves(new)[3:] == [("W", (2, 4)), ("B", None), ("W", (3, 5))]


def test_a_continuation_owner_not_to_move_gets_a_pass_first_so_the_record_stays_legal():
    record = parse_record(sgf("B E5", "W pass", "B pass", "W pass"))  # Black to move
    points = remedies.parse_continuation(["C5", "pass"], 9)
    new = remedies.append_continuation(record, points, owner=Color.WHITE, to_move=Color.BLACK)
    assert moves(new)[4:] == [("B", None), ("W", (2, 4)), ("B", None)]
    assert remedies.legality_report(new, get_rules("nz"))["first_illegal"] is None


def test_a_continuation_with_a_bad_point_names_its_place():
    with pytest.raises(remedies.RulingError, match="move 2 of the continuation"):
        remedies.parse_continuation(["C5", "Z99"], 9)


def test_the_owner_of_the_disputed_stones_must_be_one_player():
    board = remedies.position_at(parse_record(sgf("B E5", "W C3")), get_rules("nz"), None).board
    assert remedies.owner_of(board, [(2, 6)]) is Color.WHITE
    with pytest.raises(remedies.RulingError, match="one player"):
        remedies.owner_of(board, [(2, 6), (4, 4)])
    with pytest.raises(remedies.RulingError, match="empty point"):
        remedies.owner_of(board, [(0, 0)])


def test_the_legality_report_lists_every_violation_and_the_first():
    report = remedies.legality_report(parse_record(KO), get_rules("nz"))
    assert report["first_illegal"]["number"] == 7 and report["first_illegal"]["point"] == "A1"
    assert len(report["violations"]) == 1 and report["moves"] == 7


def test_record_upto_keeps_the_first_moves_and_drops_the_result():
    record = parse_record(KO.replace("HA[0]", "HA[0]RE[B+R]"))
    upto = remedies.record_upto(record, 3)
    assert len(upto.moves) == 3 and "RE" not in upto.info
