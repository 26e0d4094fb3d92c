"""Inviting a player to an account: the only way, besides a superuser, that a player
record gets linked to a login.

A federation official or the player's own directors (``permissions.can_invite_player``)
send an e-mail with a signed link (the player's id, the address and a nonce, valid
``INVITATION_DAYS`` days) to the address on file, which only they write.  Whoever opens
it either creates an account with a password of his choosing, or, logged in, links the
account he has.  The player keeps the nonce of his one live link: a new invitation
replaces it, accepting it clears it, and a changed address on file voids it, so a link
works once, even after the account it made is deleted.  The directors of the player's
other tournaments are told of every invitation.  ``entry_list_invite`` invites a whole
entry list at once under the same rules, its mails sent after commit.
"""

from __future__ import annotations

import logging
import secrets
import smtplib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection, send_mail, send_mass_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

from games import permissions
from games.models import Player, Tournament
from ops.audit import audit_record, audit_record_many
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
        token = _new_link(player)
        validate_and_save(player, update_fields=["invitation_nonce"])
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_INVITED,
            obj=player,
            new={"email": email, "player": player.pk},
        )
        _send(actor=actor, player=player, email=email, link=accept_url(token))
    return token


def _new_link(player: Player) -> str:
    """A fresh nonce on ``player`` (unsaved: the caller writes it) and the signed token
    naming him, the address on file and that nonce: the one live link."""
    player.invitation_nonce = nonce = secrets.token_hex(16)
    return signing.dumps({"player": player.pk, "email": player.email, "nonce": nonce}, salt=_SALT)


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


_SUBJECT = gettext_lazy("Your goref account")


def _invitation_body(player: Player, link: str) -> str:
    context = {"player": player, "link": link, "days": INVITATION_DAYS}
    return render_to_string("games/email/invitation.txt", context)


def _send_invitation(*, player: Player, email: str, link: str) -> None:
    send_mail(str(_SUBJECT), _invitation_body(player, link), settings.DEFAULT_FROM_EMAIL, [email])


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


@dataclass
class ListInvited:
    """What ``entry_list_invite`` did: the players invited and those skipped, by reason."""

    invited: list[Player] = field(default_factory=list)
    no_address: list[Player] = field(default_factory=list)
    has_account: list[Player] = field(default_factory=list)
    not_yours: list[Player] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return len(self.no_address) + len(self.has_account) + len(self.not_yours)

    def __str__(self) -> str:
        return (
            f"{len(self.invited)} invited, {self.skipped} skipped ("
            f"{len(self.no_address)} no address / {len(self.has_account)} already "
            f"{'has' if len(self.has_account) == 1 else 'have'} an account / "
            f"{len(self.not_yours)} not yours)."
        )


def entry_list_invite(*, actor: Actor, tournament: Tournament, accept_url: Any) -> ListInvited:
    """Invite every entrant of ``tournament`` whose player has an address on file and no
    account, as ``player_invite`` would each (only the players the actor may invite, to
    the address on file, one live link each); the invitations and the notices to the
    players' other directors are mailed after commit, one mail per director."""
    official = permissions.is_federation_official(actor)
    require(
        official or permissions.is_director(actor, tournament),
        "Only the tournament's directors or a federation official invite its entry list.",
    )
    done = ListInvited()
    mails: list[tuple[Player, str, str]] = []
    with transaction.atomic():
        # Locked in id order, as player_invite locks one: a concurrent invitation or
        # acceptance waits, and two lists never lock in opposite orders.
        players = list(
            Player.objects.select_for_update(of=("self",))
            .filter(entries__tournament=tournament)
            .order_by("pk")
        )
        # can_invite_player for the whole list in a few queries, not several per player
        # (a congress's list is a thousand players).
        own = {} if official else permissions.own_tournament_ids(players)
        directed = set(
            Tournament.objects.filter(pk__in=set(own.values()), directors=as_user(actor))
            .order_by()
            .values_list("pk", flat=True)
        )
        for player in players:
            if not player.email:
                done.no_address.append(player)
            elif player.user_id is not None:
                done.has_account.append(player)
            elif not (official or own.get(player.pk) in directed):
                done.not_yours.append(player)
            else:
                mails.append((player, player.email, accept_url(_new_link(player))))
                done.invited.append(player)
        # The nonce is a random token no page shows: written in bulk, no check to run and
        # no cached page to refresh.
        Player.objects.bulk_update(done.invited, ["invitation_nonce"], batch_size=500)
        audit_record_many(
            actor=actor,
            action=AuditAction.PLAYER_INVITED,
            rows=[
                (p, None, {"email": p.email, "player": p.pk, "via": "entry list"})
                for p in done.invited
            ],
        )
        if mails:
            transaction.on_commit(lambda: _send_list(actor=actor, mails=mails))
    return done


def _send_list(*, actor: Actor, mails: list[tuple[Player, str, str]]) -> None:
    """The invitations over one connection, then one notice per director of the players'
    other tournaments; a refused mail is logged (the director can invite that one again)."""
    connection = get_connection(fail_silently=False)
    sent = 0
    for player, email, link in mails:
        message = EmailMessage(
            str(_SUBJECT), _invitation_body(player, link), None, [email], connection=connection
        )
        try:
            sent += message.send()
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("invitation to player %s not sent: %s", player.pk, exc)
    if sent < len(mails):
        log.warning("entry list invitations: %s of %s sent", sent, len(mails))
    sender = as_user(actor)
    told: dict[Any, list[str]] = defaultdict(list)
    directing = permissions.directors_of([player for player, _email, _link in mails])
    users = get_user_model().objects.in_bulk(set().union(*directing.values()))
    for player, email, _link in mails:
        ids = sorted(directing.get(player.pk, set()) - {getattr(sender, "pk", None)})
        others = [users[i] for i in ids if i in users and users[i].email]
        for user in others[:MAX_NOTICES]:
            told[user].append(f"{player.full_name} (player {player.pk}) at {email}")
    who = getattr(sender, "username", "the operator")
    try:
        send_mass_mail(
            [
                (
                    "Players of your tournament were invited to accounts",
                    f"{who} has invited these players to goref accounts at the addresses "
                    "on file:\n\n"
                    + "\n".join(names)
                    + "\n\nWhoever accepts acts for that player in your tournaments too.  If "
                    "this is wrong, tell a federation official.",
                    None,
                    [user.email],
                )
                for user, names in told.items()
            ],
            connection=connection,
        )
    except (OSError, smtplib.SMTPException):
        log.exception("the notices of the entry list invitations were not sent")


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
