"""Bytes to text: the charset the root's ``CA`` names, else UTF-8, GB18030 and
ISO-8859-1, each reading tried in turn (docs/formats.md, "SGF")."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .tree import SgfError

MAX_BYTES = 1_000_000

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
