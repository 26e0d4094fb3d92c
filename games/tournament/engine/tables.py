"""Table numbers of one round: pins first, the rest in order; shifts and swaps.

A table number is where a game is played, nothing more: moving one never changes who
plays whom, their colours or handicap.  docs/tournaments.md, "Tables".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Tables = dict[int, int]  # game id -> table number


class TableError(ValueError):
    """A move that would leave two games on one table, or a table below 1."""


def numbered(order: Sequence[int], pinned: Mapping[int, int]) -> Tables:
    """Tables for the games of ``order`` (best first): a game in ``pinned`` keeps its
    table (a player's fixed table: a wheelchair, the streamed top board), the others take
    the free numbers from 1 in order.  Two games pinned to one table: the earlier in
    ``order`` keeps it, the later is numbered like the rest."""
    tables: Tables = {}
    taken: set[int] = set()
    for game in order:
        table = pinned.get(game)
        if table is not None and table >= 1 and table not in taken:
            tables[game] = table
            taken.add(table)
    free = (n for n in range(1, len(order) + len(taken) + 1) if n not in taken)
    for game in order:
        if game not in tables:
            tables[game] = next(free)
    return tables


def shifted(tables: Mapping[int, int], by: int) -> Tables:
    """Every table moved by ``by`` (a second room numbered from 101: ``by=100``)."""
    moved = {game: table + by for game, table in tables.items()}
    if moved and min(moved.values()) < 1:
        raise TableError(f"shifting by {by} would number a table below 1")
    return moved


def swapped(tables: Mapping[int, int], a: int, b: int) -> Tables:
    """The games at tables ``a`` and ``b`` exchange tables (either may be empty)."""
    out = dict(tables)
    for game, table in tables.items():
        if table == a:
            out[game] = b
        elif table == b:
            out[game] = a
    return out


def moved(tables: Mapping[int, int], changes: Mapping[int, int]) -> Tables:
    """``tables`` with ``changes`` (game -> new table) applied; refused when two games
    would share a table or a number is below 1."""
    out = {**tables, **changes}
    if any(t < 1 for t in out.values()):
        raise TableError("a table number is 1 or more")
    seen: dict[int, int] = {}
    for game, table in out.items():
        if table in seen:
            raise TableError(f"table {table} would hold two games")
        seen[table] = game
    return out


__all__ = ["TableError", "Tables", "moved", "numbered", "shifted", "swapped"]
