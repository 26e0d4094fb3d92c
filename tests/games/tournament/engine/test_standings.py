"""Standings on small hand-made tournaments: each criterion and each participation case.

The expected values are worked out by hand from OpenGotha 3.5x's definitions
(docs/tournaments.md, "Standings"); the comments show the sums.
"""

from __future__ import annotations

import dataclasses

import pytest

from games.tournament.engine.model import (
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
)
from games.tournament.engine.standings import (
    Participation,
    Scoreboard,
    criterion,
    standings,
)

B, W, J, BW, BL, U = (
    Outcome.BLACK,
    Outcome.WHITE,
    Outcome.JIGO,
    Outcome.BOTH_WIN,
    Outcome.BOTH_LOSE,
    Outcome.UNKNOWN,
)
PLAY, ABSENT, BYE = Presence.PLAY, Presence.ABSENT, Presence.BYE


def make(
    players: list[tuple[str, int]],
    games: list[tuple[int, int, int, Outcome] | tuple[int, int, int, Outcome, int, bool]],
    *,
    rounds: int,
    system: System = System.MCMAHON,
    presence: dict[int, tuple[Presence, ...]] | None = None,
    **settings: object,
) -> Event:
    """Players are (name, rank), numbered from 1; a game is (round, black, white, outcome
    [, handicap, by_default])."""
    base = dataclasses.replace(Settings.defaults(system, rounds), **settings)  # type: ignore[arg-type]
    entrants = tuple(
        Entrant(
            id=n,
            family_name=name,
            given_name="",
            rank=rank,
            rating=2000 + 10 * n,
            presence=(presence or {}).get(n, ()),
        )
        for n, (name, rank) in enumerate(players, 1)
    )
    recs = tuple(
        GameRec(
            round=g[0],
            black=g[1],
            white=g[2],
            outcome=g[3],
            handicap=g[4] if len(g) > 4 else 0,  # type: ignore[misc]
            by_default=g[5] if len(g) > 5 else False,  # type: ignore[misc]
        )
        for g in games
    )
    return Event(base, entrants, recs)


def values(event: Event, after_round: int, criteria: list[str]) -> dict[str, dict[str, float]]:
    """Per player name, the criterion values after the round."""
    out = {}
    for row in standings(event, after_round, criteria):
        out[event.entrant(row.entrant_id).family_name] = row.values
    return out


# A McMahon event (bar 4d, floor 20k) with every kind of round:
#   A 1d, B 1d (start 30), C 1k, D 1k (29), E 2k (28), F 5k (25, absent throughout).
#   R1: A(b) beats B; C-D jigo; E has the bye.
#   R2: A(b)-C both win; B(w) beats E; D absent.
#   R3: A(b)-D result unknown; B(b) beats C by default; E not assigned.
MIXED = make(
    [("A", 0), ("B", 0), ("C", -1), ("D", -1), ("E", -2), ("F", -5)],
    [
        (1, 1, 2, B),
        (1, 3, 4, J),
        (2, 1, 3, BW),
        (2, 5, 2, W),
        (3, 1, 4, U),
        (3, 2, 3, B, 0, True),
    ],
    rounds=3,
    presence={4: (PLAY, ABSENT), 5: (BYE,), 6: (ABSENT, ABSENT, ABSENT)},
)


def test_participation_of_each_round() -> None:
    board = Scoreboard(MIXED)
    assert board.participation(5, 1) is Participation.BYE
    assert board.participation(4, 2) is Participation.ABSENT
    assert board.participation(5, 3) is Participation.NOT_ASSIGNED
    assert board.participation(1, 3) is Participation.PAIRED  # an unknown result is paired
    assert board.participation(2, 3) is Participation.PAIRED  # so is a by-default one


@pytest.mark.parametrize(
    ("after", "mms", "nbw"),
    [
        # A: win, both-win, unknown; B: loss, win, by-default win; C: jigo, both-win, loss;
        # D: jigo, absent (1/2 rounded down), unknown; E: bye (1), loss, not assigned (0).
        (1, [31, 30, 29.5, 29.5, 29], [1, 0, 0.5, 0.5, 1]),
        (2, [32, 31, 30.5, 29.5, 29], [2, 1, 1.5, 0.5, 1]),
        (3, [32, 32, 30.5, 29.5, 29], [2, 2, 1.5, 0.5, 1]),
    ],
)
def test_main_scores_count_results_byes_and_absences(
    after: int, mms: list[float], nbw: list[float]
) -> None:
    got = values(MIXED, after, ["MMS", "NBW"])
    assert [got[p]["MMS"] for p in "ABCDE"] == mms
    assert [got[p]["NBW"] for p in "ABCDE"] == nbw


