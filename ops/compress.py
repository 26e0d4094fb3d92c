"""Pages compressed once, when they are cached, and served to every request that accepts gzip.

``GZipMiddleware`` compresses each response again: 10–20 ms of CPU for a 0.5–1.5 MB
standings or tournament page, many times what serving it from the cache costs.  A
cached page is kept here as raw deflate blocks, one run per piece of text between
occurrences of the request's CSP nonce (which differs per request); each request only
compresses its own nonce and joins the pieces into one gzip stream (RFC 1952: a
header, deflate blocks, the CRC-32 and length of the whole text).  Each piece is
deflated with its own compressor and ends with a sync flush, so no block refers back
across a nonce and the pieces can be joined in any context.
"""

from __future__ import annotations

import re
import struct
import zlib
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
    """A page's UTF-8 text cut at its nonce, each piece also deflated."""

    pieces: tuple[bytes, ...]
    deflated: tuple[bytes, ...]

    @classmethod
    def of(cls, text: str, nonce: str) -> Page:
        raw = text.encode()
        pieces = tuple(raw.split(nonce.encode())) if nonce else (raw,)
        return cls(pieces, tuple(_deflate(p) for p in pieces))

    @property
    def size(self) -> int:
        return sum(len(p) for p in self.pieces)

    def body(self, nonce: str) -> bytes:
        return nonce.encode().join(self.pieces)

    def gzipped(self, nonce: str) -> bytes:
        mark = nonce.encode()
        between = _deflate(mark)
        crc, size, out = 0, 0, [_GZIP_HEADER]
        for i, (piece, packed) in enumerate(zip(self.pieces, self.deflated, strict=True)):
            if i:
                crc = zlib.crc32(mark, crc)
                size += len(mark)
                out.append(between)
            crc = zlib.crc32(piece, crc)
            size += len(piece)
            out.append(packed)
        out += [_FINAL_BLOCK, struct.pack("<II", crc, size & 0xFFFFFFFF)]
        return b"".join(out)


def _deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
