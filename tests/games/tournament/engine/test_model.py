"""The tournament model: OpenGotha's per-system defaults and the small helpers."""

from __future__ import annotations

import dataclasses

import pytest

from games.tournament.engine.model import Entrant, GameRec, Outcome, Presence, Settings, System


def _entrant(rank: int, correction: int = 0) -> Entrant:
    return Entrant(1, "Doe", "Jane", rank=rank, rating=2000, smms_correction=correction)


def test_mcmahon_defaults_are_opengothas_init_for_mm() -> None:
    s = Settings.defaults(System.MCMAHON, 5)
    assert (s.rounds, s.mm_bar, s.mm_floor) == (5, 3, -20)
    assert (s.nbw2_absent, s.nbw2_bye, s.mms2_absent, s.mms2_bye) == (0, 2, 1, 2)
    assert s.round_down and not s.count_not_played_as_half
    assert s.criteria == ("MMS", "SOSM", "SOSOSM")
    assert s.category_limits == ()
    assert (s.hd_based_on_mms, s.hd_no_hd_rank_threshold, s.hd_correction, s.hd_ceiling) == (
        True,
        0,
        1,
        9,
    )


def test_swiss_defaults_are_opengothas_init_for_swiss() -> None:
    s = Settings.defaults(System.SWISS, 4)
    assert (s.mm_bar, s.mm_floor) == (8, -30)
    assert (s.nbw2_absent, s.nbw2_bye) == (0, 2)
    assert s.criteria == ("NBW", "SOSW", "SOSOSW")
    assert (s.hd_based_on_mms, s.hd_no_hd_rank_threshold, s.hd_correction, s.hd_ceiling) == (
        False,
        -30,
        0,
        0,
    )


def test_swiss_with_categories_defaults_have_three_categories() -> None:
    s = Settings.defaults(System.SWISS_CAT, 6)
    assert s.criteria == ("CAT", "NBW", "EXT", "EXR")
    assert s.category_limits == (0, -5)
    assert [s.category(r) for r in (3, 0, -1, -5, -6, -30)] == [0, 0, 1, 1, 2, 2]
    assert (s.hd_based_on_mms, s.hd_no_hd_rank_threshold, s.hd_correction, s.hd_ceiling) == (
        True,
        8,
        1,
        9,
    )


def test_a_round_robin_takes_the_swiss_defaults() -> None:
    rr = Settings.defaults(System.ROUND_ROBIN, 7)
    swiss = Settings.defaults(System.SWISS, 7)
    assert dataclasses.replace(rr, system=System.SWISS) == swiss


@pytest.mark.parametrize(
    ("rank", "correction", "smms"),
    [(-30, 0, 10), (-20, 0, 10), (-1, 0, 29), (0, 0, 30), (3, 0, 33), (6, 0, 33), (3, 1, 34)],
)
def test_the_mcmahon_start_score_clamps_the_rank_to_floor_and_bar(
    rank: int, correction: int, smms: int
) -> None:
    s = Settings.defaults(System.MCMAHON, 5)
    assert s.smms(_entrant(rank, correction)) == smms


def test_presence_past_the_declared_rounds_is_play() -> None:
    e = dataclasses.replace(_entrant(0), presence=(Presence.PLAY, Presence.ABSENT, Presence.BYE))
    assert [e.presence_in(r) for r in (1, 2, 3, 4, 9)] == [
        Presence.PLAY,
        Presence.ABSENT,
        Presence.BYE,
        Presence.PLAY,
        Presence.PLAY,
    ]


def test_game_points_follow_opengotha() -> None:
    def pts(outcome: Outcome) -> tuple[int, int]:
        g = GameRec(round=1, black=1, white=2, outcome=outcome)
        return g.points2(1), g.points2(2)

    assert pts(Outcome.BLACK) == (2, 0)
    assert pts(Outcome.WHITE) == (0, 2)
    assert pts(Outcome.JIGO) == (1, 1)
    assert pts(Outcome.BOTH_WIN) == (2, 2)
    assert pts(Outcome.BOTH_LOSE) == (0, 0)
    assert pts(Outcome.UNKNOWN) == (0, 0)


def test_the_player_key_is_opengothas() -> None:
    e = Entrant(1, "van der Berg", "Anne Marie", rank=0, rating=2100)
    assert e.key == "VANDERBERGANNEMARIE"
