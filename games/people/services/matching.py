"""Who a file's player is: an existing goref player, a new one, or a new one put on the
review list beside the players he could be (docs/tournaments.md, "One person across
events").  Federation ids first (EGD PIN, FFG licence, AGA id), then the name compared
without case, accents, spacing or name order; never rank or club, which belong to the
entry.  Nothing here refuses a file: what is not certain is left to a person."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from django.core.exceptions import ValidationError
from django.db.models import Q

from games import permissions
from games.models import DuplicateState, Player, PossibleDuplicate, Tournament
from games.people.engine.federation_ids import FEDERATION_IDS, ID_FIELDS, LABELS
from games.people.engine.names import folded, name_key
from games.people.services.duplicates import duplicates_flag_many
from games.people.services.players import RowErrors, player_update, players_create_bulk
from ops.conflicts import take_turns_on
from ops.services import Actor
from ratings.ranks import Rank


class Entrant(Protocol):
    """A file's player as matching reads him: the tournament day's ``Entrant``, or a row
    of a CSV or a rating list, passed as a plain value (people never import the day)."""

    @property
    def id(self) -> int: ...
    @property
    def family_name(self) -> str: ...
    @property
    def given_name(self) -> str: ...
    @property
    def rank(self) -> int: ...
    @property
    def club(self) -> str: ...
    @property
    def country(self) -> str: ...
    @property
    def egd_pin(self) -> str: ...
    @property
    def ffg_licence(self) -> str: ...
    @property
    def aga_id(self) -> str: ...


# Placeholders some files carry for "no id".
_NO_ID = {"0" * n for n in range(1, 11)}


def federation_ids(e: Entrant) -> dict[str, str]:
    """The entrant's usable ids by player field (placeholders and malformed ones left out)."""
    out: dict[str, str] = {}
    for fid in FEDERATION_IDS:
        value = getattr(e, fid.field).strip()
        if value and value not in _NO_ID and fid.shape.fullmatch(value):
            out[fid.field] = value
    return out


@dataclass
class Decision:
    """What to do with one entrant: link ``player`` (then ``fill`` its empty ids), or
    create a new player, flagged against ``candidates`` when there are any."""

    player: Player | None = None
    fill: dict[str, str] = field(default_factory=dict)
    candidates: list[Player] = field(default_factory=list)
    reason: str = ""
    new_ids: dict[str, str] = field(default_factory=dict)
    claimed_ids: dict[str, str] = field(default_factory=dict)  # held by another player


def _same_person_name(e: Entrant, p: Player) -> bool:
    """The names agree: the same words, or (an id already agreeing) the same family name
    and given names starting alike ("Jan" and "Jan Willem", "B." and "Bela")."""
    if name_key(e.family_name, e.given_name) == p.name_key:
        return True
    given_e, given_p = _letters(e.given_name), _letters(p.given_name)
    return (
        _letters(e.family_name) == _letters(p.family_name)
        and bool(given_e)
        and bool(given_p)
        and (given_e.startswith(given_p) or given_p.startswith(given_e))
    )


def _letters(text: str) -> str:
    return "".join(c for c in folded(text) if c.isalnum())


def _conflicts(ids: dict[str, str], p: Player) -> list[str]:
    return [f for f, v in ids.items() if getattr(p, f) and getattr(p, f) != v]


