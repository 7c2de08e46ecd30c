"""The objects a Vision game is made of: cards, clauses, modifiers, effects.

Plain data only; the rules that act on them live in the modules named after
the rule (``names``, ``power``, ``deathblow``, ``negation``, ``deck``, ...).
"""

from __future__ import annotations

import dataclasses
from typing import Any

#: A normalised INSTRUCTION: (operation, arguments).
Part = tuple[str, dict[str, Any]]

PLAYERS = ("p1", "p2")
ZONES = ("deck", "hand", "field", "graveyard")  # the setup's key order


@dataclasses.dataclass
class Clause:
    """One block of a card's text (vocabulary CLAUSE)."""

    kind: str                                   # play | auto | continuous
    unnegatable: bool = False                   # printed inside 【 】
    when: dict[str, Any] | None = None          # auto: the TRIGGER
    parts: list[Part] = dataclasses.field(default_factory=list)
    modifier: dict[str, Any] | None = None      # continuous: power or cost modifier
    applies_to: Any = None                      # SELECTOR for modifier / gain
    gain: list[Clause] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Card:
    """A card and everything the rules track about it."""

    id: str
    owner: str
    type: str
    cost: int | str
    power: tuple[int | str, int | str] | None   # printed "a/d"; None: no combat power given
    x: Any                                      # what X in `power` counts
    immune: frozenset[str]
    texts: list[Clause]
    printed_name: str
    printed_links: list[str]
    number: Any = None
    zone: str = "hand"
    name: str = ""                              # the printed name now (変装 changes it)
    link_names: list[str] = dataclasses.field(default_factory=list)
    damage: int = 0
    x_paid: int | None = None                   # X fixed when it was played
    gained: list[Clause] = dataclasses.field(default_factory=list)
    text_negated: bool = False
    text_negation_total: bool = False           # ... including 【】 clauses
    auto_negated: bool = False
    auto_negation_total: bool = False
    deathblow: bool = False
    deathblow_cause: str | None = None
    deathblow_by_battle: bool = False
    last_damage_source: str | None = None
    last_damage_battle: bool = False
    last_hit: int = 0                           # read only by mutants: the latest damage
    first_damage_source: str | None = None      # read only by mutants
    battle_damaged: bool = False                # read only by mutants: took battle damage
    entered_at: int = 0                         # timestamp of entering the field
    power_snapshot: tuple[int, int] | None = None

    @property
    def has_durability(self) -> bool:
        """Only characters with a printed power are checked against 9.2.2.a/b."""
        return self.type == "character" and self.power is not None


@dataclasses.dataclass
class Modifier:
    """A combat-power modifier (6.1.10) on one card."""

    kind: str                                   # change | swap | add | always
    attack: int | str | None
    durability: int | str | None
    x: Any = None                               # what "X" counts, if a value is "X"
    source: str | None = None
    ts: tuple[int, int] = (0, 0)                # arrival order: (timestamp, tiebreak)
    target: str | None = None                   # for instruction modifiers


@dataclasses.dataclass(eq=False)
class Effect:
    """One effect being resolved: a whole text (chapter 12)."""

    controller: str
    parts: list[Part]
    source: str | None = None
    chosen: list[str] = dataclasses.field(default_factory=list)
    x: int | None = None                        # X of the source, for "X" amounts
    from_unnegatable: bool = False              # produced by a 【】 clause
    answers: Effect | None = None               # for `targeted` triggers: the effect to negate
    negated: bool = False
    clause: Clause | None = None                # the auto clause it came from (2.12.3)
