"""Unbreakable cycles (docs/rules.md, "Legality": triple ko): no result under japanese only."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine.record import parse_record, write_record
from games.engine.replay import replay
from games.engine.result import Reason, Result
from games.engine.rules import PRESETS, get_rules
from games.engine.scoring import score

from .engine_helpers import record
from .test_replay import CYCLE, TRIPLE_KO


def test_the_preset_setting_is_on_for_japanese_only() -> None:
    assert [name for name, r in PRESETS.items() if r.cycle_no_result] == ["japanese"]


def test_one_cycle_brings_the_start_back_only_a_second_time() -> None:
    r = replay(record(TRIPLE_KO, CYCLE, height=6), get_rules("japanese"))
    assert r.no_result_at is None
    assert score(r).result.reason is not Reason.VOID


def test_the_double_cycle_is_no_result_under_japanese() -> None:
    # The start position (Black to move) comes back after move 6 and, the
    # third time, after move 12.
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6), get_rules("japanese"))
    assert r.violations == [] and r.no_result_at == 12
    counted = score(r)
    assert counted.result == Result(None, Reason.VOID)
    assert counted.result.to_sgf() == "Void"
    assert counted.winner is None and counted.margin is None
    assert counted.no_result_at == 12 and counted.to_dict()["result"] == "Void"


def test_moves_after_the_third_repetition_keep_the_first_move_number() -> None:
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE} {CYCLE}", height=6), get_rules("japanese"))
    assert r.no_result_at == 12 and r.moves_played == 18


@pytest.mark.parametrize("name", ["wga", "first-capture"])
def test_other_simple_ko_presets_play_the_cycle_without_voiding(name: str) -> None:
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6), get_rules(name))
    assert r.no_result_at is None
    assert score(r).result.reason is not Reason.VOID


def test_a_preset_without_the_setting_scores_a_replay_that_found_a_cycle() -> None:
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6), get_rules("japanese"))
    plain = dataclasses.replace(r, rules=dataclasses.replace(r.rules, cycle_no_result=False))
    assert score(plain).result.reason is Reason.SCORE


@pytest.mark.parametrize("name", ["chinese", "nz", "aga"])
def test_superko_forbids_the_cycle_so_it_never_voids(name: str) -> None:
    r = replay(record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6), get_rules(name), strict=False)
    assert r.no_result_at is None and r.violations


def test_passes_alone_do_not_make_a_cycle() -> None:
    moves = " ".join(["B pass W pass"] * 3)
    r = replay(record(TRIPLE_KO, moves, height=6), get_rules("japanese"))
    assert r.no_result_at is None


def test_a_void_game_round_trips_through_sgf() -> None:
    rec = record(TRIPLE_KO, f"{CYCLE} {CYCLE}", height=6)
    counted = score(replay(rec, get_rules("japanese")))
    again = parse_record(write_record(rec, result=counted.result, rules="japanese"))
    assert Result.parse(again.info["RE"]) == Result(None, Reason.VOID)
    assert replay(again, get_rules("japanese")).no_result_at == 12
