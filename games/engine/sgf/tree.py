"""The generic SGF tree: nodes with their properties, game trees with their
variations, and the error every reader and checker raises, placed by line and column."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Source(Protocol):
    """The text a node was read from, as the grammar keeps it: places are looked up
    only when a checker asks for one (the tree never imports the grammar)."""

    def where(self, pos: int) -> tuple[int, int]: ...
    def property_offsets(self, pos: int) -> dict[str, int]: ...


class SgfError(ValueError):
    """A file that cannot be read as SGF, or a property value that makes no sense.

    ``line`` and ``column`` are 1-based (``None`` when the error is about the
    whole input, such as its size); ``property`` is the identifier involved,
    or ``None``.  ``str(error)`` reads like
    ``"line 3, column 14, property SZ: size 40 is out of range (2-25)"``.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        property: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.property = property
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        if property is not None:
            where.append(f"property {property}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class Node:
    """One node: properties in file order, each with its list of text values.

    ``line`` and ``column`` place the node's ``;``; ``locations`` maps each
    identifier to the (line, column) where it first appears.  Nodes built in
    code have none, and errors then name no place.  Nodes read by the fast
    path keep only their offset in the text and work the places out when
    first asked (normally only when an error is raised).
    """

    __slots__ = ("_at", "_column", "_line", "_locations", "_src", "properties")

    def __init__(
        self,
        properties: dict[str, list[str]] | None = None,
        line: int | None = None,
        column: int | None = None,
        locations: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        self.properties: dict[str, list[str]] = {} if properties is None else properties
        self._line = line
        self._column = column
        self._locations: dict[str, tuple[int, int]] | None = {} if locations is None else locations
        self._src: Source | None = None
        self._at = -1

    def _resolve(self) -> None:
        src = self._src
        if src is None:
            return
        self._src = None
        # Fast-path nodes have only ``_src`` and ``_at`` set until here.
        self._line, self._column = src.where(self._at)
        self._locations = {
            ident: src.where(at) for ident, at in src.property_offsets(self._at + 1).items()
        }

    @property
    def line(self) -> int | None:
        self._resolve()
        return self._line

    @line.setter
    def line(self, value: int | None) -> None:
        self._resolve()
        self._line = value

    @property
    def column(self) -> int | None:
        self._resolve()
        return self._column

    @column.setter
    def column(self, value: int | None) -> None:
        self._resolve()
        self._column = value

    @property
    def locations(self) -> dict[str, tuple[int, int]]:
        self._resolve()
        if self._locations is None:
            self._locations = {}
        return self._locations

    def get(self, ident: str) -> str | None:
        """The first value of ``ident``, or ``None`` if the node lacks it."""
        values = self.properties.get(ident)
        return values[0] if values else None

    def values(self, ident: str) -> list[str]:
        return self.properties.get(ident, [])

    def __contains__(self, ident: object) -> bool:
        return ident in self.properties

    def set(self, ident: str, *values: str) -> None:
        self.properties[ident] = list(values)

    def error(self, ident: str | None, message: str) -> SgfError:
        """An ``SgfError`` placed at ``ident`` (or at the node itself)."""
        line, column = self.line, self.column
        locations = self.locations
        if ident is not None and ident in locations:
            line, column = locations[ident]
        return SgfError(message, line=line, column=column, property=ident)

    def __eq__(self, other: object) -> bool:  # locations do not count
        return isinstance(other, Node) and self.properties == other.properties

    def __repr__(self) -> str:
        return f"Node({self.properties!r})"

    __hash__ = None  # type: ignore[assignment]


@dataclass(eq=False)
class GameTree:
    """A sequence of nodes followed by the variations that branch from its end."""

    nodes: list[Node] = field(default_factory=list)
    children: list[GameTree] = field(default_factory=list)

    def main_line(self) -> list[Node]:
        """The nodes of the first variation at every branch, root first."""
        out: list[Node] = []
        tree: GameTree | None = self
        while tree is not None:
            out.extend(tree.nodes)
            tree = tree.children[0] if tree.children else None
        return out

    def __repr__(self) -> str:  # shallow: the default would recurse through variations
        return f"GameTree(nodes={len(self.nodes)}, children={len(self.children)})"

    def __eq__(self, other: object) -> bool:
        # Iterative, so comparing two deep trees cannot exhaust the stack.
        if not isinstance(other, GameTree):
            return NotImplemented
        pairs = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a.nodes != b.nodes or len(a.children) != len(b.children):
                return False
            pairs.extend(zip(a.children, b.children, strict=True))
        return True

    __hash__ = None  # type: ignore[assignment]
