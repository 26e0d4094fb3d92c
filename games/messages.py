"""The sentences games' pages show after a write: services return values, and the pages
put them in words here (translatable)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext


def entered_from_list(*, player: object, source: str, linked: bool, review: int) -> str:
    """A player entered from a rating list (``entry_add_from_list``'s answer)."""
    how = _("linked to his goref record") if linked else _("added to goref")
    queued = _(", {count} pair(s) queued for review").format(count=review) if review else ""
    return _("{player} entered from the {source} list ({how}{queued}).").format(
        player=player, source=source.upper(), how=how, queued=queued
    )


# A slip code's page (games.views.report), after each answer.
RESULT_REPORTED = gettext_lazy("Result reported: your opponent confirms it with his code.")
RESULT_CONFIRMED = gettext_lazy("Result confirmed: it is now final.")
RESULT_CONTESTED = gettext_lazy("Result contested: a referee will look at it.")
CHOOSE_AN_ACTION = gettext_lazy("Choose an action.")
RESULT_UNREADABLE = gettext_lazy(
    "Write the result as the slip does: B+6.5 or W+0.5 for a count, B+R or W+R for a "
    "resignation, B+T or W+T on time, 0 for jigo."
)


def board_label(*, columns: int, rows: int, stones: int) -> str:
    """A board diagram's text alternative (``games.svg.board_svg``'s ``label``)."""
    return ngettext(
        "{columns}×{rows} Go board, {stones} stone",
        "{columns}×{rows} Go board, {stones} stones",
        stones,
    ).format(columns=columns, rows=rows, stones=stones)
