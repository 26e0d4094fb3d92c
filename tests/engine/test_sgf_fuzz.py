"""Fuzzing the SGF reader: only SgfError (or a successful parse) may escape."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.record import parse_record
from games.engine.sgf import SgfError, parse, serialise

FIXTURES = Path(__file__).parent / "fixtures"
VALID = [p.read_bytes() for p in sorted(FIXTURES.glob("*.sgf"))] + [
    b"(;FF[4]GM[1]SZ[19]KM[6.5]HA[2]AB[dp][pd]RE[W+R];W[qq](;B[dd];W[])(;B[tt]))",
    b"(;CA[latin-1]AP[foxwq]KM[375]PB[\xe9];B[aa:bb];W[ii]TB[aa:ss]TW[])",
]
SGF_BYTES = b"()[];\\:\n abcdstBWABWAETBTWSZKMHACAPLGM019"

fuzz = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_both(data: bytes | str) -> None:
    """Run both readers; anything other than SgfError fails the test."""
    try:
        trees = parse(data)
    except SgfError:
        return
    assert parse(serialise(trees)) == trees
    with contextlib.suppress(SgfError):
        parse_record(data)


@fuzz
@given(st.binary(max_size=300))
def test_random_bytes_raise_nothing_but_sgf_error(data: bytes) -> None:
    read_both(data)


@fuzz
@given(st.lists(st.sampled_from(list(SGF_BYTES)), max_size=200).map(bytes))
def test_random_sgf_alphabet_soup_raises_nothing_but_sgf_error(data: bytes) -> None:
    read_both(b"(;" + data)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        byte = draw(st.sampled_from([*SGF_BYTES, 0xFF, 0xC3, 0x00]))
        if kind == "insert":
            data.insert(at, byte)
        elif data and kind == "delete":
            del data[min(at, len(data) - 1)]
        elif data and kind == "replace":
            data[min(at, len(data) - 1)] = byte
        else:
            end = draw(st.integers(at, min(len(data), at + 40)))
            data[at:at] = data[at:end]
    return bytes(data)


@fuzz
@given(mutated())
def test_mutated_valid_files_raise_nothing_but_sgf_error(data: bytes) -> None:
    read_both(data)


@fuzz
@given(st.text(max_size=200))
def test_random_text_raises_nothing_but_sgf_error(text: str) -> None:
    read_both("(;C[" + text)
    read_both(text)
