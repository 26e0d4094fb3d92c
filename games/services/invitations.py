"""Inviting a player to an account: the only way, besides a superuser, that a player
record gets linked to a login.

A federation official or the player's own directors (``permissions.can_invite_player``)
send an e-mail with a signed link (the player's id, the address and a nonce, valid
``INVITATION_DAYS`` days) to the address on file, which only they write.  Whoever opens
it either creates an account with a password of his choosing, or, logged in, links the
account he has.  The player keeps the nonce of his one live link: a new invitation
replaces it, accepting it clears it, and a changed address on file voids it, so a link
works once, even after the account it made is deleted.  The directors of the player's
other tournaments are told of every invitation.
"""

from __future__ import annotations

import logging
import secrets
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail, send_mass_mail
from django.db import IntegrityError, transaction

from games import permissions
from games.models import Player
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, as_user, require, validate_and_save

log = logging.getLogger(__name__)

INVITATION_DAYS = 7
_SALT = "goref.player-invitation"
_INVALID = "This invitation link is not valid."
MAX_NOTICES = 50  # directors told of one invitation
_USED = "This invitation has been used, or replaced by a newer one: ask for a new one."


@dataclass(frozen=True)
class Invitation:
    player: Player
    email: str
    nonce: str


def player_invite(*, actor: Actor, player: Player, accept_url: Any) -> str:
    """Send ``player`` an invitation to the address on file; returns the token.
    ``accept_url`` turns a token into the absolute link to put in the e-mail."""
    require(
        actor is None or permissions.can_invite_player(actor, player),
        "Only a federation official or the directors of the tournament that first entered "
        "this player invite him.",
    )
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is not None:
            raise StateConflict(f"{player} already has an account.")
        email = player.email
        if not email:
            raise ValidationError(
                {"email": "There is no e-mail address on file for this player: add it first."}
            )
        nonce = secrets.token_hex(16)
        player.invitation_nonce = nonce
        validate_and_save(player, update_fields=["invitation_nonce"])
        token = signing.dumps({"player": player.pk, "email": email, "nonce": nonce}, salt=_SALT)
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_INVITED,
            obj=player,
            new={"email": email, "player": player.pk},
        )
        _send(actor=actor, player=player, email=email, link=accept_url(token))
    return token


def _send(*, actor: Actor, player: Player, email: str, link: str) -> None:
    """The invitation, then (after commit) the notices.  A refused invitation rolls the
    nonce back (the caller's transaction) with a clear error; a failed notice is logged."""
    try:
        _send_invitation(player=player, email=email, link=link)
    except (OSError, smtplib.SMTPException) as exc:
        log.warning("invitation to player %s not sent: %s", player.pk, exc)
        raise ValidationError(
            "The invitation could not be sent (the mail server refused it): try again later."
        ) from None
    # The notices are best effort: sent after commit, not while the player's row is locked.
    transaction.on_commit(lambda: _send_notices(actor=actor, player=player, email=email))


def _send_invitation(*, player: Player, email: str, link: str) -> None:
    send_mail(
        "Your goref account",
        "\n".join(
            [
                f"A tournament director has invited you to goref as {player.full_name}.",
                "",
                f"Choose a password for your account here (the link works once, for {INVITATION_DAYS} days):",
                link,
                "",
                "If you did not expect this, ignore this message: nothing happens unless you open it.",
            ]
        ),
        settings.DEFAULT_FROM_EMAIL,
        [email],
    )


def _send_notices(*, actor: Actor, player: Player, email: str) -> None:
    """The directors of his other tournaments hear of it: the account acts for him there."""
    sender = as_user(actor)
    others = permissions.player_directors(player).exclude(email="")
    if sender is not None:
        others = others.exclude(pk=sender.pk)
    who = getattr(sender, "username", "the operator")
    body = (
        f"{who} has invited {player.full_name} (player {player.pk}) to a goref account at "
        f"the address on file, {email}.  Whoever accepts it acts for this player in your "
        "tournaments too.  If this is wrong, tell a federation official."
    )
    told = list(others[: MAX_NOTICES + 1])
    if len(told) > MAX_NOTICES:
        log.warning("invitation of player %s: only %s directors told", player.pk, MAX_NOTICES)
    try:
        send_mass_mail(
            [
                ("A player of your tournament was invited to an account", body, None, [u.email])
                for u in told[:MAX_NOTICES]
            ]
        )
    except (OSError, smtplib.SMTPException):
        log.exception("the notices of the invitation to player %s were not sent", player.pk)


def invitation_read(token: str) -> Invitation:
    """The invitation behind ``token``; ``ValidationError`` if forged, expired or used."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=INVITATION_DAYS * 24 * 3600)
    except signing.SignatureExpired:
        raise ValidationError(
            "This invitation has expired: ask the director for a new one."
        ) from None
    except signing.BadSignature:
        raise ValidationError(_INVALID) from None
    if not isinstance(data, dict):
        raise ValidationError(_INVALID)
    player_id = data.get("player")
    if not isinstance(player_id, int):
        raise ValidationError(_INVALID)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise ValidationError(_INVALID)
    if player.user_id is not None:
        raise ValidationError("This invitation has been used: the player has an account.")
    nonce, email = str(data.get("nonce", "")), str(data.get("email", ""))
    if not nonce or nonce != player.invitation_nonce or email != player.email:
        raise ValidationError(_USED)
    return Invitation(player=player, email=email, nonce=nonce)


def player_invitation_accept(
    *, token: str, user: Any = None, username: str = "", password: str = ""
) -> Any:
    """Accept an invitation: link ``user`` (logged in) or a new account ``username`` with
    ``password`` to the invited player.  Returns the user."""
    invitation = invitation_read(token)
    User = get_user_model()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=invitation.player.pk)
        if player.user_id is not None:
            raise StateConflict("This invitation has been used: the player has an account.")
        if player.invitation_nonce != invitation.nonce or player.email != invitation.email:
            raise StateConflict(_USED)
        if user is None:
            username = (username or "").strip()
            if not username:
                raise ValidationError({"username": "Choose a user name."})
            if User.objects.filter(username__iexact=username).exists():
                raise ValidationError({"username": "That user name is taken: choose another."})
            user = User(username=username, email=invitation.email)
            try:
                password_validation.validate_password(password, user)
            except ValidationError as exc:
                raise ValidationError({"password": exc.messages}) from None
            user.set_password(password)
            try:
                with transaction.atomic():
                    validate_and_save(user)
            except IntegrityError:
                # Another acceptance took the name between the check and the save.
                raise StateConflict("That user name was just taken: choose another.") from None
        elif Player.objects.filter(user=user).exists():
            raise StateConflict("Your account is already linked to a player.")
        player.user = as_user(user)
        player.invitation_nonce = ""  # consumed: this link never works again
        validate_and_save(player, update_fields=["user", "invitation_nonce"])
        audit_record(
            actor=user,
            action=AuditAction.PLAYER_ACCOUNT_LINKED,
            obj=player,
            old={"user": None},
            new={"user": user.pk, "email": invitation.email, "via": "invitation"},
        )
    return user
