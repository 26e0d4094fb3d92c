"""A page compressed once and served with each request's own nonce: any gzip reader gets
exactly the text that request would have been sent, whatever the nonce's length."""

from __future__ import annotations

import gzip
import random
import zlib

import pytest

from ops.pages.compress import Page, _multiply, _shift_factor, gzipped

NONCE = "n0nce-of-the-first=="


@pytest.mark.parametrize("seed", range(20))
def test_the_joined_stream_reads_as_the_page_with_the_requests_nonce(seed: int) -> None:
    rng = random.Random(seed)
    parts = ["<p>é·−</p>", NONCE, "x" * rng.randint(0, 5000), "\n", f'nonce="{NONCE}"']
    text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 60)))
    page = Page.of(text, NONCE)
    for nonce in ("", "short", "a-much-longer-nonce-than-the-first-one=="):
        expected = text.replace(NONCE, nonce)
        packed = page.gzipped(nonce)
        assert gzip.decompress(packed).decode() == expected
        reader = zlib.decompressobj(16 + zlib.MAX_WBITS)  # a strict reader: one member, to its end
        assert reader.decompress(packed) == expected.encode() and reader.eof
        assert page.body(nonce) == expected.encode()


def test_a_page_without_a_nonce_is_one_piece() -> None:
    page = Page.of("<p>no script here</p>" * 50, "")
    assert len(page.deflated) == 1
    assert gzip.decompress(page.gzipped("")) == page.body("")


@pytest.mark.parametrize("length", [0, 1, 3, 1000, 1_500_000])
def test_a_crc_is_carried_past_a_piece_without_reading_it(length: int) -> None:
    before, piece = b"header text", bytes(random.Random(length).randbytes(length))
    carried = _multiply(_shift_factor(length), zlib.crc32(before)) ^ zlib.crc32(piece)
    assert carried == zlib.crc32(before + piece)


def test_text_compressed_now_and_pages_compressed_before_read_as_one_stream() -> None:
    fragment = Page.of("<tr><td>Ada</td></tr>" * 2000)
    other = Page.of(f"<p>{NONCE}</p>", NONCE)
    parts: list[bytes | Page] = [b"<html><header>", fragment, b"", other, b"</html>"]
    expected = b"<html><header>" + fragment.body() + b"<p>mine</p></html>"
    for padding in (0, 100):
        packed = gzipped(parts, "mine", padding=padding)
        reader = zlib.decompressobj(16 + zlib.MAX_WBITS)
        assert reader.decompress(packed) == expected and reader.eof
        assert gzip.decompress(packed) == expected


def test_the_padding_varies_the_header_as_the_middleware_does() -> None:
    sizes = {len(gzipped([b"<p>csrf</p>"], padding=100)) for _ in range(30)}
    assert len(sizes) > 5


@pytest.mark.parametrize("length", [0, 1, 511, 512, 513, 5000, 40_000, 200_000])
def test_text_compressed_per_request_reads_back_at_any_length(length: int) -> None:
    # Each piece gets a window no larger than itself: still one stream any reader takes.
    text = bytes(random.Random(length).choice(b"<td>1d</td> ") for _ in range(length))
    packed = gzipped([text, Page.of("<p>cached</p>" * 40), text])
    assert gzip.decompress(packed) == text + b"<p>cached</p>" * 40 + text