def test_absent_points_are_rounded_down_cumulatively_not_jigo_halves() -> None:
    # F is absent three times: 3 x 1/2 = 1.5, rounded down to 1.
    assert values(MIXED, 3, ["MMS"])["F"]["MMS"] == 26
    # Without rounding D keeps the absent half point: 29 + 1/2 (jigo) + 1/2 (absent).
    exact = dataclasses.replace(
        MIXED, settings=dataclasses.replace(MIXED.settings, round_down=False)
    )
    assert values(exact, 3, ["MMS"])["D"]["MMS"] == 30
    assert values(exact, 3, ["MMS"])["F"]["MMS"] == 26.5


def test_sos_uses_opponents_final_scores_and_own_start_score_for_unpaired_rounds() -> None:
    got = values(MIXED, 3, ["SOSM", "SOSW"])
    assert got["A"]["SOSM"] == 32 + 30.5 + 29.5  # B, C, D after round 3
    assert got["D"]["SOSM"] == 30.5 + 29 + 32  # C, own start score (absent), A
    assert got["E"]["SOSM"] == 28 + 32 + 28  # own start (bye), B, own start (not assigned)
    assert got["A"]["SOSW"] == 2 + 1.5 + 0.5
    assert got["D"]["SOSW"] == 1.5 + 0 + 2  # an unpaired round adds 0 to SOSW
    assert got["E"]["SOSW"] == 2


def test_sos_minus_drops_the_lowest_terms() -> None:
    got = values(MIXED, 3, ["SOSM-1", "SOSM-2", "SOSW-1", "SOSW-2"])
    assert got["A"]["SOSM-1"] == 32 + 30.5  # D's 29.5 dropped
    assert got["A"]["SOSM-2"] == 32
    assert got["E"]["SOSW-1"] == 2  # the two unpaired 0s are the lowest terms
    assert got["E"]["SOSW-2"] == 2
    assert got["D"]["SOSW-1"] == 1.5 + 2


def test_sos_minus_after_rounds_one_and_two_follows_opengotha() -> None:
    after1 = values(MIXED, 1, ["SOSW-1", "SOSM-1"])
    after2 = values(MIXED, 2, ["SOSW-1", "SOSW-2", "SOSM-1", "SOSM-2"])
    assert after1["A"] == {"SOSW-1": 0, "SOSM-1": 0}
    # After round 2, SOSW-1 is the larger of the two terms (B 1, C 1.5) and SOSW-2 is 0.
    assert after2["A"]["SOSW-1"] == 1.5 and after2["A"]["SOSW-2"] == 0
    # OpenGotha never stores SOSM-1/-2 after rounds 1 and 2: they read 0.
    assert after2["A"]["SOSM-1"] == 0 and after2["A"]["SOSM-2"] == 0


def test_sodos_counts_beaten_opponents_and_half_for_a_jigo() -> None:
    got = values(MIXED, 3, ["SODOSW", "SODOSM"])
    assert got["A"]["SODOSW"] == 2 + 1.5  # beat B (2), both-win against C (1.5); unknown 0
    assert got["C"]["SODOSW"] == 0.5 * 0.5 + 2  # jigo with D (0.5), both-win with A
    assert got["D"]["SODOSW"] == 0.5 * 1.5
    assert got["C"]["SODOSM"] == 0.5 * 29.5 + 32
    assert got["B"]["SODOSW"] == 1 + 1.5  # E's bye point, C's score (by default counts)


def test_sosos_adds_opponents_sos_and_own_start_score_per_round_when_unpaired() -> None:
    got = values(MIXED, 3, ["SOSOSW", "SOSOSM", "SOSM"])
    assert got["A"]["SOSOSW"] == 4.5 + 4.5 + 3.5  # SOSW of B, C, D
    assert got["A"]["SOSOSM"] == got["B"]["SOSM"] + got["C"]["SOSM"] + got["D"]["SOSM"]
    # E: bye and not assigned each add 3 x 28 (own start score times the rounds).
    assert got["E"]["SOSOSM"] == 28 * 3 + got["B"]["SOSM"] + 28 * 3
    assert got["E"]["SOSOSW"] == 4.5


def test_cuss_sums_the_scores_after_each_round() -> None:
    got = values(MIXED, 3, ["CUSSW", "CUSSM"])
    assert got["A"] == {"CUSSW": 1 + 2 + 2, "CUSSM": 31 + 32 + 32}
    assert got["D"] == {"CUSSW": 0.5 * 3, "CUSSM": 29.5 * 3}


