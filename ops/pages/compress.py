"""Pages compressed once, when they are cached, and served to every request that accepts gzip.

``GZipMiddleware`` compresses each response again: 10–20 ms of CPU for a 0.5–1.5 MB
standings or tournament page, many times what serving it from the cache costs.  A
cached page (or the cached fragment of a signed-in user's page) is kept here as raw
deflate blocks, one run per piece of text between occurrences of the request's CSP
nonce (which differs per request); each request only compresses its own small parts
(the nonce, a signed-in user's header and footer) and joins the pieces into one gzip
stream (RFC 1952: a header, deflate blocks, the CRC-32 and length of the whole text).
The CRC of the whole is combined from the pieces' own without reading them again, as
zlib's ``crc32_combine`` does it: shifting a CRC past ``n`` bytes is a product by
``x^(8n)`` modulo the CRC polynomial, kept per piece.  Each piece is deflated with its
own compressor and ends with a sync flush, so no block refers back across pieces and
they can be joined in any context (docs/operations.md, "Compression").
"""

from __future__ import annotations

import re
import secrets
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest

# Smaller bodies are not worth it (GZipMiddleware's own threshold).
MIN_BYTES = 200
LEVEL = 6
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, mtime 0, OS unknown
_FINAL_BLOCK = b"\x03\x00"  # an empty last block (fixed Huffman)
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Page:
    """A page's UTF-8 text cut at its nonce, each piece kept deflated only (a tenth of
    the text: what a process keeps and unpickles per hit), with its length, its CRC-32
    and the factor that shifts a CRC past it (``_shift_factor``)."""

    deflated: tuple[bytes, ...]
    sizes: tuple[int, ...]
    crcs: tuple[int, ...]
    shifts: tuple[int, ...]

    @classmethod
    def of(cls, text: str, nonce: str = "") -> Page:
        raw = text.encode()
        pieces = raw.split(nonce.encode()) if nonce else [raw]
        return cls(
            tuple(_deflate(p) for p in pieces),
            tuple(len(p) for p in pieces),
            tuple(zlib.crc32(p) for p in pieces),
            tuple(_shift_factor(len(p)) for p in pieces),
        )

    @property
    def size(self) -> int:
        return sum(self.sizes)

    def body(self, nonce: str = "") -> bytes:
        """The page uncompressed, for the rare client that does not take gzip."""
        return nonce.encode().join(
            zlib.decompressobj(-zlib.MAX_WBITS).decompress(d) for d in self.deflated
        )

    def gzipped(self, nonce: str = "") -> bytes:
        return gzipped([self], nonce)


# Around the header in base.html: what a visitor's page shows of its reader (a log-in
# link), which a signed-in reader's copy of it replaces with his own (``CutPage``).  No
# escaped text can contain an HTML comment.
READER_START = "<!--goref:reader-->"
READER_END = "<!--goref:/reader-->"


@dataclass(frozen=True)
class CutPage:
    """A visitor's page kept in three parts: before its reader's header, that header (a
    visitor's), after it; so that a signed-in reader's copy is the same page around his
    own header, with nothing compressed again but it (``ops.pages.responses.reader_copy``).
    A page without the marks is all ``before``."""

    before: Page
    header: Page
    after: Page

    @classmethod
    def of(cls, text: str, nonce: str = "") -> CutPage:
        start, end = text.find(READER_START), text.find(READER_END)
        if start < 0 or end < start:
            return cls(Page.of(text, nonce), Page.of(""), Page.of(""))
        end += len(READER_END)
        return cls(
            Page.of(text[:start], nonce),
            Page.of(text[start:end], nonce),
            Page.of(text[end:], nonce),
        )

    @property
    def size(self) -> int:
        return self.before.size + self.header.size + self.after.size

    @property
    def cut(self) -> bool:
        """Whether the page has a reader's header to replace."""
        return self.header.size > 0

    def body(self, nonce: str = "") -> bytes:
        return b"".join(p.body(nonce) for p in (self.before, self.header, self.after))

    def gzipped(self, nonce: str = "") -> bytes:
        return gzipped([self.before, self.header, self.after], nonce)


def gzipped(parts: Sequence[bytes | Page], nonce: str = "", *, padding: int = 0) -> bytes:
    """One gzip stream of ``parts`` in order: text compressed now, pages as they were
    compressed when cached (with ``nonce`` between their pieces).

    ``padding`` > 0 puts a file name of 0 to ``padding - 1`` letters in the header, as
    ``GZipMiddleware`` does for BREACH ("Heal the Breach"): for pages that carry a CSRF
    token.  Its random length is the defence, so the letters are all "a", as Django's own
    (drawing each letter cost a signed-in page some 50 calls to ``secrets.choice``).
    """
    header = _GZIP_HEADER
    if padding:
        name = b"a" * secrets.randbelow(padding)
        header = header[:3] + b"\x08" + header[4:] + name + b"\x00"  # FLG.FNAME
    mark = nonce.encode()
    between = _deflate(mark) if mark else b""
    crc, size, out = 0, 0, [header]
    for part in parts:
        if isinstance(part, bytes):
            if part:
                crc = zlib.crc32(part, crc)
                size += len(part)
                out.append(_deflate(part))
            continue
        for i, packed in enumerate(part.deflated):
            if i and mark:
                crc = zlib.crc32(mark, crc)
                size += len(mark)
                out.append(between)
            # The CRC of what came before, carried past this piece, and the piece's own:
            # a few operations instead of reading the piece again.
            crc = _multiply(part.shifts[i], crc) ^ part.crcs[i]
            size += part.sizes[i]
            out.append(packed)
    out += [_FINAL_BLOCK, struct.pack("<II", crc, size & 0xFFFFFFFF)]
    return b"".join(out)


# CRC-32 arithmetic over GF(2), bit-reflected as zlib keeps it (zlib 1.2.12's crc32.c,
# ``multmodp`` and ``x2nmodp``): ``crc32(data, start) == crc32(data) ^ start * x^(8n)``
# for ``n = len(data)``, the product taken modulo the CRC polynomial.
_POLY = 0xEDB88320
_ONE = 1 << 31  # the polynomial 1


def _multiply(a: int, b: int) -> int:
    """``a * b`` modulo the CRC-32 polynomial (both reflected)."""
    product = 0
    m = _ONE
    while a:
        if a & m:
            product ^= b
            a ^= m
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1
    return product


def _powers() -> tuple[int, ...]:
    """``x^(2^k)`` for k = 0..31."""
    out = [1 << 30]  # x^1
    for _ in range(31):
        out.append(_multiply(out[-1], out[-1]))
    return tuple(out)


_X_2K = _powers()


def _shift_factor(length: int) -> int:
    """``x^(8 * length)``: what ``length`` bytes do to the CRC that comes before them."""
    factor = _ONE
    n, k = length, 3  # 8 * length = length * 2^3
    while n:
        if n & 1:
            factor = _multiply(_X_2K[k & 31], factor)
        n >>= 1
        k += 1
    return factor


def _deflate(data: bytes) -> bytes:
    # A window no larger than the text (zlib's least is 2^9): the same output, but a
    # 32 KB window costs 60 µs to set up, for every small piece a request compresses.
    bits = min(zlib.MAX_WBITS, max(9, (len(data) - 1).bit_length()))
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -bits)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
