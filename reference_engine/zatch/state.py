"""The state of one Zatch game.

`Board` is everything a negation can restore (MP, zones, effects in force,
the battle); `Game` adds what a negation never touches: the record of every
effect used (used stays used), the action history and the event log.  No rule
is decided here; the rules record is injected as ``game.rules``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from reference_engine._bookkeeping import Bookkeeping
from reference_engine.zatch.model import PLAYERS, ZONES, Card, Effect


@dataclasses.dataclass
class Battle:
    attacker: str
    step: str = "attack_defense"
    spells: list[int] = dataclasses.field(default_factory=list)   # attack/defense instances
    power: dict[str, int] = dataclasses.field(default_factory=lambda: {p: 0 for p in PLAYERS})
    winner: str | None = None


@dataclasses.dataclass
class Board:
    """What "the state before the effect resolved" means: restorable as a whole."""

    turn: str
    phase: str
    mp: dict[str, int]
    damage: dict[str, int]
    zones: dict[str, dict[str, list[str]]]
    staying: dict[str, str] = dataclasses.field(default_factory=dict)   # card -> until
    standby: dict[str, str] = dataclasses.field(default_factory=dict)   # card -> when
    negated: set[int] = dataclasses.field(default_factory=set)          # instance numbers
    battle: Battle | None = None

    def copy(self) -> Board:
        """A deep copy, written out: a game copies its board before every action."""
        battle = None if self.battle is None else dataclasses.replace(
            self.battle, spells=list(self.battle.spells), power=dict(self.battle.power))
        return Board(turn=self.turn, phase=self.phase, mp=dict(self.mp), damage=dict(self.damage),
                     zones={p: {z: list(ids) for z, ids in zones.items()}
                            for p, zones in self.zones.items()},
                     staying=dict(self.staying), standby=dict(self.standby),
                     negated=set(self.negated), battle=battle)


@dataclasses.dataclass
class Instance:
    """One effect that was used (or fired): the unit a negation acts on."""

    n: int
    card: str
    by: str
    effect: Effect
    how: str                     # "used", "fired" (standby), "on_field"
    before: Board                # after its costs, before it resolved
    before_costs: Board          # before its costs
    costs: list[tuple[str, Any]] = dataclasses.field(default_factory=list)
    resolved: bool = False


@dataclasses.dataclass
class Action:
    by: str
    kind: str
    produced: list[int] = dataclasses.field(default_factory=list)
    discarded: list[str] = dataclasses.field(default_factory=list)   # by its effects


class Game(Bookkeeping):
    def __init__(self, rules: Any, settings: dict[str, Any], cards: list[tuple[Card, str]]):
        self.rules = rules
        self.cards: dict[str, Card] = {card.id: card for card, _ in cards}
        zones = {p: {z: [c.id for c, at in cards if c.owner == p and at == z] for z in ZONES}
                 for p in PLAYERS}
        self.board = Board(turn=settings["turn"], phase=settings["phase"],
                           mp=dict(settings["mp"]), damage=dict(settings["damage"]), zones=zones)
        self.instances: list[Instance] = []
        self.used: dict[str, int] = {}
        self.history: list[Action] = []
        self.pending: list[int] = []       # instances whose resolution waits (mutants only)
        self.armed: list[int] = []         # jammers used in advance (mutants only)
        self.events: list[dict[str, Any]] = []

    def effect_of(self, card: str) -> Effect:
        """The effect of a card that must have one: used, in force, standing by or firing."""
        effect = self.cards[card].effect
        if effect is None:
            raise RuntimeError(f"card {card!r} has no effect, yet it is used, in force or fired "
                               "as if it had one")
        return effect

    def zone_of(self, card: str) -> str:
        owner = self.cards[card].owner
        return next(z for z in ZONES if card in self.board.zones[owner][z])

    def move(self, card: str, zone: str) -> None:
        owner = self.cards[card].owner
        self.board.zones[owner][self.zone_of(card)].remove(card)
        self.board.zones[owner][zone].append(card)

    def controller_of(self, card: str) -> str:
        """Who controls a card's lasting effect: whoever used it last."""
        for inst in reversed(self.instances):
            if inst.card == card:
                return inst.by
        return self.cards[card].owner
