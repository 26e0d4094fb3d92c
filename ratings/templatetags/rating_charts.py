"""The rating chart on a page: ``{% rating_chart history player %}``, drawn from the rows
``ratings.selectors.rating_record`` reads (the player page is games', the chart ours)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.models import Player
from ratings.charts import rating_chart_svg
from ratings.models import RatingHistory

register = template.Library()


@register.simple_tag
def rating_chart(history: Sequence[RatingHistory], player: Player) -> SafeString:
    """The player's rating before his first rated event, then after each one."""
    points: list[tuple[dt.date, float]] = []
    if history:
        points.append((history[0].event_date, history[0].rating_before))
        points += [(h.event_date, h.rating_after) for h in history]
    # rating_chart_svg escapes every text it draws.
    title = gettext("Rating history of {name}").format(name=player.full_name)
    empty = gettext("No rated tournaments yet.")
    return mark_safe(rating_chart_svg(points, title=title, empty=empty))
