"""Each rating system reads its ratings on its own ladder (``RatingSystem.scale``)."""

from __future__ import annotations

import pytest

from ratings.ranks import Rank
from ratings.scales import Scale, scale_for
from ratings.systems import EGF2021, OGS, OGS_CONFIG, SYSTEMS, RatingError, RatingSystem
from ratings.systems.egf import GOR_SCALE
from ratings.systems.glicko2 import OGS_SCALE, ogs_rating


def test_each_system_names_its_own_scale() -> None:
    assert {name: s.scale for name, s in SYSTEMS.items()} == {
        "egf2021": GOR_SCALE,
        "egf1998": GOR_SCALE,
        "glicko2": OGS_SCALE,
        "ogs": OGS_SCALE,
    }


def test_the_gor_scale() -> None:
    scale = scale_for("egf1998")
    assert scale.egf and scale.start(Rank.parse("1d").index).rating == 2100
    assert scale.rank(2100) == Rank.parse("1d") and scale.stones(2000) == -1


def test_the_ogs_scale() -> None:
    scale = scale_for("ogs")
    start = scale.start(Rank.parse("1d").index)
    assert not scale.egf and start.rating == pytest.approx(1960.4, abs=0.05)
    assert (start.deviation, start.volatility) == (
        OGS_CONFIG.initial_deviation,
        OGS_CONFIG.initial_volatility,
    )
    assert scale.stones(ogs_rating(30.5)) == pytest.approx(0)
    assert scale.rank(ogs_rating(30.5)) == Rank.parse("1d")


def test_an_unknown_system_is_refused_not_read_on_ogs_ranks() -> None:
    with pytest.raises(RatingError, match="unknown rating system 'elo'"):
        scale_for("elo")


def test_a_system_without_a_scale_is_no_rating_system() -> None:
    class Elo:
        name = "elo"
        rate_event = EGF2021.rate_event
        new_player = EGF2021.new_player

    assert not isinstance(Elo(), RatingSystem)
    assert isinstance(OGS, RatingSystem)
    assert Scale(OGS).name == "ogs"
