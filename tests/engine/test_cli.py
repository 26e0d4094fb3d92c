"""``python -m games.engine`` in a subprocess: check, score, JSON and bad input."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .engine_helpers import ROOT, SCORE_KEYS, run_engine

FIXTURES = Path(__file__).parent / "fixtures"
GNUGO = str(FIXTURES / "gnugo_9x9_seed2.sgf")
CGOBAN = str(FIXTURES / "cgoban_9x9_territory.sgf")
SUPERKO = str(FIXTURES / "superko_sending_two_returning_one.sgf")
KO = str(FIXTURES / "simple_ko_retake.sgf")
DEAD = "G7,F3,G3,E2"  # docs/rules.md, "One game under three presets"


def run_json(*args: str) -> Any:
    done = run_engine(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_one_line_error(done: subprocess.CompletedProcess[str], status: int, words: str) -> None:
    assert done.returncode == status, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    assert words in lines[0]


def test_check_says_a_legal_game_is_legal() -> None:
    done = run_engine("check", GNUGO, "--rules", "chinese")
    assert done.returncode == 0
    assert done.stdout.strip() == f"{GNUGO}: legal (46 moves)"


def test_check_reports_the_superko_violation_under_positional_superko() -> None:
    done = run_engine("check", SUPERKO, "--rules", "chinese")
    assert done.returncode == 1
    assert "illegal: move 4, White B6: superko" in done.stdout


def test_check_accepts_the_same_game_under_situational_superko() -> None:
    assert run_engine("check", SUPERKO, "--rules", "nz").returncode == 0


def test_check_json_gives_number_colour_point_and_reason_per_file() -> None:
    done = run_engine("check", GNUGO, KO, "--rules", "japanese", "--json")
    assert done.returncode == 1
    legal, ko = json.loads(done.stdout)
    assert legal["legal"] is True and legal["first_illegal"] is None
    assert ko["legal"] is False
    assert ko["first_illegal"] == {
        "number": 2,
        "color": "black",
        "point": "A1",
        "sgf": "ai",
        "reason": "ko",
        "description": "move 2, Black A1: ko",
    }


def test_check_json_reports_size_komi_handicap_first_player_and_charset() -> None:
    real = ROOT / "tests" / "data" / "sgf" / "real"
    handol = str(real / "lee-sedol-handol-g1.sgf")
    fox = str(real / "tencent-2018-km375.sgf")
    done = run_engine("check", handol, fox, GNUGO, "--rules", "chinese", "--json")
    assert done.returncode == 0, done.stderr
    reports = json.loads(done.stdout)
    read = [
        {k: r[k] for k in ("size", "komi", "handicap", "first_player", "charset", "legal")}
        for r in reports
    ]
    assert read == [
        {
            "size": 19,
            "komi": 7.5,
            "handicap": 2,
            "first_player": "W",
            "charset": "UTF-8",
            "legal": True,
        },
        {
            "size": 19,
            "komi": 7.5,
            "handicap": 0,
            "first_player": "B",
            "charset": "UTF-8",
            "legal": True,
        },
        {
            "size": 9,
            "komi": 7.5,
            "handicap": 0,
            "first_player": "B",
            "charset": "UTF-8",
            "legal": True,
        },
    ]
    assert reports[1]["warnings"] == ["Fox's scaled komi: KM[375] read as komi 7.5"]
    assert f"{fox}: warning: Fox's scaled komi" in done.stderr


def test_check_goes_on_past_an_unreadable_file_and_exits_with_the_worst_status(
    tmp_path: Path,
) -> None:
    missing = str(tmp_path / "missing.sgf")
    done = run_engine("check", missing, SUPERKO, GNUGO, "--rules", "chinese")
    assert done.returncode == 3
    assert "superko" in done.stdout and "legal (46 moves)" in done.stdout
    assert_one_line_error(done, 3, "missing.sgf: cannot read")


def test_score_json_is_the_score_dict_for_the_gnugo_game_under_chinese() -> None:
    data = run_json("score", GNUGO, "--rules", "chinese", "--dead", DEAD)
    assert set(SCORE_KEYS) <= set(data)
    assert data["result"] == "B+5.5"
    assert (data["black_area"], data["white_area"], data["dame"]) == (47, 34, 0)
    assert data["komi"] == 7.5 and data["winner"] == "B"


def test_score_takes_dead_stones_from_tb_tw_markup_without_dead() -> None:
    data = run_json("score", CGOBAN, "--rules", "chinese")
    assert data["result"] == "B+5.5"


def test_score_without_dead_or_markup_removes_nothing() -> None:
    assert run_json("score", GNUGO, "--rules", "tromp-taylor")["result"] == "W+27.5"


def test_score_wmsg_gives_a_fill_in_object() -> None:
    data = run_json("score", GNUGO, "--rules", "wmsg", "--dead", "gc fg gg eh", "--komi", "6.5")
    assert data["result"] == "B+6.5"
    assert data["white_passed_first"] is False
    assert isinstance(data["fill_in"], dict)


def test_score_counts_with_the_records_komi_by_default(tmp_path: Path) -> None:
    game = tmp_path / "km05.sgf"
    game.write_text("(;GM[1]SZ[9]KM[0.5];B[ee];W[];B[])")
    data = run_json("score", str(game), "--rules", "japanese")
    assert data["komi"] == 0.5 and data["result"] == "B+79.5"


def test_komi_overrides_the_preset() -> None:
    data = run_json("score", GNUGO, "--rules", "chinese", "--dead", DEAD, "--komi", "0.5")
    assert data["komi"] == 0.5
    assert data["result"] == "B+12.5"


def test_score_prints_readable_lines_without_json() -> None:
    done = run_engine("score", GNUGO, "--rules", "chinese", "--dead", DEAD)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == f"{GNUGO}: B+5.5"
    assert "  black_area: 47" in lines


def test_score_refuses_a_game_with_an_illegal_move() -> None:
    assert_one_line_error(run_engine("score", SUPERKO, "--rules", "chinese"), 1, "move 4")


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (["check", GNUGO, "--rules", "klingon"], 2, "unknown rules 'klingon'"),
        (["score", GNUGO, "--rules", "chinese", "--dead", "Z99"], 2, "--dead: 'Z99'"),
        (["score", GNUGO, "--rules", "chinese", "--dead", "A9"], 2, "dead stones:"),
        (["score", GNUGO, "--rules", "chinese", "--komi", "six"], 2, "--komi: 'six'"),
        (["score", GNUGO, "--rules", "chinese", "--komi", "6.3"], 2, "whole or half"),
        (["score", GNUGO], 2, "--rules"),
        (["frobnicate"], 2, "invalid choice"),
        ([], 2, "required"),
        (["score", "/nonexistent/game.sgf", "--rules", "chinese"], 3, "cannot read"),
        (["score", str(FIXTURES), "--rules", "chinese"], 3, "cannot read"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_its_exit_status(
    args: list[str], status: int, words: str
) -> None:
    assert_one_line_error(run_engine(*args), status, words)


def test_a_broken_sgf_file_names_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9]\n;B[ee];W[zz])")
    assert_one_line_error(
        run_engine("score", str(bad), "--rules", "chinese"), 3, "line 2, column 8, property W"
    )


def test_binary_garbage_is_a_bad_file_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "noise.sgf"
    bad.write_bytes(bytes(range(256)) * 10)
    assert_one_line_error(run_engine("check", str(bad), "--rules", "chinese"), 3, "noise.sgf")


def test_reader_warnings_go_to_stderr(tmp_path: Path) -> None:
    fox = tmp_path / "fox.sgf"
    fox.write_text("(;GM[1]SZ[9]AP[foxwq]KM[375];B[ee])")
    done = run_engine("check", str(fox), "--rules", "chinese")
    assert done.returncode == 0
    assert "warning: Fox record" in done.stderr


MARKED_GAME = str(ROOT / "tests" / "data" / "sgf" / "marked" / "ogs-easy-6516313.sgf")


def test_dead_prints_the_estimated_dead_stones_and_unsure_groups_as_json() -> None:
    data = run_json("dead", MARKED_GAME, "--rules", "japanese")
    assert set(data) == {"dead", "unsure"}
    assert len(data["dead"]) == 16  # the players marked these 16 stones
    assert all(isinstance(p, str) and p[0].isalpha() and p[1:].isdigit() for p in data["dead"])
    assert all(isinstance(group, list) for group in data["unsure"])


def test_score_can_count_with_the_estimate() -> None:
    marked = run_json("score", MARKED_GAME, "--rules", "japanese")
    estimated = run_json("score", MARKED_GAME, "--rules", "japanese", "--estimate-dead")
    assert estimated == marked


def test_score_refuses_dead_stones_and_the_estimate_together() -> None:
    done = run_engine("score", GNUGO, "--rules", "chinese", "--dead", "G7", "--estimate-dead")
    assert_one_line_error(done, 2, "not allowed with argument")


def test_score_json_under_japanese_names_the_seki_stones_and_their_eyes() -> None:
    marked = ROOT / "tests" / "data" / "sgf" / "marked" / "gnugo-kgs-20050408-janine-GNU.sgf"
    data = run_json("score", str(marked), "--rules", "japanese")
    assert data["result"] == "B+13.5"  # the players' own result
    assert data["seki"]["points"] == ["B18"]
    assert data["seki"]["stones"]["B"] == ["B19", "A18"]
    assert data["seki"]["eyes"] == ["A19", "D18"]
    assert data["teire"] == [] and data["teire_points"] == 0
