"""Storing a policy in a JSONField: to_dict / from_dict round trips and validation messages."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from ratings.promotion.engine import (
    DEFAULT_POLICY,
    BandRule,
    KyuDemotion,
    LadderStep,
    NetWinLadder,
    PolicyError,
    PromotionPolicy,
    RatingThreshold,
    ResultTable,
    TableRow,
    WinsAtRank,
    criterion_from_dict,
    criterion_to_dict,
)
from tests.ratings.promotion.engine.helpers import r

EVERYTHING = PromotionPolicy(
    kyu=BandRule(
        (
            ResultTable(),
            NetWinLadder(),
            WinsAtRank(wins=4, window=6, handicap="exclude"),
        ),
        "any",
    ),
    low_dan=BandRule((RatingThreshold(margin=50, events=3), WinsAtRank()), "all"),
    high_dan=BandRule(
        (
            RatingThreshold(games=10),
            ResultTable(table=(TableRow(r("5d"), (None, 1, r("7d"))),), rounds=3),
            NetWinLadder((LadderStep(r("30k"), 2), LadderStep(r("1d"), 3, per_grade=1))),
        )
    ),
    high_dan_from=r("6d"),
    max_grades_per_event=3,
    revoke_dan=True,
    kyu_demotion=KyuDemotion(margin=100, events=3),
)


def through_json(policy: PromotionPolicy) -> PromotionPolicy:
    return PromotionPolicy.from_dict(json.loads(json.dumps(policy.to_dict())))


@pytest.mark.parametrize("policy", [DEFAULT_POLICY, EVERYTHING, PromotionPolicy(kyu=BandRule())])
def test_a_policy_survives_a_round_trip_through_json(policy: PromotionPolicy) -> None:
    assert through_json(policy) == policy
    assert through_json(policy).to_dict() == policy.to_dict()


def test_the_default_policy_is_stored_like_this() -> None:
    threshold = {
        "combine": "any",
        "criteria": [{"type": "rating_threshold", "margin": 0, "events": 1, "games": None}],
    }
    assert DEFAULT_POLICY.to_dict() == {
        "version": 1,
        "bands": {"kyu": threshold, "low_dan": threshold, "high_dan": threshold},
        "high_dan_from": "5d",
        "max_grades_per_event": 2,
        "revoke_dan": False,
        "kyu_demotion": None,
    }


def test_an_empty_dict_is_the_default_policy() -> None:
    assert PromotionPolicy.from_dict({}) == DEFAULT_POLICY


def test_the_cga_table_is_stored_by_name_and_a_custom_table_cell_by_cell() -> None:
    assert ResultTable().to_dict() == {"type": "result_table", "rounds": 5, "table": "cga"}
    custom = ResultTable(table=(TableRow(r("5d"), (None, 1, r("7d"))),), rounds=3)
    assert custom.to_dict()["table"] == [{"entry": "5d", "cells": [None, "+1", "7d"]}]


@pytest.mark.parametrize(
    "criterion",
    [RatingThreshold(), RatingThreshold(games=12), WinsAtRank(), NetWinLadder(), ResultTable()],
)
def test_each_criterion_round_trips_on_its_own(criterion: Any) -> None:
    assert criterion_from_dict(criterion_to_dict(criterion)) == criterion


def broken(path: str, value: object) -> dict[str, Any]:
    """EVERYTHING as a dict, with the value at a dotted ``path`` (``a.b[0].c``) replaced."""
    data = copy.deepcopy(EVERYTHING.to_dict())
    keys = path.replace("[", ".").replace("]", "").split(".")
    node: Any = data
    for key in keys[:-1]:
        node = node[int(key)] if key.isdigit() else node[key]
    last = keys[-1]
    node[int(last) if last.isdigit() else last] = value
    return data


K0 = "bands.kyu.criteria[0]"  # result_table
K1 = "bands.kyu.criteria[1]"  # net_win_ladder
K2 = "bands.kyu.criteria[2]"  # wins_at_rank
L0 = "bands.low_dan.criteria[0]"  # rating_threshold


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (f"{K2}.window", 3, f"{K2}.wins_at_rank.window: must be at least wins (4)"),
        (f"{K2}.wins", 0, f"{K2}.wins_at_rank.wins: must be at least 1, not 0"),
        (f"{K2}.wins", True, f"{K2}.wins_at_rank.wins: must be a whole number, not True"),
        (
            f"{K2}.handicap",
            "ignore",
            f"{K2}.wins_at_rank.handicap: must be 'adjust' or 'exclude', not 'ignore'",
        ),
        (
            f"{K2}.windw",
            5,
            f"{K2}.wins_at_rank.windw: unknown parameter (known: wins, window, handicap)",
        ),
        (
            f"{K2}.type",
            "wins",
            f"{K2}.type: must be one of rating_threshold, wins_at_rank, net_win_ladder, result_table, not 'wins'",
        ),
        (f"{L0}.margin", -5, f"{L0}.rating_threshold.margin: must be at least 0, not -5"),
        (f"{L0}.margin", 5000, f"{L0}.rating_threshold.margin: must be at most 1000, not 5000"),
        (f"{L0}.events", 0, f"{L0}.rating_threshold.events: must be at least 1, not 0"),
        (f"{L0}.events", "3", f"{L0}.rating_threshold.events: must be a whole number, not '3'"),
        (
            f"{L0}.games",
            10,
            f"{L0}.rating_threshold.games: give either events (K events) or games (a run of N games), not both; events is 3",
        ),
        (f"{L0}.games", 0, f"{L0}.rating_threshold.games: must be at least 1, not 0"),
        (f"{K1}.steps", [], f"{K1}.net_win_ladder.steps: must list at least one step"),
        (
            f"{K1}.steps[0].from",
            "20k",
            f"{K1}.net_win_ladder.steps[0].from: the first step must start at 30k, not 20k",
        ),
        (
            f"{K1}.steps[2].from",
            "25k",
            f"{K1}.net_win_ladder.steps[2].from: must be above the previous step's 20k",
        ),
        (f"{K1}.steps[1].n", 0, f"{K1}.net_win_ladder.steps[1].n: must be at least 1, not 0"),
        (
            f"{K1}.steps[1].from",
            "31k",
            f"{K1}.net_win_ladder.steps[1].from: '31k' is not a rank: kyu ranks run from 30k to 1k",
        ),
        (
            f"{K1}.steps[1].from",
            "9p+",
            f"{K1}.net_win_ladder.steps[1].from: the honorary 9p+ is awarded by hand, never by a criterion",
        ),
        (f"{K0}.rounds", 0, f"{K0}.result_table.rounds: must be at least 1, not 0"),
        (
            f"{K0}.rounds",
            4,
            f"{K0}.result_table.table[0].cells: must have one cell per number of wins, 1 to 4, not 5",
        ),
        (
            f"{K0}.table",
            "aga",
            f"{K0}.result_table.table: must be 'cga' or a list of rows, not 'aga'",
        ),
        (
            "bands.high_dan.criteria[1].table[0].cells[1]",
            "+x",
            "bands.high_dan.criteria[1].result_table.table[0].cells[1]: must be a rank, '+N' or null, not '+x'",
        ),
        (
            "bands.high_dan.criteria[1].table[0].cells[2]",
            "4d",
            "bands.high_dan.criteria[1].result_table.table[0].cells[2]: 4d is below the entry rank 5d: a table cannot demote",
        ),
        ("bands.kyu.combine", "most", "bands.kyu.combine: must be 'any' or 'all', not 'most'"),
        ("bands.kyu.criteria", "all of them", "bands.kyu.criteria: must be a list, not str"),
        ("bands.mid_dan", {}, "bands.mid_dan: unknown parameter (known: kyu, low_dan, high_dan)"),
        ("high_dan_from", "1d", "high_dan_from: must be a dan rank from 2d to 9d, not 1d"),
        ("high_dan_from", "3k", "high_dan_from: must be a dan rank from 2d to 9d, not 3k"),
        ("max_grades_per_event", 0, "max_grades_per_event: must be at least 1, not 0"),
        ("revoke_dan", "no", "revoke_dan: must be true or false, not 'no'"),
        ("kyu_demotion.events", 0, "kyu_demotion.events: must be at least 1, not 0"),
        ("kyu_demotion.margin", -1, "kyu_demotion.margin: must be at least 0, not -1"),
        ("kyu_demotion.after", 2, "kyu_demotion.after: unknown parameter (known: margin, events)"),
        ("version", 2, "version: must be 1, not 2"),
        (
            "colour",
            "blue",
            "colour: unknown parameter (known: version, bands, high_dan_from, max_grades_per_event, revoke_dan, kyu_demotion)",
        ),
    ],
)
def test_a_bad_parameter_is_named_with_the_reason(path: str, value: object, message: str) -> None:
    with pytest.raises(PolicyError) as caught:
        PromotionPolicy.from_dict(broken(path, value))
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert caught.value.param == message.split(": ", 1)[0]


def test_a_policy_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(PolicyError, match=r"^policy: must be an object, not list$"):
        PromotionPolicy.from_dict([])


def test_constructing_a_bad_policy_directly_is_refused_the_same_way() -> None:
    with pytest.raises(PolicyError, match=r"^max_grades_per_event: must be at least 1, not 0$"):
        PromotionPolicy(max_grades_per_event=0)
    with pytest.raises(PolicyError, match=r"^combine: must be 'any' or 'all', not 'most'$"):
        BandRule((), "most")  # type: ignore[arg-type]
    with pytest.raises(PolicyError, match=r"^criteria\[0\]: is not a criterion"):
        BandRule(("rating_threshold",))  # type: ignore[arg-type]
    with pytest.raises(PolicyError, match=r"^kyu_demotion\.events: must be at least 1, not 0$"):
        KyuDemotion(events=0)
    with pytest.raises(PolicyError, match=r"^high_dan_from: must be a dan rank from 2d to 9d"):
        PromotionPolicy(high_dan_from=r("1d"))


def test_policies_are_frozen_values() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_POLICY.max_grades_per_event = 5  # type: ignore[misc]
    assert hash(EVERYTHING) == hash(through_json(EVERYTHING))