def test_a_player_without_game_or_bye_is_listed_last_without_a_place() -> None:
    rows = standings(MIXED, 3)
    assert rows[-1].entrant_id == 6 and rows[-1].place is None
    assert all(r.place is not None for r in rows[:-1])
    assert MIXED.settings.criteria == ("MMS", "SOSM", "SOSOSM")
    assert [r.entrant_id for r in rows[:2]] == [1, 2]  # A and B on 32, A's SOSM higher


def score_after(board: Scoreboard, entrant_id: int, after_round: int) -> tuple[float, float, int]:
    """A player's MMS, wins and start McMahon score after a round (true values)."""
    i = board.index(entrant_id)
    mms2, nbw2 = board.value2("MMS", after_round), board.value2("NBW", after_round)
    return mms2[i] / 2, nbw2[i] / 2, board.smms[i]


def test_scores_before_a_round_are_the_scores_after_the_previous_one() -> None:
    board = Scoreboard(MIXED)
    assert score_after(board, 1, 2) == (32, 2, 30)
    assert score_after(board, 3, 0)[0] == 29


# Handicap: X 1d gives Y 3k two stones in round 1 and loses; Z and W are 3k.
HANDICAP = make(
    [("X", 0), ("Y", -3), ("Z", -3), ("W", -3)],
    [(1, 2, 1, B, 2, False), (1, 3, 4, W), (2, 1, 3, B), (2, 2, 4, W)],
    rounds=2,
)


def test_sosm_is_corrected_by_the_handicap() -> None:
    got = values(HANDICAP, 1, ["MMS", "SOSM", "SOSW"])
    assert got["X"]["MMS"] == 30 and got["Y"]["MMS"] == 28
    assert got["X"]["SOSM"] == 28 + 2  # White gave two stones: + handicap
    assert got["Y"]["SOSM"] == 30 - 2  # Black received them: - handicap
    assert got["X"]["SOSW"] == 1  # SOSW is never corrected


def test_exploits_weigh_opponents_wins_by_the_handicap_gap() -> None:
    got = values(HANDICAP, 2, ["NBW", "EXT", "EXR"])
    # Y (3k) took two stones from X (1d): real -2, natural -3, gap 1 -> x2 of X's 1 win;
    # then an even game with W (3k): gap 0 -> x1 of W's 2 wins.  Only the first was won.
    assert got["Y"] == {"NBW": 1, "EXT": 2 * 1 + 1 * 2, "EXR": 2}
    # Z (3k) played X (1d) even: gap 3 -> x3 of X's 1; and W even: x1 of W's 2 wins.
    assert got["Z"] == {"NBW": 0, "EXT": 3 + 2, "EXR": 0}
    assert got["X"]["EXT"] == 0  # giving fewer stones than the rank gap is no exploit


def test_places_are_shared_by_players_equal_on_every_criterion() -> None:
    ev = make(
        [("Dan", 0), ("Carl", 0), ("Bob", 0), ("Abe", 0)],
        [(1, 1, 2, B), (1, 3, 4, W)],
        rounds=1,
        system=System.SWISS,
    )
    rows = standings(ev, 1, ["NBW"])
    assert [(r.place, ev.entrant(r.entrant_id).family_name) for r in rows] == [
        (1, "Abe"),
        (1, "Dan"),
        (3, "Bob"),
        (3, "Carl"),
    ]
    rows = standings(ev, 1, ["NBW", "RATING"])
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_direct_confrontation_orders_a_tie_by_the_game_between_them() -> None:
    # Zed beat Abe; both end on one win.  By name Abe would come first.
    ev = make(
        [("Zed", 0), ("Abe", 0), ("Rex", 0), ("Sam", 0)],
        [(1, 1, 2, B), (1, 3, 4, B), (2, 3, 1, B), (2, 2, 4, B)],
        rounds=2,
        system=System.SWISS,
    )
    got = values(ev, 2, ["NBW", "DC", "SDC"])
    assert got["Zed"] == {"NBW": 1, "DC": 1, "SDC": 1}
    assert got["Abe"] == {"NBW": 1, "DC": 0, "SDC": 0}
    rows = standings(ev, 2, ["NBW", "DC"])
    names = [ev.entrant(r.entrant_id).family_name for r in rows]
    assert names == ["Rex", "Zed", "Abe", "Sam"]
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_a_cycle_of_wins_leaves_direct_confrontation_undecided() -> None:
    ev = make(
        [("A", 0), ("B", 0), ("C", 0)],
        [(1, 1, 2, B), (2, 2, 3, B), (3, 3, 1, B)],
        rounds=3,
        system=System.SWISS,
        presence={3: (BYE,), 1: (PLAY, BYE), 2: (PLAY, PLAY, BYE)},
        nbw2_bye=0,
    )
    got = values(ev, 3, ["NBW", "DC", "SDC"])
    assert got == {p: {"NBW": 1, "DC": 0, "SDC": 1} for p in "ABC"}
    assert [r.place for r in standings(ev, 3, ["NBW", "DC"])] == [1, 1, 1]


