"""The e-mail a player gets when a director approves his promotion (or demotion).

Sent on commit, so a decision that rolls back sends nothing; sending errors
are logged and swallowed, because a failing mail server must not undo the
decision.  No account, or no address: no e-mail.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

from ratings.models import RankChange, RankChangeKind

log = logging.getLogger(__name__)


def promotion_email_send(rank_change_id: int) -> bool:
    """Send the message for one ``RankChange``; True when one was sent."""
    change = (
        RankChange.objects.select_related("player__user", "tournament")
        .filter(pk=rank_change_id)
        .first()
    )
    if change is None:
        return False
    user = change.player.user
    if user is None or not user.email:
        return False
    promoted = change.kind == RankChangeKind.PROMOTION
    word = "promoted" if promoted else "moved"
    subject = f"[goref] You are {word} to {change.new_rank_value}"
    lines = [
        f"Dear {change.player.full_name},",
        "",
        f"Your official rank is now {change.new_rank_value} (it was {change.old_rank_value}).",
    ]
    if change.tournament is not None:
        lines.append(
            f"It follows your results up to {change.tournament.name} "
            f"({change.tournament.end_date:%Y-%m-%d})."
        )
    detail = change.evidence.get("detail")
    if detail:
        lines += ["", f"Why: {detail}"]
    if promoted:
        lines += ["", f"Your certificate: {reverse('ratings:certificate', args=[change.pk])}"]
    lines += ["", f"Your rank history: {reverse('games:player', args=[change.player_id])}"]
    try:
        send_mail(subject, "\n".join(lines), settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:
        log.exception("could not send the promotion e-mail for rank change %s", rank_change_id)
        return False
    return True
