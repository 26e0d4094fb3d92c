"""What a printed result slip carries per player: his report code's URL, as text to
type and as a QR code to scan (README, "The tournament day").

The QR code is drawn here by segno as inline SVG: no image files, no script, nothing
the page's Content-Security-Policy must allow.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.models import Game, Player
from games.services.codes import report_code


@dataclass(frozen=True)
class SlipCode:
    player: Player
    colour: str
    url: str
    qr: SafeString


def slip_codes(request: HttpRequest, game: Game) -> list[SlipCode]:
    """Black's and White's report codes of ``game``, as the slip prints them."""
    out = []
    for player, colour in ((game.black, "Black"), (game.white, "White")):
        code = report_code(game, player.pk)
        # Printed in two groups of four, easier to type; the page reads the dash away.
        path = reverse(
            "games:report", kwargs={"game_id": game.pk, "code": f"{code[:4]}-{code[4:]}"}
        )
        url = request.build_absolute_uri(path)
        # segno draws the markup from the URL's bits; its text alternative (a <title>,
        # which segno escapes) names the address printed beside it.
        title = gettext("QR code: {url}").format(url=url)
        svg = segno.make(url, error="m").svg_inline(scale=2, title=title)
        out.append(SlipCode(player=player, colour=colour, url=url, qr=mark_safe(svg)))
    return out
