"""Rules presets: exactly the table of docs/rules.md, and settings instead of names."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest

from games.engine.rules import (
    PRESETS,
    Compensation,
    KoRule,
    Scoring,
    UnknownRules,
    get_rules,
)

TABLE = {
    # name: (scoring, ko, suicide, komi, compensation)
    "chinese": (Scoring.AREA, KoRule.POSITIONAL, False, "7.5", Compensation.N),
    "japanese": (Scoring.TERRITORY, KoRule.SIMPLE, False, "6.5", Compensation.NONE),
    "nz": (Scoring.AREA, KoRule.SITUATIONAL, True, "7", Compensation.NONE),
    "aga": (Scoring.AREA, KoRule.SITUATIONAL, False, "7.5", Compensation.N_MINUS_1),
    "wmsg": (Scoring.FILL_IN, KoRule.POSITIONAL, False, "6.5", Compensation.NONE),
    "wga": (Scoring.WGA, KoRule.SIMPLE, False, "7", Compensation.NONE),
    "first-capture": (Scoring.FIRST_CAPTURE, KoRule.SIMPLE, True, "0", Compensation.NONE),
    "tromp-taylor": (Scoring.AREA, KoRule.POSITIONAL, True, "7.5", Compensation.NONE),
}


def test_the_presets_are_exactly_the_eight_of_the_table():
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_preset_matches_the_table(name):
    scoring, ko, suicide, komi, comp = TABLE[name]
    rules = get_rules(name)
    assert rules.name == name
    assert (rules.scoring, rules.ko, rules.suicide, rules.compensation) == (
        scoring,
        ko,
        suicide,
        comp,
    )
    assert rules.komi == Decimal(komi)
    assert isinstance(rules.komi, Decimal)


def test_handicap_komi_follows_the_table():
    assert get_rules("chinese").komi_for(3) == Decimal("0.5")
    assert get_rules("aga").komi_for(2) == Decimal("0.5")
    assert get_rules("nz").komi_for(4) == 0
    assert get_rules("japanese").komi_for(9) == Decimal("0.5")
    assert get_rules("chinese").komi_for(0) == Decimal("7.5")


def test_a_one_stone_handicap_is_not_a_handicap():
    rules = get_rules("chinese")
    assert rules.komi_for(1) == Decimal("7.5")
    assert rules.compensation_for(1) == 0


def test_compensation_is_n_for_chinese_n_minus_1_for_aga_and_none_for_japanese():
    assert get_rules("chinese").compensation_for(4) == 4
    assert get_rules("aga").compensation_for(4) == 3
    assert get_rules("japanese").compensation_for(4) == 0
    assert get_rules("nz").compensation_for(4) == 0


def test_only_the_special_settings_are_switched_on():
    assert get_rules("wmsg").white_pass_point
    assert not any(r.white_pass_point for n, r in PRESETS.items() if n != "wmsg")
    assert not get_rules("japanese").seki_territory
    assert get_rules("nz").integer_komi
    assert not get_rules("tromp-taylor").remove_dead
    assert all(r.remove_dead for n, r in PRESETS.items() if n != "tromp-taylor")


def test_get_rules_accepts_other_spellings():
    assert get_rules(" Tromp_Taylor ") is PRESETS["tromp-taylor"]


def test_an_unknown_name_lists_the_valid_ones():
    with pytest.raises(UnknownRules) as err:
        get_rules("ing")
    assert isinstance(err.value, ValueError)
    for name in TABLE:
        assert name in str(err.value)


def test_rules_are_frozen():
    with pytest.raises(FrozenInstanceError):
        get_rules("nz").komi = Decimal(0)  # type: ignore[misc]
