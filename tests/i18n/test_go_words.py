"""Go's words in each language: ranks, results, names (docs/i18n.md, "Go's own words")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.people.engine.names import display_name
from games.templatetags.go_words import outcome, rank, result_words
from ratings.ranks import Rank


@pytest.mark.parametrize(
    ("language", "kyu", "dan"),
    [
        ("en", "5k", "3d"),
        ("fr", "5k", "3d"),
        ("ja", "5級", "3段"),
        ("ko", "5급", "3단"),
        ("zh-hans", "5级", "3段"),
    ],
)
def test_ranks_are_written_as_each_locale_writes_them(language: str, kyu: str, dan: str) -> None:
    with translation.override(language):
        assert rank(Rank.kyu(5)) == rank(-5) == rank("5k") == kyu
        assert rank(Rank.dan(3)) == rank(2) == rank("3 dan") == dan
        assert rank("not a rank") == "not a rank" and rank(None) == ""


@pytest.mark.parametrize(
    ("language", "resign", "points", "jigo"),
    [
        ("en", "Black wins by resignation", "White wins by 3.5 points", "jigo (draw)"),
        ("fr", "Noir gagne par abandon", "Blanc gagne de 3,5 points", "jigo (partie nulle)"),
        ("ja", "黒の中押し勝ち", "白の3.5目勝ち", "持碁"),
        ("ko", "흑 불계승", "백 3.5집승", "빅 (무승부)"),
        ("zh-hans", "黑中盘胜", "白胜3.5目", "和棋"),
    ],
)
def test_results_are_written_in_words(language: str, resign: str, points: str, jigo: str) -> None:
    with translation.override(language):
        assert result_words("B+R") == resign
        assert result_words("W+3.5") == points
        assert result_words("0") == jigo
        assert result_words("") == "" and result_words("B+x?") == "B+x?"
        assert outcome("win") != "win" or language == "en"


def test_names_in_chinese_japanese_or_korean_script_take_no_space() -> None:
    assert display_name("李", "昌镐") == "李昌镐"
    assert display_name("井山", "裕太") == "井山裕太"
    assert display_name("이", "창호") == "이창호"
    assert display_name("Lee", "Changho") == "Lee Changho"
    assert display_name("李", "Changho") == "李 Changho"  # mixed scripts: as written
    assert display_name("Solo", "") == "Solo"
