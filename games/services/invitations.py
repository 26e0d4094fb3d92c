"""Inviting a player to an account: the only way, besides a superuser, that a player
record gets linked to a login.

A director of the player's tournament sends an e-mail with a signed link (the player's
id and the address, valid ``INVITATION_DAYS`` days).  Whoever opens it either creates an
account with a password of his choosing, or, logged in, links the account he has.  The
link is good once: it is refused as soon as the player has an account.  Nothing is
stored until the invitation is accepted, so there is no table of pending invitations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction

from games import permissions
from games.models import Player
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, as_user, require, validate_and_save

INVITATION_DAYS = 7
_SALT = "goref.player-invitation"


@dataclass(frozen=True)
class Invitation:
    player: Player
    email: str


def player_invite(*, actor: Actor, player: Player, email: str, accept_url: Any) -> str:
    """Send ``player`` an invitation to ``email``; returns the token.  ``accept_url`` turns
    a token into the absolute link to put in the e-mail."""
    require(
        actor is None or permissions.can_edit_player(actor, player),
        "Only a director of this player's tournaments invites him.",
    )
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError({"email": "Enter a valid e-mail address."}) from None
    if player.user_id is not None:
        raise StateConflict(f"{player} already has an account.")
    token = signing.dumps({"player": player.pk, "email": email}, salt=_SALT)
    link = accept_url(token)
    send_mail(
        "Your goref account",
        "\n".join(
            [
                f"A tournament director has invited you to goref as {player.full_name}.",
                "",
                f"Choose a password for your account here (the link works for {INVITATION_DAYS} days):",
                link,
                "",
                "If you did not expect this, ignore this message: nothing happens unless you open it.",
            ]
        ),
        settings.DEFAULT_FROM_EMAIL,
        [email],
    )
    audit_record(
        actor=actor,
        action=AuditAction.PLAYER_INVITED,
        obj=player,
        new={"email": email, "player": player.pk},
    )
    return token


def invitation_read(token: str) -> Invitation:
    """The invitation behind ``token``; ``ValidationError`` if forged, expired or used."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=INVITATION_DAYS * 24 * 3600)
    except signing.SignatureExpired:
        raise ValidationError(
            "This invitation has expired: ask the director for a new one."
        ) from None
    except signing.BadSignature:
        raise ValidationError("This invitation link is not valid.") from None
    player = Player.objects.filter(pk=data.get("player")).first()
    if player is None:
        raise ValidationError("This invitation link is not valid.")
    if player.user_id is not None:
        raise ValidationError("This invitation has been used: the player has an account.")
    return Invitation(player=player, email=str(data.get("email", "")))


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
            validate_and_save(user)
        elif Player.objects.filter(user=user).exists():
            raise StateConflict("Your account is already linked to a player.")
        player.user = as_user(user)
        validate_and_save(player, update_fields=["user"])
        audit_record(
            actor=user,
            action=AuditAction.PLAYER_ACCOUNT_LINKED,
            obj=player,
            old={"user": None},
            new={"user": user.pk, "email": invitation.email, "via": "invitation"},
        )
    return user