def test_direct_confrontation_ignores_by_default_results_and_uses_later_criteria() -> None:
    # P and Q tie on one win; P's win over Q was by default, so it does not count; the
    # criterion after DC (rating: Q is rated higher) decides DC instead.
    ev = make(
        [("P", 0), ("Q", 0), ("R", 0), ("S", 0)],
        [(1, 1, 2, B, 0, True), (1, 3, 4, B), (2, 2, 4, B), (2, 3, 1, B)],
        rounds=2,
        system=System.SWISS,
    )
    got = values(ev, 2, ["NBW", "DC", "RATING"])
    assert got["P"]["DC"] == 0 and got["Q"]["DC"] == 1
    assert values(ev, 2, ["NBW", "SDC"])["P"]["SDC"] == 0  # not every pair decided


def test_count_not_played_games_as_half_point_changes_only_the_opponents_scores() -> None:
    # A beats B; C has the bye.  Round 2: B beats C by default, A is not assigned.
    ev = make(
        [("A", 0), ("B", 0), ("C", 0)],
        [(1, 2, 1, W), (2, 2, 3, B, 0, True)],
        rounds=2,
        system=System.SWISS,
        presence={3: (BYE,)},
        count_not_played_as_half=True,
    )
    got = values(ev, 2, ["NBW", "SOSW"])
    # Virtual scores: A 1 + 1/2 (not paired), B 0 + 1/2 (by default), C 1/2 + 1/2.
    assert got["A"] == {"NBW": 1, "SOSW": 0.5}
    assert got["B"] == {"NBW": 1, "SOSW": 1.5 + 1}
    assert got["C"]["SOSW"] == 0.5  # bye round adds 0, then B's virtual 1/2
    plain = dataclasses.replace(
        ev, settings=dataclasses.replace(ev.settings, count_not_played_as_half=False)
    )
    assert values(plain, 2, ["SOSW"])["A"]["SOSW"] == 1


def test_both_lose_and_unknown_give_nothing_and_both_win_gives_both_a_win() -> None:
    ev = make(
        [("A", 0), ("B", 0), ("C", 0), ("D", 0), ("E", 0), ("F", 0)],
        [(1, 1, 2, BL), (1, 3, 4, U), (1, 5, 6, BW)],
        rounds=1,
        system=System.SWISS,
    )
    got = values(ev, 1, ["NBW"])
    assert [got[p]["NBW"] for p in "ABCDEF"] == [0, 0, 0, 0, 1, 1]


def test_cup_score_doubles_the_previous_rounds() -> None:
    ev = make(
        [("A", 0), ("B", 0)],
        [(1, 1, 2, B), (2, 1, 2, W), (3, 1, 2, B)],
        rounds=3,
        system=System.SWISS,
    )
    assert [values(ev, r, ["CPS"])["A"]["CPS"] for r in (1, 2, 3)] == [1, 2, 5]


def test_strasbourg_score_rewards_a_top_group_player_who_won_every_game() -> None:
    # Bar 4d: a 4d starts on 33; winning rounds 1 and 2 of 3 triggers both bonuses.
    ev = make([("T", 3), ("U", 3)], [(1, 1, 2, B), (2, 1, 2, B), (3, 1, 2, W)], rounds=3)
    got = values(ev, 3, ["MMS", "STS", "SOSTS"])
    assert got["T"]["MMS"] == 35 and got["T"]["STS"] == 35 + 2 + 2
    assert got["U"]["SOSTS"] == 3 * got["T"]["STS"]


