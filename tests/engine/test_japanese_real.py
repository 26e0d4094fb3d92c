"""Japanese counting on real finished games with the players' own dead stones,
and the other presets' counts on the project's whole real-game set, unchanged."""

from __future__ import annotations

import hashlib
from pathlib import Path

from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import dead_from_markup, score

SGF = Path(__file__).parents[1] / "data" / "sgf"
MARKED = sorted((SGF / "marked").glob("*.sgf"))
ALL = MARKED + sorted((SGF / "real").glob("*.sgf"))


def agreed_result(text: str | None) -> str | None:
    """``W+7.50`` -> ``W+7.5``; None unless the result is a score."""
    if not text or "+" not in text or not text[2:3].isdigit():
        return None
    return text.replace(".50", ".5").replace(".00", "")


def test_every_japanese_kgs_game_counts_to_the_result_the_players_agreed() -> None:
    japanese = get_rules("japanese")
    checked = 0
    for path in MARKED:
        record = parse_record(path.read_bytes())
        agreed = agreed_result(record.info.get("RE"))
        if agreed is None or "japanese" not in (record.info.get("RU") or "").lower():
            continue
        rep = replay(record, japanese, strict=False)
        dead = dead_from_markup(rep.board, record.territory_black, record.territory_white)
        counted = score(rep, dead=dead, komi=record.komi)
        assert counted.result.to_sgf() == agreed, path.name
        checked += 1
    assert checked == 18


# A digest of the area, WGA and fill-in counts of every real record, taken
# before Japanese counting changed (issue 27): those presets must not move.
OTHER_PRESETS_DIGEST = "4bc5f3e4db11574af0f4ac3a32a46c5438660c7b16960f0d71affd6e6ddd7baa"
KEYS = (
    "margin",
    "black_area",
    "white_area",
    "black_territory",
    "white_territory",
    "dame",
    "seki_points",
    "error",
)


def test_the_other_presets_count_every_real_record_as_before() -> None:
    digest = hashlib.sha256()
    for name in ("chinese", "aga", "nz", "wga", "wmsg"):
        rules = get_rules(name)
        for path in ALL:
            record = parse_record(path.read_bytes())
            rep = replay(record, rules, strict=False)
            dead = dead_from_markup(rep.board, record.territory_black, record.territory_white)
            try:
                counted: dict[str, object] = score(rep, dead=dead, komi=record.komi).to_dict()
            except ValueError as e:
                counted = {"error": type(e).__name__}
            row = sorted((k, counted.get(k)) for k in KEYS)
            digest.update(repr((name, path.name, row)).encode())
    assert digest.hexdigest() == OTHER_PRESETS_DIGEST
