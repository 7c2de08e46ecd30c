"""What the seed says should happen, computed without any engine.

Each function here is a small, independent reading of one passage of the
Vision seed (``shared/seeds/000_fb81adb92f735097.txt``), written from the rule
text, never from an engine's output.  The properties compare an engine's
observations against these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

# -- 6.1.10: combat-power modifiers --------------------------------------------------

#: The order of 6.1.10: .a change, .b swap, .c add, .d "always".
MODIFIER_ORDER = ("change", "swap", "add", "always")


def power_after(base: tuple[int, int], modifiers: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """Attack and durability after 6.1.10, from variable-free base values.

    Variables are fixed before this is called (6.1.10, QA-356).  Within one
    kind, modifiers apply in arrival order, so the last ``change`` or
    ``always`` of an item wins (QA-298); ``swap`` exchanges the two values.
    """
    attack, durability = base
    for kind in MODIFIER_ORDER:
        for mod in modifiers:
            if mod["kind"] != kind:
                continue
            if kind in ("change", "always"):
                attack = mod.get("attack", attack)
                durability = mod.get("durability", durability)
            elif kind == "swap":
                attack, durability = durability, attack
            else:
                attack += mod.get("attack", 0)
                durability += mod.get("durability", 0)
    return attack, durability


def base_power(card: dict[str, Any], controller: dict[str, Any]) -> tuple[int, int]:
    """A card's printed power with its variable X fixed (the step before 6.1.10)."""
    spec = card.get("x")
    x: int | None
    if isinstance(spec, dict):
        x = len(controller.get(spec["count"], []))
    elif spec == "cost":
        x = card.get("cost", 0)
    else:
        x = spec
    attack, durability = str(card.get("power", "0/0")).split("/")

    def side(printed: str) -> int:
        if printed != "X":
            return int(printed)
        if x is None:
            raise ValueError(f"card {card.get('id')!r} has X in its power "
                             f"{card.get('power')!r} but no x saying what X counts")
        return x

    return side(attack), side(durability)


# -- 12.3: name reference ------------------------------------------------------------

def names_of(card: dict[str, Any], printed: str | None = None) -> list[str]:
    """Every name a card has: its printed (or changed) name, then its link names.

    A name change (変装) replaces only the printed name: names gained through
    link stay (QA-2014-11-27).
    """
    name = card.get("name", "") if printed is None else printed
    return [name, *card.get("link_names", [])]


def refers_to(names: Iterable[str], ref: str) -> bool:
    """12.3.1: referring to name A refers to every card one of whose names contains A."""
    return any(ref in name for name in names)


# -- 12: resolution, and the single-target instructions it stops at ---------------------

@dataclasses.dataclass
class Board:
    """The little state the resolution model needs: zones, damage, immunity."""

    zone: dict[str, str]                 # card id -> field | hand | deck | graveyard
    owner: dict[str, str]                # card id -> p1 | p2
    damage: dict[str, int]
    immune: dict[str, list[str]]
    names: dict[str, list[str]]
    types: dict[str, str]
    deck: dict[str, list[str]]           # player -> ids, top first
    hand: dict[str, list[str]]

    @classmethod
    def from_setup(cls, setup: dict[str, Any]) -> Board:
        board = cls({}, {}, {}, {}, {}, {}, {"p1": [], "p2": []}, {"p1": [], "p2": []})
        for player in ("p1", "p2"):
            side = setup.get(player, {})
            for zone in ("deck", "hand", "field", "graveyard"):
                for card in side.get(zone, []):
                    cid = card["id"]
                    board.zone[cid] = zone
                    board.owner[cid] = player
                    board.damage[cid] = card.get("damage", 0)
                    board.immune[cid] = list(card.get("immune", []))
                    board.names[cid] = names_of(card)
                    board.types[cid] = card.get("type", "character")
            board.deck[player] = [c["id"] for c in side.get("deck", [])]
            board.hand[player] = [c["id"] for c in side.get("hand", [])]
        return board

    def matches(self, cid: str, flt: dict[str, Any], me: str) -> bool:
        """Does card ``cid`` satisfy FILTER ``flt`` for an effect controlled by ``me``?"""
        if self.zone[cid] != flt.get("zone", "field"):
            return False
        controller = flt.get("controller", "any")
        if controller == "self" and self.owner[cid] != me:
            return False
        if controller == "opponent" and self.owner[cid] == me:
            return False
        if "type" in flt and self.types[cid] != flt["type"]:
            return False
        if "name_ref" in flt and not refers_to(self.names[cid], flt["name_ref"]):
            return False
        return flt.get("not") != cid

    def _move(self, cid: str, to: str) -> None:
        player = self.owner[cid]
        if self.zone[cid] == "hand":
            self.hand[player].remove(cid)
        if self.zone[cid] == "deck":
            self.deck[player].remove(cid)
        self.zone[cid] = to
        if to == "hand":
            self.hand[player].append(cid)
        if to != "field":
            self.damage[cid] = 0

    def apply(self, instruction: dict[str, Any], me: str) -> bool:
        """Apply one INSTRUCTION as the seed reads; return False when it cannot be applied.

        Covers the instructions the resolution property generates: single-card
        and ``all`` damage and return, and count-1 draw and discard.
        """
        (op, args), = instruction.items()
        players = {"self": me, "opponent": "p2" if me == "p1" else "p1"}
        if op in ("damage", "return_to_hand"):
            target = args["target"]
            immunity = "damage" if op == "damage" else "return"
            if "all" in target:  # 12/p3, p4: "all" never fails
                hit = [c for c in self.zone if self.matches(c, target["all"], me)]
                for cid in hit:
                    if immunity not in self.immune[cid]:
                        self._hit(op, cid, args)
                return True
            cid = target["card"]
            if self.zone[cid] != "field" or immunity in self.immune[cid]:
                return False
            self._hit(op, cid, args)
            return True
        if op == "draw":
            player = players[args["player"]]
            if len(self.deck[player]) < args["count"]:
                return False
            for _ in range(args["count"]):
                self._move(self.deck[player][0], "hand")
            return True
        if op == "discard":
            player = players[args["player"]]
            if len(self.hand[player]) < args["count"]:
                return False
            for _ in range(args["count"]):
                self._move(self.hand[player][0], "graveyard")
            return True
        raise ValueError(f"the resolution model does not cover {op!r}")

    def _hit(self, op: str, cid: str, args: dict[str, Any]) -> None:
        if op == "damage":
            self.damage[cid] += args["amount"]
        else:
            self._move(cid, "hand")


def resolve(board: Board, effect: Sequence[dict[str, Any]], me: str) -> int | None:
    """12/p1-p2: apply from the head; stop at the first part that fails.

    Returns the index of the failing instruction, or None when the effect
    completed.
    """
    for index, instruction in enumerate(effect):
        if not board.apply(instruction, me):
            return index
    return None