def test_rank_rating_and_category() -> None:
    ev = make(
        [("A", 2), ("B", -3), ("C", -8)],
        [(1, 1, 2, B)],
        rounds=1,
        system=System.SWISS_CAT,
    )
    got = values(ev, 1, ["CAT", "RANK", "RATING"])
    assert got["A"] == {"CAT": 1, "RANK": 2, "RATING": 2010}
    assert got["B"]["CAT"] == 2 and got["C"]["CAT"] == 3
    rows = standings(ev, 1, ["CAT", "NBW"])
    assert [ev.entrant(r.entrant_id).family_name for r in rows] == ["A", "B", "C"]


def test_before_the_first_round_mms_is_the_start_score() -> None:
    got = values(MIXED, 0, ["MMS", "SOSM", "NBW"])
    assert got["A"] == {"MMS": 30, "SOSM": 0, "NBW": 0}
    assert all(r.place is None for r in standings(MIXED, 0))


def test_criterion_names_are_read_in_any_case_and_unknown_ones_refused() -> None:
    assert criterion("sosm-1") == "SOSM-1" and criterion("Rating") == "RATING"
    with pytest.raises(ValueError, match="unknown placement criterion 'SOS'"):
        criterion("SOS")


def test_a_game_naming_an_unknown_entrant_or_two_games_in_a_round_is_refused() -> None:
    with pytest.raises(ValueError, match="entrant 9, who is not entered"):
        Scoreboard(make([("A", 0), ("B", 0)], [(1, 1, 9, B)], rounds=1))
    with pytest.raises(ValueError, match="has two games"):
        Scoreboard(make([("A", 0), ("B", 0), ("C", 0)], [(1, 1, 2, B), (1, 1, 3, B)], rounds=1))
    with pytest.raises(ValueError, match="after_round 4"):
        standings(MIXED, 4)


def test_beating_one_member_of_a_cycle_counts_as_beating_the_whole_cycle() -> None:
    # From a real Swiss (semi-final ACN 2020): six players tied on two wins.  G, I and P beat
    # one another in a cycle; D beat G, so D ranks above all three, not just above G.
    from games.tournament.engine.standings import _confrontation_ranks

    names = ["C", "H", "D", "P", "G", "I"]
    later = [15, 14, 11, 16, 15, 13]  # SOSW, the criterion after DC
    wins = {("C", "D"), ("H", "D"), ("D", "G"), ("G", "I"), ("I", "P"), ("P", "G"), ("H", "I")}
    beats = [[(a, b) in wins for b in names] for a in names]
    dc = dict(zip(names, _confrontation_ranks(later, beats), strict=True))
    assert dc == {"C": 5, "H": 4, "D": 3, "P": 2, "G": 1, "I": 0}


def chain_of_wins(n: int) -> Event:
    """``n`` players (even ``n``) each on one win: 1 beats 2, 2 beats 3, ... n-1 beats n,
    in two rounds; n beats 1 by default, which DC ignores, so the wins form one chain."""
    names = [(f"P{k:04d}", 0) for k in range(1, n + 1)]
    games: list[tuple[int, int, int, Outcome] | tuple[int, int, int, Outcome, int, bool]] = []
    games += [(1, k, k + 1, B) for k in range(1, n, 2)]
    games += [(2, k, k + 1, B) for k in range(2, n, 2)]
    games.append((2, n, 1, B, 0, True))
    return make(names, games, rounds=2, system=System.SWISS)


def test_direct_confrontation_ranks_a_chain_of_1100_tied_players_without_recursion() -> None:
    # A chain deeper than Python's recursion limit (1,000): the search is iterative.
    ev = chain_of_wins(1100)
    rows = standings(ev, 2, ["NBW", "DC"])
    names = [ev.entrant(r.entrant_id).family_name for r in rows]
    assert names == [f"P{k:04d}" for k in range(1, 1101)]
    assert [r.place for r in rows] == list(range(1, 1101))
    assert rows[0].values["DC"] == 1099 and rows[-1].values["DC"] == 0


def test_a_cycle_of_1100_wins_is_one_component() -> None:
    from games.tournament.engine.standings import _strong_components

    n = 1100
    beats = [[b == (a + 1) % n for b in range(n)] for a in range(n)]
    assert set(_strong_components(beats)) == {0}
    chain = [[b == a + 1 for b in range(n)] for a in range(n)]
    assert len(set(_strong_components(chain))) == n


def test_strasbourg_bonus_in_a_two_round_event() -> None:
    # OpenGotha's test reads the round before the first as 0, so only the semi-final bonus
    # can apply when there are two rounds.
    ev = make([("T", 3), ("U", 3)], [(1, 1, 2, B), (2, 1, 2, W)], rounds=2)
    assert values(ev, 2, ["STS"])["T"]["STS"] == 34 + 2
