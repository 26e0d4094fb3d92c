"""Pages compressed once, when they are cached, and served to every request that accepts gzip.

``GZipMiddleware`` compresses each response again: 10–20 ms of CPU for a 0.5–1.5 MB
standings or tournament page, many times what serving it from the cache costs.  A
cached page is kept here as raw deflate blocks, one run per piece of text between
occurrences of the request's CSP nonce (which differs per request); each request only
compresses its own nonce and joins the pieces into one gzip stream (RFC 1952: a
header, deflate blocks, the CRC-32 and length of the whole text, the CRC combined
from the pieces' own without reading them again).  Each piece is
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
    """A page's UTF-8 text cut at its nonce, each piece kept deflated only (a tenth of
    the text: what a process keeps and unpickles per hit), with its length, its CRC-32
    and the table that shifts a CRC past it (``_shifter``)."""

    deflated: tuple[bytes, ...]
    sizes: tuple[int, ...]
    crcs: tuple[int, ...]
    shifters: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, text: str, nonce: str) -> Page:
        raw = text.encode()
        pieces = raw.split(nonce.encode()) if nonce else [raw]
        return cls(
            tuple(_deflate(p) for p in pieces),
            tuple(len(p) for p in pieces),
            tuple(zlib.crc32(p) for p in pieces),
            tuple(_shifter(len(p)) for p in pieces),
        )

    @property
    def size(self) -> int:
        return sum(self.sizes)

    def body(self, nonce: str) -> bytes:
        """The page uncompressed, for the rare client that does not take gzip."""
        return nonce.encode().join(
            zlib.decompressobj(-zlib.MAX_WBITS).decompress(d) for d in self.deflated
        )

    def gzipped(self, nonce: str) -> bytes:
        mark = nonce.encode()
        between = _deflate(mark)
        crc, size, out = 0, 0, [_GZIP_HEADER]
        for i, packed in enumerate(self.deflated):
            if i:
                crc = zlib.crc32(mark, crc)
                size += len(mark)
                out.append(between)
            # The CRC of what came before, carried past this piece, and the piece's own:
            # a few operations instead of reading the piece again.
            crc = _shift(crc, self.shifters[i]) ^ self.crcs[i]
            size += self.sizes[i]
            out.append(packed)
        out += [_FINAL_BLOCK, struct.pack("<II", crc, size & 0xFFFFFFFF)]
        return b"".join(out)


def _shifter(length: int) -> tuple[int, ...]:
    """What ``length`` bytes do to a CRC-32 register, one entry per bit of it.

    ``zlib.crc32(data, start) == L(start) ^ zlib.crc32(data)`` where ``L`` depends on
    ``len(data)`` only and is linear over GF(2) (zlib's own ``crc32_combine`` rests on
    it), so ``L`` of any value is the XOR of ``L`` of its bits, read here once off a run
    of zeros of that length."""
    zeros = bytes(length)
    base = zlib.crc32(zeros)
    return tuple(zlib.crc32(zeros, 1 << bit) ^ base for bit in range(32))


def _shift(crc: int, shifter: tuple[int, ...]) -> int:
    out = 0
    bit = 0
    while crc:
        if crc & 1:
            out ^= shifter[bit]
        crc >>= 1
        bit += 1
    return out


def _deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
