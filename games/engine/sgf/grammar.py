"""SGF text to game trees and back: the tokens, the nodes and properties they
make, escapes and FF[3] identifiers.

Built for hostile input: no recursion, limits on nodes and depth, every error
placed by line and column.  A fast path reads well-formed files; anything else
goes to the careful reader, which gives the same trees or the error.
"""

from __future__ import annotations

import bisect
import re

from .charsets import MAX_BYTES, decodings
from .tree import GameTree, Node, SgfError

MAX_NODES = 20_000
MAX_DEPTH = 1_000
# The games after the first (counted, never replayed) may hold this many times MAX_NODES.
LATER_GAMES_NODES = 5

_WS = re.compile(r"\s*")
_START = re.compile(r"\(\s*;")
# A game tree whose first node has no ";" (Nihon Ki-in's records start "(\r\nTE[...").
_START_NO_SEMICOLON = re.compile(r"\(\s*(?=[A-Za-z]+\s*\[)")
_IDENT = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.DOTALL)
_MAX_IDENT = 32
_UPPER_IDENT = re.compile(r"[A-Z]+")


def parse(
    data: bytes | str,
    *,
    max_bytes: int = MAX_BYTES,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
) -> list[GameTree]:
    """Read an SGF collection: one ``GameTree`` per game in the file.

    Well-formed files take a fast path (one regular expression, places worked out only
    for errors); anything else goes to the careful reader: the same trees, or the error.
    Bytes are read in each charset ``decodings`` gives until one parses; the error
    raised is the first reading's.
    """
    error: SgfError | None = None
    for decoded in decodings(data, max_bytes=max_bytes):
        try:
            return parse_text(decoded.text, max_nodes=max_nodes, max_depth=max_depth)
        except SgfError as e:
            error = error or e
    assert error is not None  # the last reading always decodes
    raise error


def parse_text(
    text: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH
) -> list[GameTree]:
    """``parse`` for text already decoded."""
    start = _START.search(text)
    if start is None:
        bare = _START_NO_SEMICOLON.search(text)
        if bare is None:
            raise SgfError("no SGF game tree found: the file has no '(;'")
        # Read as if the ';' were there (columns on that line then count it).
        text = text[: bare.end()] + ";" + text[bare.end() :]
        start = _START.search(text)
        assert start is not None
    src = _Source(text)
    trees = _fast_read(src, start.start(), max_nodes, max_depth)
    if trees is None:
        trees = _Reader(src, max_nodes, max_depth).read(start.start())
    return trees


def node_end(text: str, pos: int) -> int:
    """Where the properties of the node whose ``;`` ends just before ``pos`` end
    (after the whitespace that follows them)."""
    match = _TOKEN.match
    while (m := match(text, pos)) is not None and m.lastindex in (6, 7):
        pos = m.end()
    return pos


