"""Hand-made histories for each cost component, the bye, colours, handicaps,
round robin, the explanation and the refusals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.tournament.engine.formats.opengotha import rank_from_text
from games.tournament.engine.model import (
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
)
from games.tournament.engine.pairing import PairingError, PairingParams, pair_round
from games.tournament.engine.pairing.berger import berger_rounds
from games.tournament.engine.pairing.colours import det_random, handicap_between
from games.tournament.engine.pairing.pair import opengotha_slices
from games.tournament.engine.pairing.state import round_state
from games.tournament.engine.pairing.weights import costs, opengotha_handicap

MM = Settings.defaults(System.MCMAHON, 5)


def _e(i: int, rank: int, club: str = "", country: str = "FR", **kw: object) -> Entrant:
    return Entrant(
        id=i,
        family_name=f"P{i:02d}",
        given_name="X",
        rank=rank,
        rating=2100 + 100 * rank,
        club=club or f"C{i}",
        country=country,
        presence=(Presence.PLAY,) * 5,
        **kw,  # type: ignore[arg-type]
    )


def _ev(
    settings: Settings, entrants: tuple[Entrant, ...], games: tuple[GameRec, ...] = ()
) -> Event:
    return Event(settings, entrants, games)


def _costs(event: Event, r: int, a: int, b: int):  # type: ignore[no-untyped-def]
    st = round_state(event, r, PairingParams.from_opengotha(event.pairing, event.settings.system))
    return costs(st, st.players[a], st.players[b], opengotha_handicap(event.settings))


def test_a_repeat_game_loses_the_duplicate_bonus_and_is_explained() -> None:
    ev = Event(
        MM,
        (_e(1, 0), _e(2, 0), _e(3, 0), _e(4, 0)),
        (GameRec(1, 1, 2, outcome=Outcome.BLACK), GameRec(1, 3, 4, outcome=Outcome.BLACK)),
    )
    assert _costs(ev, 2, 1, 2).duplicate == 0
    assert _costs(ev, 2, 1, 3).duplicate == 500_000_000_000_000
    result = pair_round(ev, 2, explain=True)
    assert {frozenset((g.black, g.white)) for g in result.games} == {
        frozenset((1, 3)),
        frozenset((2, 4)),
    } or {frozenset((g.black, g.white)) for g in result.games} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }
    forced = pair_round(ev, 2, players=[1, 2], explain=True)
    assert "they met in round 1" in forced.games[0].reasons


def test_score_difference_and_draw_up_follow_the_groups() -> None:
    # After round 1: players 1 and 3 won (MMS 31), 2 and 4 lost (MMS 30).
    ev = Event(
        MM,
        (_e(1, 0), _e(2, 0), _e(3, 0), _e(4, 0)),
        (GameRec(1, 1, 2, outcome=Outcome.BLACK), GameRec(1, 3, 4, outcome=Outcome.BLACK)),
    )
    same, cross = _costs(ev, 2, 1, 3), _costs(ev, 2, 1, 4)
    assert same.score == 100_000_000_000
    assert cross.score < same.score and cross.dudd > 0 and same.dudd == 0
    assert same.seed > 0 and cross.seed == 0
    result = pair_round(ev, 2, players=[1, 4], explain=True)
    assert any(
        r.startswith("draw-up of X P04 from the MMS 30 group") for r in result.games[0].reasons
    )


def test_same_club_costs_the_geography_bonus() -> None:
    # Kyu players: a dan player (at the rank threshold) is exempt from geography.
    ev = _ev(MM, (_e(1, -5, club="Par"), _e(2, -5, club="par"), _e(3, -5, club="Lyon")))
    assert _costs(ev, 1, 1, 2).geo < _costs(ev, 1, 1, 3).geo
    result = pair_round(ev, 1, players=[1, 2], explain=True)
    assert "same club (Par)" in result.games[0].reasons


def test_colour_balance_and_colours_of_an_even_game() -> None:
    ev = Event(
        MM,
        (_e(1, 0), _e(2, 0), _e(3, 0), _e(4, 0)),
        (GameRec(1, 2, 1, outcome=Outcome.BLACK), GameRec(1, 4, 3, outcome=Outcome.WHITE)),
    )
    # 1 was White (wb +1), 4 Black (wb -1): opposite balances earn the colour bonus.
    assert _costs(ev, 2, 1, 4).balance == 1_000_000
    assert _costs(ev, 2, 1, 3).balance == 0
    game = pair_round(ev, 2, players=[1, 4]).games[0]
    assert (game.white, game.black, game.handicap) == (4, 1, 0)


def test_handicap_from_mcmahon_score_with_correction_ceiling_and_threshold() -> None:
    s = MM  # correction 1, ceiling 9, no handicap above 1d
    assert handicap_between(-2, -5, s) == 2  # MMS 28 against 25
    assert handicap_between(2, -3, s) == 2  # a 3d counts as 1d: 3 - 1
    assert handicap_between(-20, -2, s) == -9 + 0 or handicap_between(-20, -2, s) == -9
    assert handicap_between(-1, -2, s) == 0
    assert handicap_between(-2, -5, replace(s, hd_ceiling=1)) == 1
    ev = _ev(MM, (_e(1, 0), _e(2, -6)))
    game = pair_round(ev, 1).games[0]
    assert (game.white, game.black, game.handicap) == (1, 2, 5)
    # A goref policy replaces OpenGotha's rule.
    game = pair_round(ev, 1, handicap=lambda a, b: 0).games[0]
    assert game.handicap == 0


def test_the_deterministic_random_is_antisymmetric() -> None:
    assert det_random(1000, "AbeX", "ZedY") == 1000 - det_random(1000, "ZedY", "AbeX")
    assert det_random(0, "a", "b") == 0


def test_an_odd_field_gets_a_bye_and_the_lowest_takes_it() -> None:
    ev = _ev(MM, (_e(1, 2), _e(2, 0), _e(3, -10)))
    result = pair_round(ev, 1)
    assert result.bye == 3 and len(result.games) == 1
    # An earlier bye costs 1000: player 3 does not sit out twice.
    ents = (
        _e(1, 2),
        _e(2, 0),
        replace(_e(3, -10), presence=(Presence.BYE,) + (Presence.PLAY,) * 4),
    )
    assert pair_round(_ev(MM, ents), 2).bye == 2
    assert pair_round(_ev(MM, ents), 1).bye == 3  # recorded for round 1
    assert pair_round(ev, 1, bye=1).bye == 1


def test_refusals_name_the_problem() -> None:
    ev = _ev(MM, (_e(1, 0), _e(2, 0), _e(3, 0)))
    with pytest.raises(PairingError, match="not entered"):
        pair_round(ev, 1, players=[1, 99])
    with pytest.raises(PairingError, match="odd number"):
        pair_round(ev, 1, bye=None)
    with pytest.raises(PairingError, match="outside"):
        pair_round(ev, 9)


def test_explain_all_lists_every_pair_in_pairing_list_order() -> None:
    ev = _ev(MM, (_e(1, 0), _e(2, 3), _e(3, -5), _e(4, 1)))
    result = pair_round(ev, 1, explain="all")
    assert len(result.pairs) == 6
    assert result.pairs[0].a == 2  # strongest first: the standings before round 1
    assert result.total_cost == sum(g.costs["totalCost"] for g in result.games)
    assert [g.table for g in result.games] == [1, 2]
    assert 2 in (result.games[0].black, result.games[0].white)


def test_berger_tables_meet_everyone_once_with_balanced_colours() -> None:
    for n in (4, 5, 6, 9, 10):
        schedule = berger_rounds(list(range(1, n + 1)))
        met = [frozenset(p) for rnd in schedule for p in rnd]
        assert len(met) == len(set(met)) == n * (n - 1) // 2
        for player in range(1, n + 1):
            whites = sum(1 for rnd in schedule for w, _ in rnd if w == player)
            blacks = sum(1 for rnd in schedule for _, b in rnd if b == player)
            assert abs(whites - blacks) <= 1


def test_a_round_robin_round_is_the_berger_round() -> None:
    rr = replace(MM, system=System.ROUND_ROBIN, rounds=3, hd_ceiling=0)
    ev = _ev(rr, (_e(1, 0), _e(2, 1), _e(3, 2), _e(4, 3)))
    seen = set()
    for r in (1, 2, 3):
        games = pair_round(ev, r).games
        assert len(games) == 2
        seen |= {frozenset((g.black, g.white)) for g in games}
    assert len(seen) == 6


def test_parameters_round_trip_through_opengotha_attributes() -> None:
    params = PairingParams.for_system(System.SWISS)
    assert PairingParams.from_opengotha(params.to_opengotha(), System.SWISS) == params
    assert PairingParams.for_system(System.MCMAHON).seed_system(2) == "SPLITANDRANDOM"
    assert PairingParams.for_system(System.MCMAHON).seed_system(3) == "SPLITANDSLIP"
    with pytest.raises(ValueError, match="paiMaSeedSystem1"):
        PairingParams.from_opengotha({"paiMaSeedSystem1": "NONE"})
    with pytest.raises(ValueError, match="paiSeRankThreshold"):
        PairingParams.from_opengotha({"paiSeRankThreshold": "strong"})
    assert rank_from_text("1D") == 0 and rank_from_text("30k") == -30


def test_a_field_over_600_is_paired_in_slices_from_the_top_score_down() -> None:
    entrants = tuple(_e(i, -20 + i % 27) for i in range(1, 702))
    results = tuple(
        GameRec(1, black=i, white=i + 1, outcome=Outcome.WHITE if i % 4 == 1 else Outcome.BLACK)
        for i in range(1, 700, 2)
    )
    ev = Event(MM, entrants, results)
    st = round_state(ev, 2, PairingParams())
    field = [p for p in st.order if p != 701]
    parts = opengotha_slices(st, field)
    assert len(parts) == 2
    first, rest = parts
    assert len(first) >= 200 and len(first) % 2 == 0 and len(rest) <= 600
    assert sorted(first + rest) == sorted(field)
    # Whole score groups, top down (no emergency stop was needed here).
    assert min(st.players[p].main for p in first) > max(st.players[p].main for p in rest)
    assert opengotha_slices(st, field[:600]) == [field[:600]]


def test_players_paired_by_hand_are_left_out_of_the_automatic_pairing() -> None:
    ev = _ev(MM, (_e(1, 0), _e(2, 0), _e(3, 0), _e(4, 0)), (GameRec(1, 1, 4),))
    result = pair_round(ev, 1)
    assert [frozenset((g.black, g.white)) for g in result.games] == [frozenset((2, 3))]


def test_categories_random_split_and_random_and_minimised_handicap() -> None:
    sc = replace(
        Settings.defaults(System.SWISS_CAT, 5), category_limits=(0, -10), criteria=("NBW",)
    )
    ev = _ev(sc, (_e(1, 2), _e(2, 1), _e(3, -5), _e(4, -15)))
    st = round_state(ev, 1, PairingParams.for_system(System.SWISS_CAT))
    p = st.players
    rule = opengotha_handicap(sc)
    # Three categories: dan, 10k-1k, below; a gap of one costs a third of f's range.
    same_cat, one_gap = costs(st, p[1], p[2], rule), costs(st, p[1], p[3], rule)
    assert same_cat.category == 20_000_000_000_000
    assert one_gap.category == int(20_000_000_000_000 * (1 - 1 / 3) * (1 + 0.5 / 3))
    # No score-difference bonus across categories, and the draw-up cost shrinks by 2^4.
    assert one_gap.score == 0 and 0 < one_gap.dudd <= 4 * (100_000_000 // 5) // 16
    # Swiss with categories minimises handicaps between non-exempt players.
    assert costs(st, p[3], p[4], rule).handicap > 0
    # The random criterion is taken from the names and depends on the order of the pair.
    params = replace(PairingParams.for_system(System.SWISS_CAT), random=1000)
    st = round_state(ev, 1, params)
    forward = costs(st, st.players[1], st.players[2], rule).random
    backward = costs(st, st.players[2], st.players[1], rule).random
    assert forward + backward == 1000


def test_hand_pairing_warnings() -> None:
    from games.tournament.engine.pairing.explain import check_games

    ev = _ev(
        MM,
        (_e(1, -5, club="Par"), _e(2, -5, club="Par"), _e(3, -5), _e(4, -10)),
        (
            GameRec(1, 1, 2, outcome=Outcome.BLACK),
            GameRec(1, 3, 4, outcome=Outcome.BLACK),
            GameRec(2, 1, 3, outcome=Outcome.BLACK),
            GameRec(2, 4, 2, outcome=Outcome.BLACK),
        ),
    )
    st = round_state(ev, 3, PairingParams())
    found = check_games(st, [(1, 2), (4, 3), (3, 4)])
    words = " / ".join(found[(1, 2)])
    assert "repeat game: they met in round 1" in words
    # Two Blacks already: a third passes the ±2 balance.
    assert "X P01 gets Black again (White - Black: -2, then -3)" in words
    # Same club, a score gap, a balance within ±2: the director's choice, not a problem.
    assert "same club" not in words
    assert found[(4, 3)] == ["repeat game: they met in round 1"]  # no score gap
    assert any("paired twice" in w for w in found[(3, 4)])
