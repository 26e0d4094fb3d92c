"""A page compressed once and served with each request's own nonce: any gzip reader gets
exactly the text that request would have been sent, whatever the nonce's length."""

from __future__ import annotations

import gzip
import random
import zlib

import pytest

from ops.compress import Page

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
