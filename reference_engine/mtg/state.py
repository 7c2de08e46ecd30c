"""The state of one MTG game: players, zones, the stack, effects, shields, the event log.

`Game` holds data and the bookkeeping every rule module shares (moving
objects, timestamps, events).  It decides no rule itself: the switch-point
record `rules` is injected by ``game`` and consulted by the rule modules.
"""

from __future__ import annotations

import copy
from typing import Any

from reference_engine._bookkeeping import Bookkeeping
from reference_engine.mtg.model import PLAYERS, ZONES, Continuous, Obj, Shield


class Rejected(Exception):
    """The rules forbid the action; the message says why."""


class Game(Bookkeeping):
    """Two players (one of them active: p1 unless the setup says), their objects and
    what is in force."""

    def __init__(self, rules: Any, life: dict[str, int], mana: dict[str, dict[str, int]],
                 objects: list[Obj], phase: str, active: str = "p1"):
        self.rules = rules
        self.life = dict(life)
        self.mana = {p: dict(pool) for p, pool in mana.items()}
        self.phase = phase
        self.active = active
        self.objects: dict[str, Obj] = {o.id: o for o in objects}
        self.zones: dict[str, dict[str, list[str]]] = {
            p: {z: [o.id for o in objects if o.owner == p and o.zone == z] for z in ZONES}
            for p in PLAYERS}
        self.stack: list[str] = []          # bottom first
        self.effects: list[Continuous] = []
        self.shields: list[Shield] = []
        self.last_known: dict[tuple[str, int], Obj] = {}   # (id, incarnation) -> as it last was
        self.events: list[dict[str, Any]] = []
        #: Declared attackers as (id, incarnation); None: none declared this turn, []: their
        #: combat damage is done.
        self.attackers: list[tuple[str, int]] | None = None
        self._clock = 0

    def obj(self, oid: Any, what: str) -> Obj:
        found = self.objects.get(str(oid))
        if found is None:
            raise Rejected(f"{what}: no object with id {oid!r} in this game")
        return found

    def zone(self, player: str, zone: str) -> list[Obj]:
        return [self.objects[i] for i in self.zones[player][zone]]

    def in_zone(self, zone: str) -> list[Obj]:
        """Every object in ``zone``: p1's first (the stack: bottom first)."""
        if zone == "stack":
            return [self.objects[i] for i in self.stack]
        return [o for p in PLAYERS for o in self.zone(p, zone)]

    def everywhere(self) -> list[Obj]:
        return [o for z in ZONES for o in self.in_zone(z)]

    def as_it_was(self, oid: str, incarnation: int) -> Obj:
        """The object ``(oid, incarnation)``: the card now if it has not changed zones since,
        else its last known information (CR 113.7a, context)."""
        now = self.objects[oid]
        if now.incarnation == incarnation:
            return now
        return self.last_known.get((oid, incarnation), now)

    def move(self, obj: Obj, zone: str, *, top: bool = False, into: str | None = None) -> None:
        """Move ``obj`` to ``zone`` (its owner's unless ``into`` names another player's, or
        the shared stack); it becomes a new object (CR 400.7), its old self kept as last
        known information."""
        self.last_known[(obj.id, obj.incarnation)] = copy.copy(obj)
        if obj.zone == "stack":
            self.stack.remove(obj.id)
        else:
            self.zones[obj.owner][obj.zone].remove(obj.id)
        origin, obj.zone = obj.zone, zone
        obj.incarnation += 1
        if zone != "battlefield" or origin != "stack":
            obj.controller = obj.owner
        if zone == "stack":
            self.stack.append(obj.id)
        elif top:
            self.zones[into or obj.owner][zone].insert(0, obj.id)
        else:
            self.zones[into or obj.owner][zone].append(obj.id)
        if zone != "battlefield":
            obj.damage = 0
        self.emit("moved", card=obj.id, **{"from": origin, "to": zone})
