"""SGF game records: from an SGF file to a ``GameRecord`` and back.

``parse_record`` reads the first game's main line; ``write_record`` writes FF[4].
Which properties are read and how (KM quirks, HA[1], TB/TW, set-up nodes) and what
is written: docs/formats.md, "Reading an SGF file" and "Writing an SGF file".
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Sequence
from decimal import Decimal
from functools import cache

from . import sgf
from .board import Board
from .coords import is_sgf_pass, point_to_gtp, point_to_sgf
from .grid import flood
from .properties import (
    MAX_LISTED_POINTS,
    Budget,
    format_decimal,
    read_handicap,
    read_komi,
    read_move,
    read_player,
    read_points,
    read_setup,
    read_size,
)
from .result import Result
from .sgf import Node, SgfError, grammar
from .types import Color, GameRecord, Move, Point, Setup

# Root properties kept as text in ``GameRecord.info``.
INFO_PROPERTIES = (
    "PB",
    "PW",
    "BR",
    "WR",
    "BT",
    "WT",
    "RE",
    "RU",
    "DT",
    "EV",
    "RO",
    "PC",
    "TM",
    "OT",
    "GC",
    "GN",
    "AN",
    "CP",
    "SO",
    "US",
    "ON",
    "C",
    "AP",
    "CA",
)
# Written by ``write_record`` in this order after the fixed properties.
_WRITE_FIRST = ("RU", "RE", "PB", "PW", "BR", "WR", "DT")
_NOT_WRITTEN = frozenset({"AP", "CA"})  # describe the original file, not ours


# The fast path: the nodes after the root that are plain moves (``;B[dd]``, ``;W[]``),
# read in bulk; then moves with properties the record does not keep (comments, node
# names, time left: what KGS, OGS and Fox write on every move), read by one match each;
# whatever follows (territory markup, set-up nodes, variations) is read the general
# way from there on.
_MOVE_RUN = re.compile(r"(?:\s*;\s*[BW]\s*\[[a-z]{0,2}\](?=\s*[;()]))*")
_MOVE_PAIR = re.compile(r"([BW])\s*\[([a-z]{0,2})\]")
_ONE_TREE_END = re.compile(r"\s*\)\s*+(?!\()")  # possessive: no backtracking into the spaces
_VALUE = r"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"  # escapes (``\]``, ``\\``) included
_NODE_BOUNDARY = re.compile(r"\s*[;()]")
_SEMICOLON = re.compile(r"\s*;")
_SET_UP = frozenset({"AB", "AW", "AE"})
# Where the root's properties end, as ``grammar.node_end`` finds it token by token: in one
# match (a set-up position's root lists hundreds of values).
# One path per value (the identifier optional), not two alternatives: twice as fast.
_ROOT_PROPERTIES = re.compile(rf"(?:\s*(?:[A-Za-z]+\s*)?{_VALUE})*+", re.DOTALL)
_UNREAD = rf"(?:(?:C|N|BL|WL|OB|OW)\s*(?:{_VALUE}\s*)+)"
_ANNOTATED_MOVE = re.compile(
    rf"\s*;\s*{_UNREAD}*([BW])\s*\[([a-z]{{0,2}})\]\s*{_UNREAD}*(?=[;()])", re.DOTALL
)


def parse_record(data: str | bytes, *, max_bytes: int = sgf.MAX_BYTES) -> GameRecord:
    """Read the first game of an SGF file.  Raises ``SgfError`` (a ValueError).

    One game tree of plain move nodes (the common case) is read in bulk, anything
    else the general way; both give the same record, or the error with its place.
    """
    return read_text_and_record(data, max_bytes=max_bytes)[1]


def read_text_and_record(
    data: str | bytes, *, max_bytes: int = sgf.MAX_BYTES
) -> tuple[str, GameRecord]:
    """``parse_record``, with the text the bytes were read as (to keep the file)."""
    error: SgfError | None = None
    for decoded in sgf.decodings(data, max_bytes=max_bytes):
        notes: tuple[str, ...] = (decoded.warning,) if decoded.warning else ()
        if grammar._START.search(decoded.text) is None:  # the reader found "(" and a property
            notes += ("the first node has no ';': read as if it had one",)
        try:
            record = _parse_tree_text(decoded.text, _Found(decoded.charset, notes))
        except SgfError as e:
            error = error or e
            continue
        return decoded.text, record
    assert error is not None  # the last reading always decodes
    raise error


@dataclasses.dataclass(frozen=True, slots=True)
class _Found:
    """What the reading of the bytes found before the tree: the charset, the notes."""

    charset: str | None = None
    notes: tuple[str, ...] = ()


def _parse_tree_text(text: str, found: _Found = _Found()) -> GameRecord:
    split = _split_plain_moves(text)
    if split is not None:
        root, pairs, tail = split
        try:
            trees = sgf.parse_text(root) if isinstance(root, str) else [sgf.GameTree([root])]
            record = _build(trees, pairs, tail, found)
        except SgfError:
            # An error in the tail: read it all again, for the error's true place.
            if not tail:
                raise
            record = None
        if record is not None:
            return record
    record = _build(sgf.parse_text(text), [], (), found)
    assert record is not None  # the general path raises rather than give up
    return record


def _split_plain_moves(
    text: str,
) -> tuple[str | Node, list[tuple[str, str]], list[Node]] | None:
    """The root node, or the text up to its end (closed with ``)``, so that
    offsets, lines and columns are unchanged) for the parser to read; the
    (colour, value) pairs of the move nodes after it; and the main line of
    what follows them (``None``: read it all the general way)."""
    start = grammar._START.search(text)
    if start is None:
        return None
    src = grammar._Source(text)
    root: str | Node
    read = grammar.read_node(src, start.end() - 1)
    if read is not None:
        root, root_end = read
    else:
        root_end = _ROOT_PROPERTIES.match(text, start.end()).end()  # type: ignore[union-attr]
        if _NODE_BOUNDARY.match(text, root_end) is None:  # a root the tokens do not cover
            return None
        root = text[:root_end] + ")"
    pairs: list[tuple[str, str]] = []
    run, plain, annotated = _MOVE_RUN.match, _MOVE_PAIR.findall, _ANNOTATED_MOVE.match
    run_end = root_end
    while True:
        # Plain moves in bulk, then one with a comment or a time stamp, and again: a
        # record with a comment now and then goes back to the bulk reading after it.
        run_start, run_end = run_end, run(text, run_end).end()  # type: ignore[union-attr]
        if run_end > run_start:
            pairs += plain(text, run_start, run_end)
        m = annotated(text, run_end)
        if m is None:
            break
        pairs.append((m[1], m[2]))
        run_end = m.end()
    if len(pairs) >= sgf.MAX_NODES:  # the root is a node too
        return None
    tail: list[Node] = []
    if _ONE_TREE_END.match(text, run_end) is None:
        room = sgf.MAX_NODES - 1 - len(pairs)
        last = _last_node(src, run_end) if room >= 2 else None
        if last is not None:
            tail = [last]
        else:
            tail = _tail(text[run_end:], room)  # type: ignore[assignment]
            if tail is None:
                return None
    return root, pairs, tail


def _last_node(src: grammar._Source, pos: int) -> Node | None:
    """The game's last node when it is all that is left (the final node of a record
    with its territory markup, or a comment): read in bulk, or ``None``."""
    text = src.text
    semicolon = _SEMICOLON.match(text, pos)
    if semicolon is None:
        return None
    read = grammar.read_node(src, semicolon.end() - 1)
    if read is None or _ONE_TREE_END.match(text, read[1]) is None:
        return None
    return read[0]


def _tail(rest: str, room: int) -> list[Node] | None:
    """The main line of the rest of the first game tree (from a node's ``;`` or a
    variation's ``(`` to its ``)``), read under an empty node; ``None`` when the
    general reading must decide (an error to place, more games, too many nodes)."""
    try:  # the parser's own node limit: a hostile tail stops as soon as it is too long
        trees = sgf.parse_text("(;" + rest, max_nodes=room)
    except SgfError:
        return None
    if len(trees) != 1:
        return None
    return trees[0].main_line()[1:]


@cache
def _move_table(size: int, height: int | None) -> tuple[dict[str, Move], dict[str, Move]]:
    """SGF move values to ``Move`` (shared: moves are immutable) for Black and White.

    Holds every point of the board, the pass ``""`` and, up to 19x19, ``"tt"``.
    """
    tables: tuple[dict[str, Move], dict[str, Move]] = ({}, {})
    for table, color in zip(tables, (Color.BLACK, Color.WHITE), strict=True):
        for y in range(size if height is None else height):
            for x in range(size):
                table[point_to_sgf((x, y))] = Move(color, (x, y))
        table[""] = Move(color, None)
        if is_sgf_pass("tt", size, height):
            table["tt"] = Move(color, None)
    return tables


def _build(
    trees: list[sgf.GameTree],
    pairs: list[tuple[str, str]],
    tail: Sequence[Node] = (),
    found: _Found = _Found(),
) -> GameRecord | None:
    """The record of ``trees[0]``'s main line followed by the moves ``pairs``, then the
    nodes ``tail``.

    ``None`` when a pair is not a move on the board: the caller then reads
    the whole file the general way, which names the place of the error.
    """
    warnings: list[str] = []
    if len(trees) > 1:
        warnings.append(f"the file holds {len(trees)} games; only the first is read")
    nodes = trees[0].main_line()
    root = nodes[0]

    gm = root.get("GM")
    if gm is not None and gm.strip() != "1":
        raise root.error("GM", f"GM[{gm}] is not a game of Go (GM[1])")
    size, height = read_size(root)
    props = root.properties
    info = {k: props[k][0] for k in INFO_PROPERTIES if k in props}
    komi = read_komi(root, warnings)
    handicap = read_handicap(root, size, height, warnings)
    first_player = read_player(root, warnings)
    if handicap == 1:
        handicap = 0
        if first_player is None:
            first_player = Color.BLACK
        if "KM" not in root:
            komi = Decimal(0)
        warnings.append(
            "HA[1] is not a real handicap: read as no handicap stones, Black first, "
            f"komi {format_decimal(komi) if komi is not None else 'unknown'}"
        )

    budget = Budget(MAX_LISTED_POINTS)
    setup = read_setup(root, size, height, budget)
    # Set-up nodes before the first move (Fox, Tygem and some editors put the
    # handicap stones in the second node): checked like the root's.
    opening: list[tuple[Node, Setup]] = [(root, setup)] if setup else []
    actions: list[Move | Setup] = []
    root_move = read_move(root, size, height)
    if root_move is not None:
        actions.append(root_move)
    moved = root_move is not None
    black_moves, white_moves = _move_table(size, height)
    if pairs:  # the fast path: the root, then these (its nodes[1:] is empty)
        tables = {"B": black_moves, "W": white_moves}
        for color, value in pairs:
            plain = tables[color].get(value)
            if plain is None:
                return None
            actions.append(plain)
        moved = True
    for node in [*nodes[1:], *tail]:
        props = node.properties
        # The common case: a move with nothing else, or with properties a record does
        # not keep (marks, comments, time left); a set-up, or both colours, the long way.
        if len(props) == 1 or props.keys().isdisjoint(_SET_UP):
            values = props.get("B")
            table = black_moves
            if values is None:
                values = props.get("W")
                table = white_moves
            elif "W" in props:
                values = None
            if values is not None and len(values) == 1:
                plain = table.get(values[0])
                if plain is not None:
                    actions.append(plain)
                    moved = True
                    continue
        node_setup = read_setup(node, size, height, budget)
        if node_setup:
            if not moved:
                opening.append((node, node_setup))
            actions.append(node_setup)
        move = read_move(node, size, height)
        if move is not None:
            actions.append(move)
            moved = True
    placed = _start_position(opening, size, height)
    if handicap >= 2 and placed and placed != handicap:
        warnings.append(f"HA[{handicap}] but {placed} black stones are set up")
    if handicap >= 2 and not placed and _first_mover(actions) is Color.WHITE:
        warnings.append(
            f"HA[{handicap}] but no handicap stones in the record: White moves first, "
            "as the record does, and the count lacks the handicap stones"
        )
    if not handicap and "HA" not in root and _white_after_black_setup(opening, actions):
        handicap = placed
        warnings.append(f"no HA: the {placed} black set-up stones are read as the handicap")

    # A move read in bulk has no TB/TW.
    last = tail[-1] if tail else nodes[-1] if not pairs else Node()
    return GameRecord(
        size=size,
        height=height,
        komi=komi,
        handicap=handicap,
        setup=setup,
        actions=tuple(actions),
        first_player=first_player,
        info=info,
        territory_black=read_points(last, "TB", size, height, budget),
        territory_white=read_points(last, "TW", size, height, budget),
        warnings=(*found.notes, *warnings),
        charset=found.charset,
    )


def _start_position(opening: list[tuple[Node, Setup]], size: int, height: int | None = None) -> int:
    """How many black stones are set up before the first move; a chain without a
    liberty is refused (as sgfmill does), naming the node that last placed a stone of it.

    The position is built once: a file may hold thousands of set-up nodes.
    """
    if not opening:
        return 0
    rows = size if height is None else height
    if len(opening) == 1:  # one node: no point is set up twice in it (read_setup)
        only = opening[0][1]
        black: Collection[Point] = only.black
        white: Collection[Point] = only.white
        if _all_chains_breathe(black, white, size, rows):  # the common case
            return len(black)
        stones = dict.fromkeys(black, Color.BLACK)
        stones.update(dict.fromkeys(white, Color.WHITE))
    else:
        stones = {}
        for _, setup in opening:
            stones.update(dict.fromkeys(setup.black, Color.BLACK))
            stones.update(dict.fromkeys(setup.white, Color.WHITE))
            for p in setup.empty:
                stones.pop(p, None)
        black = [p for p, color in stones.items() if color is Color.BLACK]
        white = [p for p, color in stones.items() if color is Color.WHITE]
        if _all_chains_breathe(black, white, size, rows):  # the common case
            return len(black)
    placed: dict[Point, tuple[Color, Node]] = {}
    for node, setup in opening:
        for points, color in ((setup.black, Color.BLACK), (setup.white, Color.WHITE)):
            for p in points:
                placed[p] = (color, node)
        for p in setup.empty:
            placed.pop(p, None)
    board = Board(size, height)
    board.place_setup(
        Setup(
            black=frozenset(p for p, c in stones.items() if c is Color.BLACK),
            white=frozenset(p for p, c in stones.items() if c is Color.WHITE),
        )
    )
    for point in sorted(placed, key=lambda q: (q[1], q[0])):
        if board.liberties(point) == 0:
            color, node = placed[point]
            ident = "AB" if color is Color.BLACK else "AW"
            raise node.error(
                ident if ident in node else None,
                f"the set-up {color.name.lower()} chain at {point_to_gtp(point, size, height)} "
                f"({point_to_sgf(point)}) has no liberty",
            )
    return [color for color, _ in placed.values()].count(Color.BLACK)


@cache
def _point_bits(size: int, height: int) -> dict[Point, int]:
    """Each point's bit on a bit board (``y*size+x``)."""
    return {(x, y): 1 << (y * size + x) for y in range(height) for x in range(size)}


def _all_chains_breathe(
    black_points: Iterable[Point], white_points: Iterable[Point], size: int, height: int
) -> bool:
    """Whether every chain of a set-up position has a liberty, on bit boards: each
    colour's stones next to an empty point grow through their own colour until
    nothing changes (no board built)."""
    look = _point_bits(size, height).__getitem__
    # Distinct powers of two: their sum is their union.
    black = sum(map(look, black_points))
    white = sum(map(look, white_points))
    empty = ((1 << (size * height)) - 1) ^ black ^ white
    return all(flood(empty, own, size, height) == own for own in (black, white))


def _white_after_black_setup(
    opening: list[tuple[Node, Setup]], actions: list[Move | Setup]
) -> bool:
    """Two or more black set-up stones, no white ones, and White moves first."""
    if not opening or any(s.white for _, s in opening):
        return False
    if sum(len(s.black) for _, s in opening) < 2:
        return False
    return _first_mover(actions) is Color.WHITE


def _first_mover(actions: list[Move | Setup]) -> Color | None:
    first = next((a for a in actions if isinstance(a, Move)), None)
    return None if first is None else first.color


# --------------------------------------------------------------------------- writing


def write_record(
    record: GameRecord,
    *,
    result: str | Result | None = None,
    rules: str | None = None,
    application: str = "goref",
) -> str:
    """Write ``record`` as an FF[4] SGF file (UTF-8 text, ``CA[UTF-8]``).

    ``result`` and ``rules`` replace ``info["RE"]`` / ``info["RU"]`` when
    given (a ``Result`` is written with ``to_sgf()``).  Warnings are not
    written: they describe how the original file was read.
    """
    info = dict(record.info)
    if result is not None:
        info["RE"] = result.to_sgf() if isinstance(result, Result) else result
    if rules is not None:
        info["RU"] = rules

    root = Node()
    root.set("FF", "4")
    root.set("GM", "1")
    root.set("CA", "UTF-8")
    root.set("AP", application)
    root.set("SZ", str(record.size) if record.height is None else f"{record.size}:{record.height}")
    if record.komi is not None:
        root.set("KM", format_decimal(record.komi))
    root.set("HA", str(record.handicap))
    for key in _WRITE_FIRST:
        if key in info:
            root.set(key, info[key])
    for key, value in info.items():
        if key not in _WRITE_FIRST and key not in _NOT_WRITTEN and key not in root:
            root.set(key, value)
    if record.first_player is not None:
        root.set("PL", record.first_player.letter)
    _write_setup(root, record.setup)

    nodes = [root]
    for action in record.actions:
        node = Node()
        if isinstance(action, Move):
            value = "" if action.point is None else point_to_sgf(action.point)
            node.set(action.color.letter, value)
        else:
            _write_setup(node, action)
        nodes.append(node)
    last = nodes[-1]
    if record.territory_black:
        last.set("TB", *_sgf_points(record.territory_black))
    if record.territory_white:
        last.set("TW", *_sgf_points(record.territory_white))
    return sgf.serialise(sgf.GameTree(nodes=nodes))


def _write_setup(node: Node, setup: Setup) -> None:
    for ident, points in (("AB", setup.black), ("AW", setup.white), ("AE", setup.empty)):
        if points:
            node.set(ident, *_sgf_points(points))


def _sgf_points(points: frozenset[Point]) -> list[str]:
    return sorted(point_to_sgf(p) for p in points)


__all__ = [
    "INFO_PROPERTIES",
    "SgfError",
    "parse_record",
    "read_text_and_record",
    "write_record",
]
