"""A reader and writer for the generic SGF (FF[4]) tree: collections, game trees,
nodes, properties and text values; what they mean for Go is ``record``'s job.

``tree`` holds the nodes and game trees, ``charsets`` turns bytes into text and
``grammar`` text into trees and back.  Charsets, escapes, identifiers:
docs/formats.md, "SGF".
"""

from .charsets import (
    CHARSET_ALIASES,
    FALLBACK_CHARSETS,
    MAX_BYTES,
    Decoded,
    charset_codec,
    decode,
    decodings,
    root_charset,
)
from .grammar import (
    LATER_GAMES_NODES,
    MAX_DEPTH,
    MAX_NODES,
    escape,
    parse,
    parse_text,
    serialise,
)
from .tree import GameTree, Node, SgfError

__all__ = [
    "CHARSET_ALIASES",
    "FALLBACK_CHARSETS",
    "LATER_GAMES_NODES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Decoded",
    "GameTree",
    "Node",
    "SgfError",
    "charset_codec",
    "decode",
    "decodings",
    "escape",
    "parse",
    "parse_text",
    "root_charset",
    "serialise",
]
