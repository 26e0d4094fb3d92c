"""The engine's check of a game's record, in words for the game page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Game, ScoringRun, ScoringState
from games.services.scoring import WAITING_MESSAGE, latest_run
from games.templatetags.go_words import rules_name

_BREAKDOWN = (
    ("black_area", gettext_lazy("Black's area")),
    ("white_area", gettext_lazy("White's area")),
    ("black_territory", gettext_lazy("Black's territory")),
    ("white_territory", gettext_lazy("White's territory")),
    ("black_prisoners", gettext_lazy("Black's prisoners")),
    ("white_prisoners", gettext_lazy("White's prisoners")),
    ("komi", gettext_lazy("komi")),
)


# The players' part in finding the dead stones (docs/rules.md, "How dead stones are found").
_AWAITING = {
    "confirm": gettext_lazy(
        "The engine counts {counted} from the record {rules} only if the stones it "
        "was unsure of are marked as shown: it waits for the players' confirmation."
    ),
    "removal": gettext_lazy(
        "The engine could not tell which stones are dead: it waits for the players to mark them."
    ),
}
_DEAD_SOURCE = {
    "submitted": gettext_lazy("Dead stones: as the players gave them."),
    "markup": gettext_lazy("Dead stones: as marked in the record."),
    "estimated": gettext_lazy("Dead stones: estimated by the engine."),
}


@dataclass
class Verification:
    state: str  # "none", "waiting", "failed", "match", "mismatch", "awaiting", "unchecked"
    sentence: str
    first_illegal: str = ""
    breakdown: list[tuple[str, Any]] = field(default_factory=list)


def verification(game: Game) -> Verification | None:
    """What the engine made of the record, or ``None`` when there is no record."""
    if not game.sgf:
        return None
    run: ScoringRun | None = latest_run(game)
    if run is None or run.state in (ScoringState.PENDING, ScoringState.RUNNING):
        waiting = run is not None and run.waiting_for_queue
        return Verification(
            "waiting", str(WAITING_MESSAGE) if waiting else _("The engine is checking the record.")
        )
    if run.state == ScoringState.FAILED:
        return Verification(
            "failed", _("The engine could not check the record: {error}").format(error=run.error)
        )
    counted = run.computed_result
    rules = _("under {rules} rules").format(rules=rules_name(run.rules))
    if run.first_illegal:
        # A record with an illegal move goes to a referee whatever its count says.
        state, sentence = (
            "mismatch",
            _(
                "The engine could not count the record {rules}: it has an illegal move, so "
                "it does not support the result {result}."
            ).format(rules=rules, result=run.submitted_result),
        )
    elif run.matches is True:
        state, sentence = (
            "match",
            _("The engine counted {counted} from the record {rules}: matches the result.").format(
                counted=counted, rules=rules
            ),
        )
    elif run.matches is False:
        state, sentence = (
            "mismatch",
            _(
                "The engine counted {counted} from the record {rules}, but the result is "
                "{result}: they do not match."
            ).format(counted=counted, rules=rules, result=run.submitted_result),
        )
    elif run.step in _AWAITING:
        state, sentence = "awaiting", _AWAITING[run.step].format(counted=counted, rules=rules)
    else:
        state, sentence = (
            "unchecked",
            _(
                "The engine counted {counted} from the record {rules}; a result by "
                "resignation, time or forfeit is not checked against a count."
            ).format(counted=counted, rules=rules),
        )
    if run.dead_source in _DEAD_SOURCE and run.matches is not None:
        sentence += f" {_DEAD_SOURCE[run.dead_source]}"
    first = (run.first_illegal or {}).get("text", "")
    counts = run.breakdown or {}
    breakdown = [(str(label), counts[key]) for key, label in _BREAKDOWN if key in counts]
    return Verification(
        state, sentence, first_illegal=first, breakdown=breakdown + _seki_and_teire(counts)
    )


def _seki_and_teire(counts: dict[str, Any]) -> list[tuple[str, Any]]:
    """Why points count nothing under territory rules: the stones in seki, the eyes they
    keep, and each teire charged with the chain it protects (docs/rules.md)."""
    out: list[tuple[str, Any]] = []
    seki = counts.get("seki") or {}
    stones = seki.get("stones") or {}
    for colour, name in (("B", _("Black's stones in seki")), ("W", _("White's stones in seki"))):
        if stones.get(colour):
            out.append((name, " ".join(stones[colour])))
    if seki.get("eyes"):
        out.append((_("Eyes of groups in seki (no territory)"), " ".join(seki["eyes"])))
    if seki.get("points"):
        out.append((_("Shared liberties in seki"), " ".join(seki["points"])))
    for teire in counts.get("teire") or []:
        chain = " ".join(teire.get("chain", [])[:6])
        more = " …" if len(teire.get("chain", [])) > 6 else ""
        text = _("{point} must be filled by {colour} to protect {chain}").format(
            point=teire.get("point"), colour=teire.get("color"), chain=f"{chain}{more}"
        )
        out.append((_("Teire"), text))
    return out
