"""The sentences games' pages show after a write: services return values, and the pages
put them in words here (translatable)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def entered_from_list(*, player: object, source: str, linked: bool, review: int) -> str:
    """A player entered from a rating list (``entry_add_from_list``'s answer)."""
    how = _("linked to his goref record") if linked else _("added to goref")
    queued = _(", {count} pair(s) queued for review").format(count=review) if review else ""
    return _("{player} entered from the {source} list ({how}{queued}).").format(
        player=player, source=source.upper(), how=how, queued=queued
    )


def time_system_read(*, text: str, adjusted: int, egf_class: str) -> str:
    """The admin's line of what the files write from a tournament's time system."""
    return _("{text}: adjusted time {adjusted} min, class {cls}").format(
        text=text, adjusted=adjusted, cls=egf_class
    )


def time_system_none() -> str:
    return _("none: the files write OpenGotha's default (60 min, Canadian 15 moves / 5 min)")
