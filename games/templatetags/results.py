"""``{{ game.result_display|result_words }}``: a result as the result buttons say it."""

from __future__ import annotations

from django import template

from games.messages import result_words as words

register = template.Library()


@register.filter
def result_words(text: str) -> str:
    return words(text or "")
