"""A reader and writer for the generic SGF (FF[4]) tree: collections, game trees,
nodes, properties and text values; what they mean for Go is ``record``'s job.

Built for hostile input: no recursion, limits on bytes, nodes and depth, every error
placed by line and column.  Charsets, escapes, identifiers: docs/formats.md, "SGF".
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

MAX_BYTES = 1_000_000
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
        self._src: _Source | None = None
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


# --------------------------------------------------------------------------- decoding

# Charset names real files give in CA, to the Python codec that reads them.  Each
# maps to the superset its writers really use (Windows code page 932 for Shift_JIS,
# GB18030 for GB2312 and GBK, code page 949 for EUC-KR, 950 for Big5).
CHARSET_ALIASES = {
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "shiftjis": "cp932",
    "sjis": "cp932",
    "s_jis": "cp932",
    "x-sjis": "cp932",
    "csshiftjis": "cp932",
    "windows-31j": "cp932",
    "ms_kanji": "cp932",
    "mskanji": "cp932",
    "ms932": "cp932",
    "x-euc-jp": "euc_jp",
    "gb2312": "gb18030",
    "gb_2312-80": "gb18030",
    "euc-cn": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "x-windows-949": "cp949",
    "windows-949": "cp949",
    "uhc": "cp949",
    "big5": "cp950",
    "x-mac-roman": "mac_roman",
    "utf16": "utf-16",
    "utf16le": "utf-16-le",
    "utf16be": "utf-16-be",
}
# Tried in order when there is no CA, or the CA is unknown or wrong.  ISO-8859-1
# reads any bytes, so a record is never refused for its text.
FALLBACK_CHARSETS = ("utf-8", "gb18030", "iso-8859-1")
_SHOWN = {"utf-8": "UTF-8", "gb18030": "GB18030", "iso8859-1": "ISO-8859-1", "utf-16": "UTF-16"}
# The root node's properties, in the raw bytes (identifiers and brackets are ASCII).
_ROOT_START = re.compile(rb"\(\s*;?")
# Each value's text unrolled (runs of plain characters between escapes), not one
# alternative per character: the same matches, several times faster on long comments.
_RAW_PROPERTY = re.compile(
    rb"\s*([A-Za-z]{1,32})\s*((?:\[[^\\\]]*(?:\\.[^\\\]]*)*\]\s*)+)", re.DOTALL
)
_RAW_VALUE = re.compile(rb"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Decoded:
    """One reading of a file's bytes: the text, the charset used (``None`` for text
    given as text) and a warning when the charset was a guess or a correction."""

    text: str
    charset: str | None = None
    warning: str | None = None


def decode(data: bytes | str, *, max_bytes: int = MAX_BYTES) -> str:
    """Bytes to text: the first reading ``decodings`` gives."""
    return next(decodings(data, max_bytes=max_bytes)).text


def decodings(data: bytes | str, *, max_bytes: int = MAX_BYTES) -> Iterator[Decoded]:
    """The readings of ``data`` to try, best first (docs/formats.md, "SGF").

    The root's ``CA`` when it names a charset that decodes the bytes, then
    UTF-8, GB18030 and ISO-8859-1, each that decodes them; the last always does.
    A reader takes the first whose text it can parse.
    """
    if isinstance(data, str):
        if len(data) > max_bytes or len(data.encode("utf-8", "surrogatepass")) > max_bytes:
            raise SgfError(f"the file is larger than {max_bytes:,} bytes")
        yield Decoded(data)
        return
    if len(data) > max_bytes:
        raise SgfError(f"the file is larger than {max_bytes:,} bytes")
    tried: set[str] = set()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # A UTF-16 byte order mark says what the file is (its CA, if any, cannot
        # be read from the bytes as ASCII).
        text = _try_decode(data, "utf-16")
        if text is not None:
            yield Decoded(text, "UTF-16")
        tried.add("utf-16")
    declared = root_charset(data)
    problem = ""
    if declared:
        codec = charset_codec(declared)
        if codec is None:
            problem = f"CA[{declared}] is not a charset goref knows"
        else:
            tried.add(codec)
            text = _try_decode(data, codec)
            if text is not None:
                yield Decoded(text, _shown(codec))
                problem = f"CA[{declared}] did not give a readable record"
            else:
                problem = f"the file is not {declared} as its CA says"
    if not problem and data.isascii():
        yield Decoded(data.decode("ascii"), "UTF-8")
        return
    why = problem or "no CA property names the charset"
    later: list[Decoded] = []
    for codec in FALLBACK_CHARSETS:
        codec = codecs.lookup(codec).name
        if codec in tried:
            continue
        tried.add(codec)
        text = _try_decode(data, codec)
        if text is None:
            continue
        shown = _shown(codec)
        decoded = Decoded(text, shown, f"{why}: the text was read as {shown}")
        if text.count("]") != data.count(b"]") or text.count("[") != data.count(b"["):
            # A guessed multibyte charset took a bracket as the second byte of a
            # character (Latin-1 "é]" is one GB18030 character): that reading could
            # hide a move, so it is tried only after ISO-8859-1.  A backslash taken
            # so is normal (Shift_JIS "ソ" ends in 0x5C), where a reading byte by
            # byte would take it for an escape.
            later.append(decoded)
            continue
        yield decoded
    yield from later


def charset_codec(name: str) -> str | None:
    """The Python codec for a CA value (``"Windows-31J"`` -> ``"cp932"``), or ``None``."""
    key = name.strip().lower().replace(" ", "")
    key = CHARSET_ALIASES.get(key, key)
    try:
        return codecs.lookup(key).name
    except (LookupError, ValueError):  # unknown, or no name at all (a NUL in it)
        return None


def root_charset(data: bytes) -> str:
    """The first value of the root node's ``CA`` in raw bytes, or ``""``.

    Only the root's own properties are looked at: a comment that quotes
    ``CA[...]``, or a ``CA`` on a later node, does not decide the charset.
    """
    start = _ROOT_START.search(data)
    if start is None:
        return ""
    pos = start.end()
    while (m := _RAW_PROPERTY.match(data, pos)) is not None:
        pos = m.end()
        ident = m.group(1)
        if not ident.isupper():  # an FF[3] identifier: its upper-case letters only
            ident = bytes(c for c in ident if 65 <= c <= 90)
        if ident == b"CA":
            value = _RAW_VALUE.match(m.group(2).lstrip())
            if value is None:  # cannot happen: the group is made of values
                return ""
            return value.group(1).decode("ascii", "replace").strip()[:64]
    return ""


def _try_decode(data: bytes, codec: str) -> str | None:
    try:
        text = data.decode("utf-8-sig" if codec == "utf-8" else codec)
    except (UnicodeError, ValueError):  # codecs raise their own ValueErrors
        return None
    return text.removeprefix("\ufeff")


def _shown(codec: str) -> str:
    return _SHOWN.get(codec, codec)


# --------------------------------------------------------------------------- reading


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
