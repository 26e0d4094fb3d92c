"""The handicap policy: NZ and EGF rules, caps, komi by preset, placement (docs/ratings.md §8)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import handicap as engine_handicap
from games.engine.coords import gtp_to_point
from games.engine.rules import get_rules
from ratings.handicap import (
    EGF_POLICY,
    FREE,
    NO_HANDICAP,
    NZ_POLICY,
    HandicapPolicy,
    PolicyKind,
    advise,
    egf_stones,
    nz_stones,
    nz_stones_from_gor,
)
from ratings.ranks import Rank
from ratings.stones import gor_to_stones
from tests.ratings.vectors import NZ_HANDICAP_EDGES

NZ = get_rules("nz")
JAPANESE = get_rules("japanese")
CHINESE = get_rules("chinese")
AGA = get_rules("aga")


def nz(a: float, b: float, size: int = 19, **kw: object) -> tuple[int, bool]:
    got = advise("a", a, "b", b, rules=NZ, size=size, **kw)  # type: ignore[arg-type]
    return got.handicap, got.even_game_allowed


# -- the NZ rule at its edges --------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "h", "even"),
    [
        (0, 0, 0, True),
        (1.0, 0.7, 1, True),
        (2.0, 1.5, 1, False),
        (3.0, 2.0, 1, False),
        (3.0, 1.99, 2, False),
        (5.2, 2.5, 3, False),
    ],
)
def test_it_matches_the_nz_vectors(a: float, b: float, h: int, even: bool) -> None:
    assert nz(a, b) == (h, even)
    assert nz(b, a) == (h, even)


def test_a_difference_of_ten_point_five_is_ten_before_the_cap_and_nine_after() -> None:
    assert nz_stones(-3.4 - -12.9) == 10
    assert nz(-3.4, -12.9) == (9, False)
    assert "capped at 9" in advise("a", -3.4, "b", -12.9, rules=NZ).explanation


@pytest.mark.parametrize(("d", "h", "even"), NZ_HANDICAP_EDGES)
def test_the_rule_at_its_edges(d: float, h: int, even: bool) -> None:
    assert nz(d, 0) == (h, even)


def test_float_noise_does_not_add_a_stone() -> None:
    assert nz(2.0000000001, 0) == (2, False)
    assert nz(0.1 + 0.2, 0.3 - 1) == (1, False)  # 1.0000000000000002
    assert nz_stones(3 * 0.1 * 10) == 3  # 3.0000000000000004
    assert nz(0.49999999999, 0)[1] is False  # within ε of 0.5 counts as 0.5


def test_nine_by_nine_caps_at_five() -> None:
    assert nz(8.7, 0, size=9) == (5, False)
    assert nz(4.2, 0, size=9) == (5, False)
    assert nz(3.2, 0, size=9) == (4, False)
    assert nz(8.7, 0, size=13) == (9, False)


def test_the_cap_is_configurable() -> None:
    assert nz(8.7, 0, policy=HandicapPolicy(cap=6)) == (6, False)
    assert nz(8.7, 0, size=9, policy=HandicapPolicy(small_board_cap=3)) == (3, False)
    with pytest.raises(ValueError):
        HandicapPolicy(cap=-1)


@given(st.integers(-900, 2900), st.integers(-900, 2900))
def test_the_float_rule_agrees_with_the_exact_integer_form(ga: int, gb: int) -> None:
    want = min(9, nz_stones_from_gor(ga, gb))
    got = advise("a", gor_to_stones(ga), "b", gor_to_stones(gb), rules=NZ)
    assert got.handicap == want
    assert got.even_game_allowed == (abs(ga - gb) < 50)


@given(st.floats(-30, 9), st.floats(-30, 9))
def test_the_weaker_player_always_takes_black(sa: float, sb: float) -> None:
    got = advise("a", sa, "b", sb, rules=NZ)
    assert got == advise("a", sa, "b", sb, rules=NZ)
    if got.handicap:
        assert got.black == ("a" if sa < sb else "b")
        assert {got.black, got.white} == {"a", "b"}
    else:
        assert got.black is None and got.white is None
    assert 0 <= got.handicap <= 9


# -- colours, komi and compensation by preset ----------------------------------------------


def test_nz_even_game_has_komi_seven_and_nigiri() -> None:
    got = advise("a", 0.2, "b", 0.2, rules=NZ)
    assert (got.handicap, got.komi, got.compensation) == (0, Decimal(7), 0)
    assert got.black is None and got.white is None and got.placement == ()


def test_nz_one_stone_means_black_first_without_komi() -> None:
    got = advise("strong", 1.0, "weak", 0.2, rules=NZ)
    assert (got.handicap, got.komi, got.black, got.white) == (1, Decimal(0), "weak", "strong")
    assert got.placement == () and got.white_passes == 0


def test_nz_handicap_is_free_with_white_passing() -> None:
    got = advise("strong", 4.0, "weak", 0.0, rules=NZ)
    assert (got.handicap, got.komi, got.compensation) == (4, Decimal(0), 0)
    assert got.placement == FREE
    assert got.white_passes == 3
    assert "White passes the first 3 moves" in got.explanation


@pytest.mark.parametrize(
    ("preset", "even", "komi", "compensation", "fixed"),
    [
        ("nz", "7", "0", 0, False),
        ("chinese", "7.5", "0.5", 4, False),
        ("aga", "7.5", "0.5", 3, True),
        ("japanese", "6.5", "0.5", 0, True),
    ],
)
def test_komi_and_compensation_come_from_the_preset(preset, even, komi, compensation, fixed):
    rules = get_rules(preset)
    assert advise("a", 0, "b", 0, rules=rules).komi == Decimal(even)
    got = advise("a", 0, "b", 4, rules=rules)
    assert (got.handicap, got.komi, got.compensation) == (4, Decimal(komi), compensation)
    assert (got.placement != FREE) is fixed
    assert advise("a", 0, "b", 1, rules=rules).komi == Decimal(0)


def test_chinese_compensation_is_n_and_aga_is_n_minus_one() -> None:
    for h in range(2, 10):
        assert advise("a", 0, "b", h, rules=CHINESE).compensation == h
        assert advise("a", 0, "b", h, rules=AGA).compensation == h - 1


def test_free_placement_outside_the_nz_policy_puts_the_stones_down_at_once() -> None:
    got = advise("a", 0, "b", 3, rules=CHINESE, policy=EGF_POLICY)
    assert got.placement == FREE and got.white_passes == 0
    forced = HandicapPolicy(white_passes_when_free=False)
    assert advise("a", 0, "b", 3, rules=NZ, policy=forced).white_passes == 0


def test_a_ruleset_without_handicaps_gives_an_even_game() -> None:
    got = advise("a", 0, "b", 5, rules=get_rules("first-capture"))
    assert got.handicap == 0 and got.komi == Decimal(0)
    assert "no handicap" in got.explanation


# -- placement --------------------------------------------------------------------------------


def pts(text: str, size: int) -> tuple[tuple[int, int], ...]:
    return tuple(gtp_to_point(t, size) for t in text.split())


@pytest.mark.parametrize(
    ("size", "h", "where"),
    [
        (19, 2, "Q16 D4"),
        (19, 3, "Q16 D4 Q4"),
        (19, 4, "Q16 D4 Q4 D16"),
        (19, 5, "Q16 D4 Q4 D16 K10"),
        (19, 6, "Q16 D4 Q4 D16 Q10 D10"),
        (19, 7, "Q16 D4 Q4 D16 Q10 D10 K10"),
        (19, 8, "Q16 D4 Q4 D16 Q10 D10 K16 K4"),
        (19, 9, "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10"),
        (13, 2, "K10 D4"),
        (13, 3, "K10 D4 K4"),
        (13, 5, "K10 D4 K4 D10 G7"),
        (13, 8, "K10 D4 K4 D10 K7 D7 G10 G4"),
        (9, 2, "G7 C3"),
        (9, 4, "G7 C3 G3 C7"),
        (9, 5, "G7 C3 G3 C7 E5"),
    ],
)
def test_fixed_placement_follows_the_traditional_table(size: int, h: int, where: str) -> None:
    got = advise("a", 0, "b", h, rules=JAPANESE, size=size)
    assert got.handicap == h
    assert tuple(got.placement) == pts(where, size)


@pytest.mark.parametrize("size", range(2, 26))
def test_fixed_placement_on_every_board_size_and_count(size: int) -> None:
    most = engine_handicap.max_fixed_stones(size)
    cap = NZ_POLICY.cap_for(size)
    for h in range(13):
        got = advise("a", 0, "b", h, rules=AGA, size=size)
        expect = min(h, cap)
        if expect >= 2:
            expect = min(expect, max(1, most))
        assert got.handicap == expect, (size, h)
        if got.handicap >= 2:
            assert got.placement == engine_handicap.fixed_points(size, got.handicap)
        else:
            assert got.placement == ()


@pytest.mark.parametrize("size", range(2, 26))
def test_free_placement_on_every_board_size_and_count(size: int) -> None:
    for h in range(13):
        got = advise("a", 0, "b", h, rules=NZ, size=size)
        expect = min(h, NZ_POLICY.cap_for(size), size * size - 1)
        assert got.handicap == expect
        if expect >= 2:
            assert got.placement == FREE and got.white_passes == expect - 1
        else:
            assert got.placement == () and got.white_passes == 0


# -- the EGF policy and "none" ----------------------------------------------------------------


def test_egf_policy_is_grade_difference_less_reduction_clamped() -> None:
    two_k, five_k = Rank.parse("2k"), Rank.parse("5k")
    got = advise("a", two_k, "b", five_k, rules=JAPANESE, policy=EGF_POLICY)
    assert (got.handicap, got.black, got.komi) == (3, "b", Decimal("0.5"))
    reduced = HandicapPolicy(kind=PolicyKind.EGF, reduction=2)
    got = advise("a", two_k, "b", five_k, rules=JAPANESE, policy=reduced)
    # h = 1 under the EGF policy: "no komi" keeps the half point, as the pairing has it
    assert (got.handicap, got.komi, got.black) == (1, Decimal("0.5"), "b")
    assert (
        advise(
            "a",
            two_k,
            "b",
            five_k,
            rules=JAPANESE,
            policy=HandicapPolicy(kind=PolicyKind.EGF, reduction=5),
        ).handicap
        == 0
    )
    far = advise("a", Rank.parse("5d"), "b", Rank.parse("20k"), rules=JAPANESE, policy=EGF_POLICY)
    assert far.handicap == 9 and not far.even_game_allowed


def _egd_rule(grades: int, reduction: int) -> int:
    # The EGD's published rule, written out independently: cap at 9, then reduce.
    capped = grades if grades < 9 else 9
    return capped - reduction if capped > reduction else 0


@pytest.mark.parametrize("reduction", range(10))
def test_egf_policy_follows_the_egd_rule_for_every_difference_and_reduction(reduction: int) -> None:
    policy = HandicapPolicy(kind=PolicyKind.EGF, reduction=reduction)
    for grades in range(39):  # 30k against 9d is 38 grades
        weak, strong = Rank(-30), Rank(-30 + grades)
        got = advise("a", weak, "b", strong, rules=JAPANESE, policy=policy)
        assert got.handicap == _egd_rule(grades, reduction), (grades, reduction)
        assert egf_stones(grades, reduction) == _egd_rule(grades, reduction)


def test_h9_always_means_no_handicap() -> None:
    h9 = HandicapPolicy(kind=PolicyKind.EGF, reduction=9)
    got = advise("a", Rank.parse("5d"), "b", Rank.parse("10k"), rules=JAPANESE, policy=h9)
    assert got.handicap == 0 and got.even_game_allowed  # 14 grades: 0 in the EGD, not 5
    three = HandicapPolicy(kind=PolicyKind.EGF, reduction=3)
    got = advise("a", Rank.parse("5d"), "b", Rank.parse("10k"), rules=JAPANESE, policy=three)
    assert got.handicap == 6 and "capped at 9" in got.explanation


def test_egf_policy_reads_grades_from_strength_bands() -> None:
    # 2049 is 1k and 2050 is 1d (docs/ratings.md §3): one grade apart.
    got = advise(
        "a", gor_to_stones(2049), "b", gor_to_stones(2050), rules=JAPANESE, policy=EGF_POLICY
    )
    assert got.handicap == 1


def test_none_policy_is_always_even() -> None:
    got = advise("a", 0, "b", 7, rules=JAPANESE, policy=NO_HANDICAP)
    assert got.handicap == 0 and got.komi == Decimal("6.5") and got.even_game_allowed


def test_ranks_and_numbers_mix() -> None:
    assert advise("a", Rank.parse("3k"), "b", 0.0, rules=NZ).handicap == 3
    with pytest.raises(ValueError):
        advise("a", Rank.parse("9p+"), "b", 0.0, rules=NZ)
    with pytest.raises(ValueError):
        advise("a", float("nan"), "b", 0.0, rules=NZ)
