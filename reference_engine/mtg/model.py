"""The objects an MTG game is made of: players, objects, continuous effects, shields.

Plain data only; the rules that act on them live in the modules named after
the rule family (``characteristics``, ``casting``, ``prevention``, ...).
"""

from __future__ import annotations

import dataclasses
from typing import Any

PLAYERS = ("p1", "p2")
ZONES = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command")
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker",
                             "battle"})


@dataclasses.dataclass
class Obj:
    """A card, a spell, a permanent or an ability on the stack (vocabulary OBJECT)."""

    id: str
    owner: str
    name: str = ""
    oracle_name: str | None = None
    types: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    mana_cost: dict[str, int] = dataclasses.field(default_factory=dict)
    power: int | None = None
    toughness: int | None = None
    abilities: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    face_down: bool = False
    zone: str = "hand"
    controller: str = ""
    damage: int = 0
    mana_spent: dict[str, int] = dataclasses.field(default_factory=dict)
    cast_with_flashback: bool = False
    incarnation: int = 0               # bumped on every zone change: a new object (CR 400.7)
    ability_of: str | None = None      # an ability on the stack: the object it comes from
    source_incarnation: int = 0        # ... as that object was when activated (CR 113.7a)
    effect: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # ability's text

    @property
    def keywords(self) -> list[str]:
        return [a["keyword"] for a in self.abilities if "keyword" in a]

    def statics(self) -> list[dict[str, Any]]:
        return [a["static"] for a in self.abilities if "static" in a]

    def ability(self, key: str) -> dict[str, Any] | None:
        return next((a for a in self.abilities if key in a), None)


@dataclasses.dataclass
class Continuous:
    """A continuous effect created by a resolving spell or ability, until end of turn."""

    kind: str                          # become | cost_change | grant
    controller: str
    source: str | None
    timestamp: int
    data: dict[str, Any]
    affected: frozenset[tuple[str, int]] = frozenset()   # become: (id, incarnation) locked in


@dataclasses.dataclass
class Shield:
    """A prevention shield (609.7): who it protects, from what, how much is left."""

    id: str
    to: str                            # a player id or an object id
    controller: str
    timestamp: int
    source: tuple[str, int] | None     # the chosen source: (id, incarnation)
    follows_spell: bool = False        # chosen a permanent spell: also the permanent it becomes
    require: dict[str, Any] | None = None   # characteristic limit, e.g. {color: red}
    matched_at_creation: frozenset[str] = frozenset()
    remaining: int | None = None       # None: "all" the damage the next time
    used_up: bool = False
