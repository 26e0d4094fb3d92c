"""The result slips' report codes: a short code per game and per player, printed on the
slip as a URL and its QR code, that lets whoever holds it act as that player on that
game's result, without an account (README, "The tournament day").

A code is not stored: it is an HMAC, under the site's ``SECRET_KEY``, of the game's
random ``report_key`` (``secrets``), the game and the player, so the database alone
does not give it, a reprinted slip carries the same codes, and a guess is compared
in constant time.  Eight characters of Crockford's base-32 alphabet (40 bits), read
back forgiving case, dashes and the letters mistaken for digits (O, I, L).
"""

from __future__ import annotations

import base64
import hmac

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.crypto import salted_hmac

from games.models import Game, Player
from ops.audit import audit_record
from ops.models import AuditAction

CODE_LENGTH = 8
_SALT = "goref.games.report-code"
# RFC 4648 base 32 to Crockford's: no I, L, O, U to misread.
_CROCKFORD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
_ALPHABET = frozenset("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
_READ_BACK = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})


class CodeHolder(AnonymousUser):
    """Whoever opened a game's page with a player's report code: no account, but that
    player on that game's result (and nothing else: every other permission sees an
    anonymous visitor).  ``address`` is the client's, for the audit trail."""

    def __init__(self, *, player: Player, game_id: int, address: str | None) -> None:
        super().__init__()
        self.player = player
        self.game_id = game_id
        self.address = address

    def __str__(self) -> str:
        return f"code holder of {self.player} in game {self.game_id}"


def report_code(game: Game, player_id: int) -> str:
    """The code of ``player_id`` (Black or White) for ``game``, as printed."""
    digest = salted_hmac(_SALT, f"{game.pk}:{player_id}:{game.report_key}", algorithm="sha256")
    text = base64.b32encode(digest.digest()).decode("ascii").translate(_CROCKFORD)
    return text[:CODE_LENGTH]


def code_read(text: str) -> str:
    """A code as typed, in the printed form (upper case, no dashes, O read as 0...)."""
    return text.strip().upper().translate(_READ_BACK)


def code_shaped(text: str) -> bool:
    """Whether ``text`` (as ``code_read`` gives it) could be some game's code: eight
    characters of the alphabet.  Anything else is no guess at any code."""
    return len(text) == CODE_LENGTH and all(c in _ALPHABET for c in text)


def code_holder(game: Game, code: str, *, address: str | None) -> CodeHolder | None:
    """The player whose code ``code`` is on ``game``, or ``None``.  Both players' codes
    are compared, in constant time, whatever matches first."""
    given = code_read(code).encode("ascii", "replace")
    found = None
    for player in (game.black, game.white):
        if hmac.compare_digest(given, report_code(game, player.pk).encode("ascii")):
            found = player
    if found is None:
        return None
    return CodeHolder(player=found, game_id=game.pk, address=address)


def game_codes_guessed(*, game: Game, wrong_guesses: int, minutes: int) -> None:
    """Record that ``game``'s codes drew ``wrong_guesses`` wrong guesses within ``minutes``
    (someone is guessing at them): the audit row is what the director's round page
    flags (``games.selectors.games_guessed_at``).  No actor: guessers are anonymous."""
    with transaction.atomic():
        audit_record(
            actor=None,
            action=AuditAction.GAME_CODES_GUESSED,
            obj=game,
            new={"wrong_guesses": wrong_guesses, "minutes": minutes},
        )