class Matcher:
    """Decisions for a whole file's entrants, from a bounded number of queries."""

    def __init__(self, entrants: Iterable[Entrant]) -> None:
        entrants = list(entrants)
        self.ids = {e.id: federation_ids(e) for e in entrants}
        self.keys = {e.id: name_key(e.family_name, e.given_name) for e in entrants}
        cond = Q(name_key__in=set(self.keys.values()))
        for fld in ID_FIELDS:
            values = {ids[fld] for ids in self.ids.values() if fld in ids}
            if values:
                cond |= Q(**{f"{fld}__in": values})
        rows = list(Player.objects.filter(cond).select_related("club"))
        self.by_id = {
            (fld, getattr(p, fld)): p for p in rows for fld in ID_FIELDS if getattr(p, fld)
        }
        self.by_key: dict[str, list[Player]] = {}
        for p in rows:
            self.by_key.setdefault(p.name_key, []).append(p)
        # The pairs a director kept apart: never asked again, and a reason to link the one
        # whose name this is rather than create a third record (docs/tournaments.md).
        pks = [p.pk for p in rows]
        self.apart = {
            frozenset(pair)
            for pair in PossibleDuplicate.objects.filter(
                state=DuplicateState.APART, player__in=pks, other__in=pks
            ).values_list("player", "other")
        }
        self.used: set[int] = set()
        self.taken_ids: set[tuple[str, str]] = set(self.by_id)

    def decide(self, e: Entrant) -> Decision:
        d = self._decide(e)
        if d.player is not None and d.player.pk in self.used:
            # Two of the file's players would be one goref player: the second is new.
            d = Decision(
                candidates=[d.player],
                reason=f"{e.family_name} {e.given_name}: matches the same player as "
                "another entry of this file",
            )
        if d.player is not None:
            self.used.add(d.player.pk)
        else:
            ids = self.ids[e.id]
            d.new_ids = {f: v for f, v in ids.items() if (f, v) not in self.taken_ids}
            d.claimed_ids = {f: v for f, v in ids.items() if (f, v) in self.by_id}
        for f, v in (d.fill | d.new_ids).items():
            self.taken_ids.add((f, v))
        return d

    def _decide(self, e: Entrant) -> Decision:
        d = self._by_ids_and_name(e)
        if d.player is not None or not d.candidates:
            return d
        ids = self.ids[e.id]
        claimant = self._claimant(e)
        if claimant is not None:
            return Decision(player=claimant, fill=self._fill(ids, claimant))
        # The one player of this name (no id against him) was kept apart from every other
        # candidate: the director has said who the others are not, so he is this one.
        named = [p for p in self.by_key.get(self.keys[e.id], []) if not _conflicts(ids, p)]
        if len(named) == 1 and self.keys[e.id]:
            (n,) = named
            rest = [c for c in d.candidates if c.pk != n.pk]
            if rest and all(frozenset((n.pk, c.pk)) in self.apart for c in rest):
                return Decision(player=n, fill=self._fill(ids, n))
        return d

    def _by_ids_and_name(self, e: Entrant) -> Decision:
        ids = self.ids[e.id]
        who = f"{e.family_name} {e.given_name}".strip()
        held = {f: self.by_id[(f, v)] for f, v in ids.items() if (f, v) in self.by_id}
        holders = {p.pk: p for p in held.values()}
        if len(holders) > 1:
            text = ", ".join(f"{LABELS[f]} {ids[f]} is player {p.pk}" for f, p in held.items())
            return Decision(candidates=list(holders.values()), reason=f"{who}: {text}")
        if holders:
            (p,) = holders.values()
            conflicts = _conflicts(ids, p)
            if _same_person_name(e, p) and not conflicts:
                return Decision(player=p, fill=self._fill(ids, p))
            f = next(iter(held))
            why = (
                f"{LABELS[f]} {ids[f]} belongs to player {p.pk} ({p.full_name})"
                if not conflicts
                else f"player {p.pk} has another {LABELS[conflicts[0]]}"
            )
            return Decision(candidates=[p], reason=f"{who}: {why}")
        # A name without a letter or digit ("? ?", a lost encoding) matches nobody.
        same = self.by_key.get(self.keys[e.id], []) if self.keys[e.id] else []
        clear = [p for p in same if not _conflicts(ids, p)]
        if len(same) == 1 and clear:
            return Decision(player=clear[0], fill=self._fill(ids, clear[0]))
        if not same:
            return Decision()
        if clear:
            why = f"the same name as players {', '.join(str(p.pk) for p in same)}"
        else:
            why = f"the same name as player(s) {', '.join(str(p.pk) for p in same)}, " + (
                "whose federation id differs"
            )
        return Decision(candidates=same, reason=f"{who}: {why}")

    def _claimant(self, e: Entrant) -> Player | None:
        """The one player of the entrant's name made for an earlier file's entrant with one
        of his ids, which another player held: the same person again, one record a season."""
        ids, key = self.ids[e.id], self.keys[e.id]
        hits = [
            p
            for p in (self.by_key.get(key, []) if key else [])
            if not _conflicts(ids, p) and any(p.claimed_ids.get(f) == v for f, v in ids.items())
        ]
        return hits[0] if len(hits) == 1 else None

    def _fill(self, ids: dict[str, str], p: Player) -> dict[str, str]:
        """The file's ids the linked player lacks (and nobody else holds)."""
        return {f: v for f, v in ids.items() if not getattr(p, f) and (f, v) not in self.taken_ids}


