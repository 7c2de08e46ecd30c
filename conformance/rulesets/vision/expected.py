"""What the seed says should happen, computed without any engine.

Each function here is a small, independent reading of one passage of the
Vision seed (the rule index entries named in each docstring), written from the
rule text, never from an engine's output.  The properties compare an engine's
observations against these.  Where the seed is silent the function follows a
reading of the rule index (``vision/reading/...``), named in its docstring, and
every property relying on it is tagged with that reading.
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
    kind, modifiers apply in arrival order, so the last ``change`` of an item
    wins (QA-298); ``swap`` exchanges the two values.  That ``always`` sets the
    values it gives is the reading vision/reading/always-sets-the-value.
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
    """A card's printed power with its variable X fixed (the step before 6.1.10), counted
    from ``controller``'s zones as they are now
    (vision/reading/variable-counted-when-power-is-computed)."""
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


def same_name(names: Iterable[str], others: Iterable[str]) -> bool:
    """12.3.2 「過不足無く一致」 with vision/reading/same-name-any-name-exactly: some name
    of one (printed, changed or through 連結) equals some name of the other exactly."""
    others = [o for o in others if o]
    return any(name == other for name in names if name for other in others)


# -- 12: resolution, and the single-target instructions it stops at ---------------------

def whole_deck_by_no_count(op_args: dict[str, Any], deck: list[dict[str, Any]]) -> bool:
    """3.2.5 / .a / .b: was the whole deck seen by an effect that named no count?"""
    if "count" in op_args:
        return False  # 3.2.5.b: a count never shuffles, even if it covered the deck
    if op_args.get("all"):
        return True
    ref = op_args["until"]["name_ref"]
    hits = [i for i, c in enumerate(deck) if refers_to(names_of(c), ref)]
    return not hits or hits[0] == len(deck) - 1


def seen_cards(op_args: dict[str, Any], deck: list[dict[str, Any]]) -> list[str]:
    ids = [c["id"] for c in deck]
    if "count" in op_args:
        return ids[:op_args["count"]]
    if op_args.get("all"):
        return ids
    ref = op_args["until"]["name_ref"]
    for i, c in enumerate(deck):
        if refers_to(names_of(c), ref):
            return ids[:i + 1]
    return ids


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
        if "same_name_as" in flt and not same_name(self.names[cid],
                                                   self.names.get(flt["same_name_as"], [])):
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

    def apply(self, instruction: dict[str, Any], me: str, chosen: Sequence[str] = (),
              source: str | None = None) -> bool:
        """Apply one INSTRUCTION as the seed reads; return False when it cannot be applied.

        Covers the instructions the resolution property generates: damage and
        return to a named card, ``chosen`` cards, ``this`` or ``all``, and draw
        and discard.  A part naming several cards is applied only if applied
        to each (12/p3 spares "all" alone).  Readings (the seed is silent): a
        part acting on a card not on the field, or damage to a non-character,
        is not applied (vision/reading/what-cannot-be-applied); "all" succeeds even if it
        affects none of its cards (vision/reading/all-with-every-card-failing);
        a short draw or discard takes nothing
        (vision/reading/short-draw-discard-does-nothing).
        """
        (op, args), = instruction.items()
        players = {"self": me, "opponent": "p2" if me == "p1" else "p1"}
        if op in ("damage", "return_to_hand"):
            target = args["target"]
            if isinstance(target, dict) and "all" in target:  # 12/p3, p4: "all" never fails
                for cid in [c for c in self.zone if self.matches(c, target["all"], me)]:
                    self._affect(op, cid, args)
                return True
            cids = (list(chosen) if target == "chosen" else [source] if target == "this"
                    else [target["card"]])
            results = [self._affect(op, cid, args) for cid in cids if cid is not None]
            return bool(results) and all(results)
        if op in ("draw", "discard"):
            pile = (self.deck if op == "draw" else self.hand)[players[args["player"]]]
            if len(pile) < args["count"]:
                return False
            for _ in range(args["count"]):
                self._move(pile[0], "hand" if op == "draw" else "graveyard")
            return True
        raise ValueError(f"the resolution model does not cover {op!r}")

    def affects(self, op: str, cid: str) -> bool:
        """Can ``op`` (damage, return_to_hand) be applied to card ``cid`` now: on the
        field, not immune to it, and (for damage) a character?"""
        immunity = "damage" if op == "damage" else "return"
        return (self.zone.get(cid) == "field" and immunity not in self.immune[cid]
                and (op != "damage" or self.types[cid] == "character"))

    def _affect(self, op: str, cid: str, args: dict[str, Any]) -> bool:
        """Damage or return one card, if it can be (`affects`)."""
        if not self.affects(op, cid):
            return False
        self._hit(op, cid, args)
        return True

    def _hit(self, op: str, cid: str, args: dict[str, Any]) -> None:
        if op == "damage":
            self.damage[cid] += args["amount"]
        else:
            self._move(cid, "hand")


def resolve(board: Board, effect: Sequence[dict[str, Any]], me: str,
            chosen: Sequence[str] = (), source: str | None = None) -> int | None:
    """12/p1-p2: apply from the head; stop at the first part that fails.

    Returns the index of the failing instruction, or None when the effect
    completed.
    """
    for index, instruction in enumerate(effect):
        if not board.apply(instruction, me, chosen, source):
            return index
    return None
