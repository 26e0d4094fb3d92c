"""Which tournament file a blob of bytes is, and reading it whatever it is."""

from __future__ import annotations

from typing import Literal

from games.tournament.engine.formats import egf, opengotha
from games.tournament.engine.formats.opengotha import FileFormatError
from games.tournament.engine.model import Event

Format = Literal["opengotha", "egf"]


def detect_format(data: bytes) -> Format:
    """ "opengotha" for XML whose root is a Tournament, "egf" for an .h9 results file."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]
    if head.startswith(b"<"):
        return "opengotha"
    for raw in head.splitlines():
        line = raw.strip()
        if line.startswith(b";") or (line[:1].isdigit() and b" " in line):
            return "egf"
        if line:
            break
    raise FileFormatError("neither an OpenGotha file nor an EGF results file", "file")


def read_event(data: bytes) -> Event:
    """The event in an OpenGotha XML or EGF .h9 file (``FileFormatError`` otherwise)."""
    if detect_format(data) == "opengotha":
        return opengotha.read(data)
    return egf.h9_event(egf.read_h9(data))
