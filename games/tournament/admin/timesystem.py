"""The time system in the tournament's admin form: one field per value, stored as
OpenGotha's attributes (docs/tournaments.md, "Time system")."""

from __future__ import annotations

from typing import Any

from django import forms

from games.tournament.engine.timesystem import Overtime, TimeSystem, time_system_of

NONE = ""
OVERTIME_CHOICES = [
    (NONE, "none set (the files write OpenGotha's default)"),
    (Overtime.SUDDEN_DEATH.value, "sudden death"),
    (Overtime.STANDARD.value, "standard byo-yomi"),
    (Overtime.CANADIAN.value, "Canadian byo-yomi"),
    (Overtime.FISCHER.value, "Fischer increment"),
]
# (label, attribute of TimeSystem), in the order the widgets show them.
PARTS = (
    ("basic time (min)", "basic_minutes"),
    ("byo-yomi period (s)", "byo_yomi_seconds"),
    ("byo-yomi periods", "byo_yomi_periods"),
    ("Canadian moves", "canadian_moves"),
    ("Canadian period (s)", "canadian_seconds"),
    ("Fischer increment (s)", "fischer_seconds"),
)


class TimeSystemWidget(forms.MultiWidget):
    def __init__(self) -> None:
        widgets: list[forms.Widget] = [forms.Select(choices=OVERTIME_CHOICES)]
        widgets += [
            forms.NumberInput(attrs={"min": 0, "style": "width:6em", "title": label})
            for label, _ in PARTS
        ]
        widgets.append(forms.CheckboxInput(attrs={"title": "online"}))
        super().__init__(widgets)

    def decompress(self, value: Any) -> list[Any]:
        if not value:
            d = TimeSystem()
            return [NONE, *(getattr(d, attr) for _, attr in PARTS), False]
        t = time_system_of(value)
        return [t.overtime.value, *(getattr(t, attr) for _, attr in PARTS), t.online]


class TimeSystemField(forms.MultiValueField):
    """Overtime kind, the six numbers and "online"; the stored mapping as its value."""

    widget = TimeSystemWidget

    def __init__(self, **kwargs: Any) -> None:
        fields: list[forms.Field] = [forms.ChoiceField(choices=OVERTIME_CHOICES, required=False)]
        fields += [forms.IntegerField(min_value=0, max_value=86400, required=False) for _ in PARTS]
        fields.append(forms.BooleanField(required=False))
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)
        self.help_text = (
            "Overtime, then "
            + ", ".join(label for label, _ in PARTS)
            + ", online. The EGF class follows it unless you change the class too."
        )

    def compress(self, data_list: list[Any]) -> dict[str, str]:
        if not data_list or not data_list[0]:
            return {}
        d = TimeSystem()
        values = {
            attr: getattr(d, attr) if v is None else v
            for (_, attr), v in zip(PARTS, data_list[1:-1], strict=True)
        }
        if values["canadian_moves"] < 1:
            raise forms.ValidationError("A Canadian period has at least one move.")
        times = TimeSystem(overtime=Overtime(data_list[0]), online=bool(data_list[-1]), **values)
        return times.to_mapping()
