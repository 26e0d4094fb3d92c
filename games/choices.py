"""The fixed choices of games' fields, shared by the models and the APIs: the rules
presets, the pairing systems, the EGF tournament classes, the pages' languages."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESETS
from ops.languages import LANGUAGES

RULES_CHOICES = [(name, name) for name in PRESETS]
SYSTEM_CHOICES = [
    ("mcmahon", _("McMahon")),
    ("swiss", _("Swiss")),
    ("swiss_cat", _("Swiss with categories")),
    ("round_robin", _("round robin")),
    ("cup", _("cup (knock-out)")),
]
# X: a class the EGD does not rate (OpenGotha's name for an event below class D).
EGF_CLASS_CHOICES = [(c, c) for c in "ABCDX"]
# A tournament's language: its public pages' for a visitor who asks for none, its
# printed lists' and slips' (docs/i18n.md, "Which language").
LANGUAGE_CHOICES = list(LANGUAGES)
