"""Result tables (docs/promotions.md §2.4, the Canadian Go Association's 5-round table)."""

from __future__ import annotations

import pytest

from ratings.promotion.engine import (
    CGA_TABLE,
    BandRule,
    PolicyError,
    PromotionPolicy,
    ResultTable,
    TableRow,
    evaluate,
)
from tests.ratings.promotion.engine.helpers import event, history, r

# The CGA table as published (docs/promotions.md §2.4), one line per row ("-" is "–").
PRINTED = """
25K     | 25K | 23K | 20K | 19K | 18K
24K     | -   | 23K | 20K | 19K | 18K
23K,22K | -   | 21K | 20K | 19K | 18K
21K     | -   | -   | 20K | 19K | 18K
20K     | -   | 18K | 15K | 15K | 15K
19K     | -   | 17K | 15K | 15K | 14K
18K     | -   | 16K | 15K | 14K | 13K
17K     | -   | -   | 14K | 13K | 12K
16K     | -   | -   | 13K | 12K | 11K
15K     | -   | 13K | 10K | 10K | 10K
14K     | -   | 12K | 10K | 10K | 9K
13K     | -   | 11K | 10K | 9K  | 8K
12K,11K | -   | -   | 10K | 9K  | 8K
10K     | -   | -   | 9K  | 8K  | 7K
"""


def printed_cells() -> list[tuple[str, int, str | None]]:
    cells = []
    for line in PRINTED.strip().splitlines():
        entries, *row = (part.strip() for part in line.split("|"))
        for entry in entries.split(","):
            for wins, cell in enumerate(row, start=1):
                cells.append((entry.lower(), wins, None if cell == "-" else cell.lower()))
    for n in (9, 8, 7, 6):  # "9K … 6K | – | – | 1 rank up | 2 ranks up | 3 ranks up"
        for wins, up in ((1, None), (2, None), (3, 1), (4, 2), (5, 3)):
            cells.append((f"{n}k", wins, None if up is None else f"{n - up}k"))
    return cells


@pytest.mark.parametrize(("entry", "wins", "certificate"), printed_cells())
def test_the_cga_table_is_encoded_cell_for_cell(
    entry: str, wins: int, certificate: str | None
) -> None:
    got = ResultTable().certificate(r(entry), wins)
    assert got == (None if certificate is None else r(certificate))


def test_the_cga_table_has_one_row_per_entry_rank_from_25k_to_6k() -> None:
    assert [str(row.entry) for row in CGA_TABLE] == [f"{n}k" for n in range(25, 5, -1)]
    assert all(len(row.cells) == 5 for row in CGA_TABLE)


@pytest.mark.parametrize("entry", ["26k", "30k", "5k", "1k", "1d", "6d"])
def test_entry_ranks_outside_the_stored_table_get_no_certificate(entry: str) -> None:
    assert all(ResultTable().certificate(r(entry), wins) is None for wins in range(1, 6))


def test_no_wins_get_no_certificate() -> None:
    assert ResultTable().certificate(r("25k"), 0) is None


TABLE = BandRule((ResultTable(),))
UNCAPPED = PromotionPolicy(kyu=TABLE, low_dan=TABLE, high_dan=TABLE, max_grades_per_event=38)
CAPPED = PromotionPolicy(kyu=TABLE, low_dan=TABLE, high_dan=TABLE)
LOW = 100.0  # far below any rating threshold


def test_three_wins_at_20k_give_a_15k_certificate() -> None:
    got = evaluate(history("20k", event(1, LOW, results="WWWLL")), UNCAPPED)
    assert got is not None
    assert (got.new_rank, got.criterion) == (r("15k"), "result_table")
    assert got.evidence.events == ("e1",)
    assert "entered at 20k, 3 win(s) in 5 rounds: certificate 15k" in got.evidence.detail


def test_the_grade_cap_still_applies_to_a_table_certificate() -> None:
    got = evaluate(history("20k", event(1, LOW, results="WWWLL")), CAPPED)
    assert got is not None and got.new_rank == r("18k")


def test_a_gap_in_the_table_promotes_no_one() -> None:
    assert evaluate(history("21k", event(1, LOW, results="WWLLL")), UNCAPPED) is None


def test_a_certificate_at_the_entry_rank_is_no_promotion() -> None:
    assert evaluate(history("25k", event(1, LOW, results="WLLLL")), UNCAPPED) is None


def test_the_9k_to_6k_rows_count_ranks_up_from_the_entry() -> None:
    got = evaluate(history("6k", event(1, LOW, results="WWWWW")), UNCAPPED)
    assert got is not None and got.new_rank == r("3k")
    assert evaluate(history("9k", event(1, LOW, results="WWLLL")), UNCAPPED) is None


def test_a_jigo_is_half_a_win_rounded_down() -> None:
    got = evaluate(history("20k", event(1, LOW, results="WWJLL")), UNCAPPED)
    assert got is not None and got.new_rank == r("18k")  # 2.5 wins read as 2


def test_an_event_of_another_length_is_not_read_from_the_table() -> None:
    assert evaluate(history("20k", event(1, LOW, results="WWWL")), UNCAPPED) is None
    assert evaluate(history("20k", event(1, LOW, results="WWWLLL")), UNCAPPED) is None


def test_only_the_latest_event_is_read() -> None:
    h = history("20k", event(1, LOW, results="WWWLL"), event(2, LOW, results="LLLLL"))
    assert evaluate(h, UNCAPPED) is None


def test_a_custom_table_with_another_number_of_rounds() -> None:
    table = ResultTable(table=(TableRow(r("10k"), (None, None, 2)),), rounds=3)
    policy = PromotionPolicy(kyu=BandRule((table,)), max_grades_per_event=5)
    got = evaluate(history("10k", event(1, LOW, results="WWW")), policy)
    assert got is not None and got.new_rank == r("8k")


def test_a_row_must_have_one_cell_per_number_of_wins() -> None:
    with pytest.raises(
        PolicyError,
        match=r"^result_table\.table\[0\]\.cells: must have one cell per number of wins, 1 to 5, not 4$",
    ):
        ResultTable(table=(TableRow(r("10k"), (None, None, None, None)),))


def test_a_table_cannot_demote() -> None:
    with pytest.raises(
        PolicyError, match=r"^result_table\.table\[0\]\.cells\[0\]: 12k is below the entry rank 10k"
    ):
        ResultTable(table=(TableRow(r("10k"), (r("12k"), None, None, None, None)),))


def test_a_table_cannot_award_9p_plus() -> None:
    with pytest.raises(PolicyError, match=r"9p\+ is awarded by hand"):
        ResultTable(table=(TableRow(r("9d"), (r("9p+"), None, None, None, None)),))
    with pytest.raises(
        PolicyError, match=r"^result_table\.table\[0\]\.cells\[0\]: 8d up 2 is beyond 9d$"
    ):
        ResultTable(table=(TableRow(r("8d"), (2, None, None, None, None)),))
