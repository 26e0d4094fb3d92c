"""The fast reading of a record (moves in bulk, comments and time stamps skipped, the
rest read from where the moves stop) gives the same record, or the same error at the
same place, as reading the whole file the general way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.engine import record, sgf
from games.engine.sgf import grammar

DATA = Path(__file__).resolve().parents[1] / "data" / "sgf"
# The sample of real records (every third, every fourth) is taken from these two
# sets only, so that adding records elsewhere does not change what is sampled.
REAL = sorted([*DATA.glob("marked/*.sgf"), *DATA.glob("real/*.sgf")])


def general(text: str) -> record.GameRecord | str:
    try:
        built = record._build(sgf.parse_text(text), [])
    except sgf.SgfError as e:
        return f"{e} @ {e.line}:{e.column}"
    assert built is not None
    return built


def fast(text: str) -> record.GameRecord | str:
    try:
        return record._parse_tree_text(text)
    except sgf.SgfError as e:
        return f"{e} @ {e.line}:{e.column}"


def text_of(path: Path) -> str:
    return next(iter(sgf.decodings(path.read_bytes()))).text


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_real_record_reads_the_same_both_ways(path: Path) -> None:
    text = text_of(path)
    assert fast(text) == general(text)


GAME = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[cg];B[gc];W[ge])"


@pytest.mark.parametrize(
    "text",
    [
        GAME,
        GAME.replace(";W[cc]", ";W[cc]C[a \\] b \\\\]BL[30.5]OB[3]"),
        GAME.replace(";W[cc]", ";C[first]BL[1]W[cc]WL[9]"),
        GAME.replace(";W[cc]", ";W[cc]C[OB[ee] B[aa\\] W[bb\\]]"),  # moves in a comment
        GAME.replace(";W[cc]", ";W[cc]C[line\\\nbreak][two values]"),
        GAME.replace(";W[cc]", ";W[cc]B[dd]"),  # two moves in a node: an error
        GAME.replace(";W[cc]", ";W[cc]C[x]B[dd]"),
        GAME.replace(";W[cc]", ";W[cc]AB[dd]"),  # set-up beside a move
        GAME.replace(";W[cc]", ";W[cc];AB[dd][de]AW[ff]"),
        GAME.replace(";W[cc]", ";W[cc];AB[ee]"),  # set up on a stone: replayed as given
        GAME.replace(";W[cc]", ";W[cc]C[unclosed"),
        GAME.replace(";W[cc]", ";W[zz]C[off the board]"),
        GAME.replace(";W[cc]", ";W[cc]LB[dd:A]"),
        GAME.replace(")", ";TB[aa][ab]TW[ii])"),
        GAME.replace(")", ";TB[aa:cc]TW[ii]C[end])"),
        GAME.replace(")", ";TB[zz])"),
        GAME.replace(";W[ge])", "(;W[ge];B[hh])(;W[hh]C[other])(;W[aa]))"),
        GAME.replace(";W[ge])", "(;W[ge]C[x];B[hh](;W[ii])(;W[jj]))(;W[hh]))"),
        GAME.replace(";W[ge])", "(;W[ge])(;W[hh]XX[unclosed))"),
        GAME.replace(";W[ge])", "(;W[ge]))"),
        GAME + "(;GM[1]SZ[9];B[aa])",  # a second game
        GAME + "  trailing text",
        GAME.replace(")", ""),  # no end
        GAME.replace(";B[gg]", ";b[gg]"),
        GAME.replace(";B[gg]", ";B[gg]\n;\n"),  # an empty node
        GAME.replace("KM[6.5]", "KM[6.5]AB[dd][ff]PL[W]"),
        GAME.replace("KM[6.5]", "KM[6.5]HA[2]").replace(";B[ee]", ";AB[cc][gg];W[ee]"),
        # Moves beside marks and time left (read from the move tables), or not.
        GAME.replace(";W[cc]", ";W[cc]CR[cc]WL[30]").replace(";B[gg]", ";CR[aa]B[gg]TB[aa]"),
        GAME.replace(";W[cc]", ";W[cc]CR[cc]B[dd]"),
        GAME.replace(";W[cc]", ";W[ cc]CR[cc]"),
        GAME.replace(";W[cc]", ";W[cc]CR[cc]AB[dd]"),
        GAME.replace(";W[cc]", ";W[cc][dd]CR[cc]"),
        # Set-up positions: the root and a last node read in bulk, or left to the tokens.
        "(;GM[1]SZ[9]AB[aa][bb]AW[ab][ba];TB[ii])",
        "(;GM[1]SZ[9]AB[cc] [dd]\n[ee]AW[ff];C[no dead stones])",
        "(;GM[1]SZ[9]AB[cc]AB[dd]AW[ff]TB[aa]TW[ab];TW[zz])",
        "(;GM[1]SZ[9]AB[cc]x[dd];TB[aa])",
        "(;GM[1]SZ[9]AB[cc]Ab[dd];TB[aa])",
        "(;GM[1]SZ[9]AB[cc]C[a\\]b];TB[aa])",
        "(;GM[1]SZ[9]AB[aa]AW[ab][ba];B[ee])",  # a chain with no liberty
        "(;GM[1]SZ[40]AB[aa];C[x])",
        "(;GM[1]SZ[9]AB[aa]AW[aa];C[x])",  # set up twice
        "(;GM[1]SZ[9]C[a;b)c(]AB[aa];C[x;y)z];TB[bb])",
        "(;GM[1]SZ[9]AB[aa];TB[bb])(;GM[1]SZ[9])",
        "(;GM[1]SZ[9]AB[aa];TB[bb](;W[cc]))",
        "(;GM[1]SZ[9]AB[aa];TB[bb]",
        "(;GM[1]SZ[9]AB[aa][;TB[bb])",
        "(;;GM[1]SZ[9]AB[aa];TB[bb])",
    ],
)
def test_odd_and_wrong_records_read_the_same_both_ways(text: str) -> None:
    assert fast(text) == general(text)


def test_random_annotations_of_real_records_read_the_same_both_ways() -> None:
    rng = random.Random(28)
    extras = ["C[note]", "BL[12.3]", "WL[5]OB[1]", "C[a\\]b]", "N[name]", "TB[aa]", "LB[aa:x]"]
    for path in REAL[::4]:
        text = text_of(path)
        pieces = text.split(";")
        for k in range(2, len(pieces)):
            if rng.random() < 0.3:
                pieces[k] = pieces[k].rstrip() + rng.choice(extras) + "\n"
        mutated = ";".join(pieces)
        assert fast(mutated) == general(mutated), path.name


@pytest.mark.parametrize(
    "text",
    [*(text_of(p) for p in REAL[::3]), "(;A[x\\]y]B[1][2] C [z]\n;B[aa])", "(;AB[aa]x;B[aa])"],
)
def test_the_roots_end_is_found_in_one_match_where_the_tokens_find_it(text: str) -> None:
    start = grammar._START.search(text)
    assert start is not None
    found = record._ROOT_PROPERTIES.match(text, start.end())
    assert found is not None and found.end() == grammar.node_end(text, start.end())