class _Source:
    """The decoded text, with line and column lookup built on first use."""

    __slots__ = ("_newlines", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._newlines: list[int] | None = None

    def where(self, pos: int) -> tuple[int, int]:
        newlines = self._newlines
        if newlines is None:
            newlines = self._newlines = [m.start() for m in _NEWLINE.finditer(self.text)]
        n = bisect.bisect_left(newlines, pos)
        start = newlines[n - 1] + 1 if n else 0
        return n + 1, pos - start + 1

    def property_offsets(self, pos: int) -> dict[str, int]:
        """Offsets of the identifiers of the node whose properties start at ``pos``."""
        out: dict[str, int] = {}
        text, match = self.text, _TOKEN.match
        while (m := match(text, pos)) is not None and m.lastindex in (6, 7):
            pos = m.end()
            if m.lastindex == 6:
                out.setdefault(_upper_only(m.group(5)), m.start(5))
        return out


# The fast path's tokens, each after optional whitespace:
#   1 ``;`` opening a node, with 2-3 its first property and value when it has one;
#   4 ``(`` or ``)``;  5-6 an identifier and its first value (FF[3] identifiers may hold
#   lower-case letters, which do not count: ``CoPyright`` is ``CP``, ``_upper_only``);
#   7 one more value of the property just read.
# Values may hold escapes (``\]``, ``\\``).
_VALUE_RE = r"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]"
_TOKEN = re.compile(
    rf"\s*(?:(;)(?:\s*([A-Za-z]+)\s*{_VALUE_RE})?|([()])|([A-Za-z]+)\s*{_VALUE_RE}|{_VALUE_RE})",
    re.DOTALL,
)
_NEWLINE = re.compile(r"\n")
# A run of further plain values (no escape) after a property's first: a set-up
# position's root lists hundreds, read here in two calls instead of a match each.
_PLAIN_RUN = re.compile(r"(?:\s*\[[^\\\]]*\])+")
_PLAIN_VALUE = re.compile(r"\[([^\\\]]*)\]")
# What may follow a value when another value comes next (checked before the run is tried).
_MAY_CONTINUE = frozenset("[ \t\r\n")


def _fast_read(src: _Source, pos: int, max_nodes: int, max_depth: int) -> list[GameTree] | None:
    """The common case of ``_Reader.read``: the same trees, or ``None`` to hand over."""
    roots: list[GameTree] = []
    stack: list[GameTree] = []
    tree: GameTree | None = None  # the innermost open game tree
    props: dict[str, list[str]] | None = None  # the open node's properties
    last: list[str] | None = None  # the values of the property just read
    nodes = 0  # in the game being read
    later = 0  # in the games after the first
    new_node = Node.__new__
    unescape = _ESCAPE.sub
    text, match = src.text, _TOKEN.match
    plain_run, plain_values = _PLAIN_RUN.match, _PLAIN_VALUE.findall
    # ``match`` at each position, not ``finditer``: a search would rescan the
    # rest of a hostile file from every position it fails at.
    while (m := match(text, pos)) is not None:
        pos = m.end()
        kind = m.lastindex
        if kind == 3 or kind == 1:  # a node
            if tree is None:
                break  # text after the last game tree is ignored
            if tree.children:
                return None
            nodes += 1
            if len(roots) > 1:
                later += 1
            if nodes > max_nodes or later > LATER_GAMES_NODES * max_nodes:
                return None  # the careful reader names the place, or stops reading
            node = new_node(Node)
            node.properties = props = {}
            node._src = src
            node._at = m.start(1)
            tree.nodes.append(node)
            if kind == 1:
                last = None
                continue
            ident, value = m.group(2, 3)
            if len(ident) > _MAX_IDENT:
                return None
            if not ident.isupper():
                ident = _upper_only(ident)
                if not ident:
                    return None
            if "\\" in value:
                value = unescape(_unescape, value)
            props[ident] = last = [value]
            if text[pos : pos + 1] in _MAY_CONTINUE and (run := plain_run(text, pos)) is not None:
                last += plain_values(text, pos, run.end())
                pos = run.end()
        elif kind == 6:  # another property of the node
            if props is None:
                if tree is None:
                    break
                return None
            ident, value = m.group(5, 6)
            if len(ident) > _MAX_IDENT:
                return None
            if not ident.isupper():
                ident = _upper_only(ident)
                if not ident:
                    return None
            if "\\" in value:
                value = unescape(_unescape, value)
            if ident in props:
                last = props[ident]
                last.append(value)
            else:
                props[ident] = last = [value]
            if text[pos : pos + 1] in _MAY_CONTINUE and (run := plain_run(text, pos)) is not None:
                last += plain_values(text, pos, run.end())
                pos = run.end()
        elif kind == 4:
            props = last = None
            if m.group(4) == "(":
                if (tree is not None and not tree.nodes) or len(stack) >= max_depth:
                    return None
                if tree is None:
                    nodes = 0  # the limit is per game
                new = GameTree()
                (tree.children if tree is not None else roots).append(new)
                stack.append(new)
                tree = new
            else:
                if tree is None:
                    break
                if not tree.nodes:
                    return None
                stack.pop()
                tree = stack[-1] if stack else None
        else:  # another value
            if last is None:
                if tree is None:
                    break
                return None
            value = m.group(7)
            if "\\" in value:
                value = unescape(_unescape, value)
            last.append(value)
    if stack:  # something the tokens do not cover, or the end of the file
        return None
    return roots  # any text after the last game tree is ignored


# ``read_node``: where a node's properties end (the first value closed before a ``;``,
# ``(`` or ``)``), the first identifier and its ``[``, then a value's end with the next
# identifier and its ``[``, and a value's end with the next value's ``[``.
_NODE_END = re.compile(r"\]\s*(?=[;()])")
_FIRST_PROPERTY = re.compile(r"\s*([A-Z]{1,32})\s*\[")
_NEXT_PROPERTY = re.compile(r"\]\s*([A-Z]{1,32})\s*\[")
_NEXT_VALUE = re.compile(r"\]\s*\[")


def read_node(src: _Source, pos: int) -> tuple[Node, int] | None:
    """The node whose ``;`` is at ``pos``, and where its properties end (as
    ``node_end`` finds it), read by splitting the text rather than token by
    token: a set-up position's root lists hundreds of values.  ``None`` when the node
    is not the simple case (an escape, a lower-case identifier, anything but spaces
    between values, no property) and the tokens must decide.  The node is the one
    ``parse`` reads; its places are worked out when first asked."""
    text = src.text
    end = _NODE_END.search(text, pos + 1)
    if end is None:
        return None
    # With no escape every "]" closes a value: the first one before ";", "(" or ")"
    # ends the node, and each one is followed by another value, a property or that end.
    span = text[pos + 1 : end.start()]  # the last value's "]" left out
    if "\\" in span:
        return None
    first = _FIRST_PROPERTY.match(span)
    if first is None:
        return None
    parts = _NEXT_PROPERTY.split(span[first.end() :])
    props: dict[str, list[str]] = {}
    ident = first.group(1)
    for k in range(0, len(parts), 2):
        if k:
            ident = parts[k - 1]
        body = parts[k]
        values = body.split("][")
        if body.count("]") != len(values) - 1:  # spaces between values, or something else
            values = _NEXT_VALUE.split(body)
            if any("]" in v for v in values):
                return None
        if ident in props:
            props[ident] += values
        else:
            props[ident] = values
    node = Node.__new__(Node)
    node.properties = props
    node._src = src
    node._at = pos
    return node, end.start() + 1


class _Reader:
    """The careful reader: every error with its line, column and property."""

    def __init__(self, src: _Source, max_nodes: int, max_depth: int) -> None:
        self.src = src
        self.text = src.text
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.where = src.where

    def fail(self, pos: int, message: str, ident: str | None = None) -> SgfError:
        line, column = self.where(pos)
        return SgfError(message, line=line, column=column, property=ident)

    def read(self, pos: int) -> list[GameTree]:
        text, n = self.text, len(self.text)
        roots: list[GameTree] = []
        stack: list[GameTree] = []
        nodes = 0  # in the game being read
        later = 0  # in the games after the first
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                if stack:
                    raise self.fail(
                        pos, f"unexpected end of file: {len(stack)} game tree(s) not closed"
                    )
                break
            c = text[pos]
            if not stack and c != "(":
                break  # trailing text after the last game tree
            if c == "(":
                if not stack:
                    nodes = 0  # the limit is per game
                if stack and not stack[-1].nodes:
                    raise self.fail(pos, "a game tree must start with a node (';')")
                if len(stack) >= self.max_depth:
                    raise self.fail(pos, f"game trees are nested deeper than {self.max_depth}")
                tree = GameTree()
                (stack[-1].children if stack else roots).append(tree)
                stack.append(tree)
                pos += 1
            elif c == ")":
                if not stack[-1].nodes:
                    raise self.fail(pos, "empty game tree '()'")
                stack.pop()
                pos += 1
            elif c == ";":
                tree = stack[-1]
                if tree.children:
                    raise self.fail(pos, "a node cannot follow a variation in the same game tree")
                nodes += 1
                if len(roots) == 1 and nodes > self.max_nodes:
                    raise self.fail(pos, f"the first game has more than {self.max_nodes:,} nodes")
                if len(roots) > 1:
                    later += 1
                    if nodes > self.max_nodes or later > LATER_GAMES_NODES * self.max_nodes:
                        # Only the first game is read: the games after it are only
                        # counted, and stop being read where a limit is reached.
                        roots.pop()
                        break
                line, column = self.where(pos)
                node = Node(line=line, column=column)
                pos = self.read_properties(node, pos + 1)
                tree.nodes.append(node)
            else:
                if not stack[-1].nodes:
                    raise self.fail(pos, f"expected ';' to start a node, found {c!r}")
                raise self.fail(pos, f"unexpected {c!r}: expected a property, ';', '(' or ')'")
        return roots

    def read_properties(self, node: Node, pos: int) -> int:
        text = self.text
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            m = _IDENT.match(text, pos)
            if m is None:
                return pos
            raw = m.group()
            ident = _upper_only(raw)
            shown = raw[:_MAX_IDENT]
            if not ident:
                raise self.fail(pos, f"property identifier {shown!r} has no uppercase letter")
            if len(raw) > _MAX_IDENT:
                raise self.fail(pos, f"property identifier {shown!r}... is too long")
            at = pos
            pos = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
            values: list[str] = []
            while pos < len(text) and text[pos] == "[":
                v = _VALUE.match(text, pos)
                if v is None:
                    raise self.fail(pos, "property value is not closed with ']'", ident)
                values.append(_ESCAPE.sub(_unescape, v.group(1)))
                pos = _WS.match(text, v.end()).end()  # type: ignore[union-attr]
            if not values:
                raise self.fail(at, "property has no value ('[...]')", ident)
            if ident in node.properties:
                node.properties[ident].extend(values)
            else:
                node.properties[ident] = values
                node.locations[ident] = self.where(at)


def _upper_only(ident: str) -> str:
    """An identifier as FF[4] reads an FF[3] one: its upper-case letters only."""
    return "".join(ch for ch in ident if ch.isupper())


def _unescape(m: re.Match[str]) -> str:
    ch = m.group(1)
    return "" if ch in ("\r\n", "\n\r", "\n", "\r") else ch


# --------------------------------------------------------------------------- writing


def escape(value: str) -> str:
    """Escape a value for ``[...]``: backslashes and closing brackets."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def serialise(collection: list[GameTree] | GameTree) -> str:
    """Write game trees back as SGF text, one node per line (iteratively).

    ``parse(serialise(trees)) == trees`` for any trees whose identifiers are
    uppercase letters and which have at least one node per game tree.
    """
    trees = [collection] if isinstance(collection, GameTree) else collection
    out: list[str] = []
    # Work items: a tree to open, or the string ")" to close one.
    work: list[GameTree | str] = []
    for tree in reversed(trees):
        work.extend([")\n", tree])
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if not item.nodes:
            raise ValueError("cannot write an empty game tree")
        out.append("(")
        for node in item.nodes:
            out.append(";" + "".join(_write_property(k, v) for k, v in node.properties.items()))
            out.append("\n")
        for child in reversed(item.children):
            work.extend([")", child])
    return "".join(out)


def _write_property(ident: str, values: list[str]) -> str:
    if not _UPPER_IDENT.fullmatch(ident):
        raise ValueError(f"bad SGF property identifier {ident!r}")
    if not values:
        raise ValueError(f"property {ident} has no value")
    return ident + "".join(f"[{escape(v)}]" for v in values)
