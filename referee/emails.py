"""E-mails about disputes: to both players and the officials concerned, sent on commit.

Who hears of what: docs/referee.md, "E-mails".  A dispute whose transaction rolls back
sends nothing; a failing mail server is logged and never undoes a ruling.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db import transaction
from django.urls import reverse

from referee import roles
from referee.models import Dispute

log = logging.getLogger(__name__)

SUBJECTS = {
    "opened": "A dispute was raised",
    "ruled": "A ruling was made",
    "appealed": "A ruling was appealed",
    "closed": "A dispute was closed",
    "accepted": "A ruling was accepted",
}


def _recipients(dispute: Dispute, event: str) -> list[str]:
    game = dispute.game
    tournament = game.tournament
    users: list[Any] = [p.user for p in (game.black, game.white) if p.user_id is not None]
    if dispute.assigned_referee_id is not None:
        users.append(dispute.assigned_referee)
    elif dispute.level == 1:
        users.extend(tournament.referees.all())
    officials = roles.officials_of(tournament)
    if event == "appealed" and officials is not None:
        if dispute.level == 2 and officials.chief_referee_id is not None:
            users.append(officials.chief_referee)
        if dispute.level == 3:
            users.extend(get_user_model().objects.filter(pk__in=officials.committee_ids))
    seen: dict[str, None] = {}
    for user in users:
        if user is not None and user.email:
            seen[user.email] = None
    return list(seen)


def _body(dispute: Dispute, event: str, note: str) -> str:
    game = dispute.game
    url = reverse("referee:dispute", args=[dispute.pk])
    lines = [
        f"{SUBJECTS[event]} on the game {game.black} (Black) - {game.white} (White),",
        f"{game.tournament}, round {game.round.number}.",
        "",
        f"Kind: {dispute.get_kind_display()}"
        + (f", move {dispute.move_number}" if dispute.move_number else ""),
        f"Claim: {dispute.claim or '(none given)'}",
        f"Now: {dispute.get_state_display()}, level: {dispute.get_level_display()}",
    ]
    if note:
        lines += ["", note]
    lines += ["", f"The dispute: {url}"]
    return "\n".join(lines)


def _send(messages: list[tuple[str, str, str, list[str]]]) -> None:
    try:
        send_mass_mail(messages, fail_silently=False)
    except Exception:
        log.exception("could not send dispute e-mails")


def dispute_notify(dispute: Dispute, event: str, *, note: str = "") -> None:
    """Queue the e-mails about ``event`` for after the current transaction commits."""
    recipients = _recipients(dispute, event)
    if not recipients:
        return
    subject = f"[goref] {SUBJECTS[event]}: dispute {dispute.pk}, game {dispute.game_id}"
    body = _body(dispute, event, note)
    sender = settings.DEFAULT_FROM_EMAIL
    # One message per person: players do not see each other's addresses.
    messages = [(subject, body, sender, [to]) for to in recipients]
    transaction.on_commit(partial(_send, messages))