class EntrantError(ValidationError):
    """A new player the file describes cannot be created: ``entrant`` and what is wrong."""

    def __init__(self, entrant: Entrant, text: str) -> None:
        super().__init__(text)
        self.entrant = entrant
        self.text = text


@dataclass(frozen=True)
class Identified:
    """The goref player of each entrant (in the entrants' order), whether he was linked
    to an existing one, and how many pairs went on the review list."""

    players: list[Player]
    linked: list[bool]
    review: int

    @property
    def linked_count(self) -> int:
        return sum(self.linked)


def players_identify(
    *, actor: Actor, entrants: Iterable[Entrant], tournament: Tournament | None
) -> Identified:
    """Link or create the players of a file, a CSV or a rating-list registration in a
    bounded number of queries, whatever their number: one read of the candidates and the
    pairs kept apart, the new players (with their name keys, clubs and audit rows) in
    bulk, the review pairs in bulk; only a linked player gaining an id he lacked is
    written alone (once in his life).  Inside the caller's transaction; ``EntrantError``
    names the first entrant who cannot be created."""
    entrants = list(entrants)
    # Two files (or a file and a CSV) entering the same new person at once would each
    # find nobody and each create him, as two players no review pair links: identity
    # steps with a name key or federation id in common take turns (the second then links
    # to the first's players), others never wait, and a long wait is a 409.
    take_turns_on(_turn_keys(entrants))
    matcher = Matcher(entrants)
    decisions = _fill_only_editable(actor, [matcher.decide(e) for e in entrants], entrants)
    for d in decisions:
        if d.player is not None and d.fill:
            player_update(actor=actor, player=d.player, **d.fill)
    new = [(e, d) for e, d in zip(entrants, decisions, strict=True) if d.player is None]
    try:
        made = iter(
            players_create_bulk(
                actor=actor, rows=[_row(e, d.new_ids, d.claimed_ids) for e, d in new]
            )
        )
    except RowErrors as exc:
        position, fields = min(exc.rows.items())
        text = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items() if k != "__all__")
        text = text or " ".join(fields.get("__all__", []))
        raise EntrantError(new[position][0], text) from None
    players = [d.player if d.player is not None else next(made) for d in decisions]
    pairs = [
        (player, other, d.reason)
        for player, d in zip(players, decisions, strict=True)
        if d.player is None
        for other in d.candidates
    ]
    review = duplicates_flag_many(actor=actor, pairs=pairs, tournament=tournament)
    return Identified(players, [d.player is not None for d in decisions], review)


def _turn_keys(entrants: list[Entrant]) -> set[str]:
    """What identifying ``entrants`` reads and may create: their name keys and ids."""
    keys = set()
    for e in entrants:
        key = name_key(e.family_name, e.given_name)
        if key:
            keys.add(f"name:{key}")
        keys.update(f"{f}:{v}" for f, v in federation_ids(e).items())
    return keys


def _fill_only_editable(
    actor: Actor, decisions: list[Decision], entrants: list[Entrant]
) -> list[Decision]:
    """An import fills a federation id only on a player its user may edit
    (``permissions.editable_players``).  Otherwise the file's player becomes a new record
    holding the ids, on the review list beside the player the ids were meant for, with
    the importing user named: whoever may decide the pair merges it (the ids then reach
    the player) or keeps it apart."""
    filling = [d.player for d in decisions if d.player is not None and d.fill]
    if not filling:
        return decisions
    allowed = permissions.editable_players(actor, filling)
    who = getattr(actor, "username", "")
    out = []
    for e, d in zip(entrants, decisions, strict=True):
        if d.player is None or not d.fill or d.player.pk in allowed:
            out.append(d)
            continue
        ids = ", ".join(f"{LABELS[f]} {v}" for f, v in d.fill.items())
        reason = (
            f"{e.family_name} {e.given_name}: the file gives {ids} to player {d.player.pk}, "
            f"whom {who} may not edit"
        )
        out.append(Decision(candidates=[d.player], reason=reason, new_ids=d.fill))
    return out


def _row(e: Entrant, ids: dict[str, str], claimed: dict[str, str]) -> dict[str, object]:
    """A new player's fields (``players_create_bulk``) from the entrant."""
    country = e.country.strip().upper()
    return {
        "family_name": e.family_name,
        "given_name": e.given_name,
        "rank": str(Rank(e.rank)),
        "club": e.club.strip(),
        "country": country if re.fullmatch(r"[A-Z]{2}", country) else "",
        **ids,
        "claimed_ids": claimed,
    }
