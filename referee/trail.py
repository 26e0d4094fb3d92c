"""A dispute's audit trail as sentences, with the values before and after each change,
for the officials' dispute page."""

from __future__ import annotations

from typing import Any

from ops.models import AuditAction, AuditEntry

LEVELS = {1: "the referee", 2: "the chief referee", 3: "the arbitration committee"}


def _who(entry: AuditEntry) -> str:
    return entry.actor.get_username() if entry.actor is not None else "The system"


def _value(value: Any) -> str:
    if value in (None, "", []):
        return "none"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _record(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The record's change in words (a record is too long to quote)."""
    before, after = old.get("sgf") or "", new.get("sgf") or ""
    if before == after:
        return ""
    if not before:
        return "the record was stored"
    return "the record was replaced" if after else "the record was removed"


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """ "result B+R → W+T" for each shown field that changed."""
    out = []
    for key, label in (("result", "result"), ("dead_stones", "dead stones"), ("state", "state")):
        if key in old and key in new and old[key] != new[key]:
            out.append(f"{label} {_value(old[key])} → {_value(new[key])}")
    record = _record(old, new)
    if record:
        out.append(record)
    return out


def sentence(entry: AuditEntry) -> str:
    """One line of the trail, e.g. "referee ruled at the referee's level: upheld; result
    W+R → B+F"."""
    old: dict[str, Any] = entry.old_value if isinstance(entry.old_value, dict) else {}
    new: dict[str, Any] = entry.new_value if isinstance(entry.new_value, dict) else {}
    who = _who(entry)
    action = entry.action
    if action == AuditAction.DISPUTE_OPENED:
        how = " (the result was contested)" if new.get("contested") else ""
        auto = " automatically" if new.get("automatic") else ""
        move = f" about move {new['move_number']}" if new.get("move_number") else ""
        return (
            f"{who} raised the dispute{auto}{how}: {new.get('kind', '?')}{move}; "
            f"the game was {old.get('game_state', '?')} and is now disputed."
        )
    if action == AuditAction.DISPUTE_KIND_CHANGED:
        return f"{who} changed what the dispute is about: {old.get('kind')} → {new.get('kind')}."
    if action == AuditAction.DISPUTE_ASSIGNED:
        return f"{who} assigned the dispute to a referee (user {_value(new.get('referee'))})."
    if action == AuditAction.DISPUTE_RULED:
        level = LEVELS.get(new.get("level", 0), "an official")
        changes = _changes({k: old.get(k) for k in ("result", "dead_stones", "sgf")}, new)
        tail = "; ".join(changes) if changes else "nothing in the game changed"
        return f"Ruling of {level}: {new.get('decision')} — {tail}."
    if action == AuditAction.DISPUTE_VOTE:
        named = f", result {new['result']}" if new.get("result") else ""
        return f"{who} voted {new.get('decision')}{named}."
    if action == AuditAction.DISPUTE_APPEALED:
        reason = f' Reason: "{new["reason"]}"' if new.get("reason") else ""
        return f"{who} appealed to {LEVELS.get(new.get('level', 0), 'the next level')}.{reason}"
    if action == AuditAction.DISPUTE_ACCEPTED:
        return f"{who} accepted the ruling of {LEVELS.get(new.get('level', 0), 'this level')}."
    if action == AuditAction.DISPUTE_CLOSED:
        return f"The dispute was closed ({new.get('why')}); result {_value(new.get('result'))}."
    if action in (AuditAction.GAME_RESULT_RULED, AuditAction.GAME_RECORD_REPLACED):
        changes = _changes(old, new)
        return f"The game took the ruling: {'; '.join(changes) or 'no change'}."
    if action == AuditAction.GAME_DISPUTE_SETTLED:
        return f"The game is {_value(new.get('state'))} (it was {_value(old.get('state'))})."
    changes = _changes(old, new)
    detail = f": {'; '.join(changes)}" if changes else ""
    return f"{who}: {action.replace('.', ' ').replace('_', ' ')}{detail}."


def appeal_reasons(entries: list[AuditEntry]) -> list[dict[str, Any]]:
    """Who appealed to which level, when and why: what the level hearing it reads."""
    return [
        {
            "level": LEVELS.get((e.new_value or {}).get("level", 0), "the next level"),
            "by": _who(e),
            "when": e.created_at,
            "reason": (e.new_value or {}).get("reason") or "(no reason given)",
        }
        for e in entries
        if e.action == AuditAction.DISPUTE_APPEALED
    ]
