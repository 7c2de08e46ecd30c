"""What the seed says should happen, computed from the scenario and earlier observations.

No engine is consulted: each function is one seed sentence turned into
arithmetic on observations (``observe()`` dicts), so a property can say
"the state after the jammer must be the state before the effect, with these
costs paid" without asking any engine what the answer is.
"""

from __future__ import annotations

import copy
from typing import Any

State = dict[str, Any]
STEPS = ("attack_defense", "effects", "contest", "resolution")


def opponent(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def copied(state: State) -> State:
    """A copy of an observation deep enough to change any field of it."""
    return copy.deepcopy({"cards": state.get("cards", {}), "players": state.get("players", {})})


def canonical(state: State) -> State:
    """A state with zone lists sorted: the seed orders no pile."""
    out = copied(state)
    for player in out["players"].values():
        for zone in ("hand", "field", "discard"):
            if zone in player:
                player[zone] = sorted(player[zone])
    return out


def card_of(setup: dict[str, Any], cid: str) -> tuple[str, str, dict[str, Any]]:
    """(owner, zone, CARD) of a card in the setup."""
    for player in ("p1", "p2"):
        for zone in ("hand", "field", "discard"):
            for card in setup.get(player, {}).get(zone, []):
                if card["id"] == cid:
                    return player, zone, card
    raise KeyError(cid)


def start(setup: dict[str, Any]) -> State:
    """The observation docs/rulesets/zatch.md gives a setup before any step: its defaults
    filled in, nothing used, negated, staying or standing by, no battle."""
    turn = setup.get("turn", "p1")
    state: State = {"cards": {}, "players": {}}
    for player in ("p1", "p2"):
        side = setup.get(player, {})
        fields: dict[str, Any] = {"mp": side.get("mp", 0), "damage": side.get("damage", 0),
                                  "turn": turn == player, "phase": setup.get("phase", "main"),
                                  "battle_step": None}
        for zone in ("hand", "field", "discard"):
            fields[zone] = [card["id"] for card in side.get(zone, [])]
            for card in side.get(zone, []):
                state["cards"][card["id"]] = {"zone": zone, "owner": player, "used": 0,
                                              "negated": False, "staying": False,
                                              "standing_by": False}
        state["players"][player] = fields
    return state


def move(state: State, cid: str, zone: str) -> State:
    """``state`` with ``cid`` moved to its owner's ``zone``."""
    out = copied(state)
    card = out["cards"][cid]
    pile = out["players"][card["owner"]]
    pile[card["zone"]].remove(cid)
    pile[zone].append(cid)
    card["zone"] = zone
    return out


def placed_by_reading(setup: dict[str, Any], steps: list[dict[str, Any]]) -> set[str]:
    """The cards ``steps`` use from a hand without a cost that discards them: where each goes
    is zatch/reading/used-card-to-discard (the seed never says), so a seed-basis comparison
    leaves their zones and pile membership out (`unplaced`) and compares all the rest."""
    out: set[str] = set()
    for step in steps:
        cid = step["do"].get("use")
        if cid is None:
            continue
        _, zone, card = card_of(setup, cid)
        if zone == "hand" and not card.get("effect", {}).get("cost", {}).get("discard_self"):
            out.add(cid)
    return out


def unplaced(state: State, cards: set[str]) -> State:
    """``state`` without where ``cards`` are: their ``zone`` and their place in any pile."""
    out = copied(state)
    for cid in cards:
        out["cards"].get(cid, {}).pop("zone", None)
    for player in out["players"].values():
        for zone in ("hand", "field", "discard"):
            if zone in player:
                player[zone] = [c for c in player[zone] if c not in cards]
    return out


# -- jammer •2: costs stay paid -------------------------------------------------------------

def pay(state: State, cid: str, by: str, effect: dict[str, Any]) -> State:
    """``state`` after ``by`` paid what using ``cid`` costs: MP, and the card to the discard
    pile when the cost says so or the card was used from the hand (the latter is
    zatch/reading/used-card-to-discard: a seed-basis property compares such a card's place
    only through `unplaced`)."""
    out = copied(state)
    out["players"][by]["mp"] -= effect.get("cost", {}).get("mp", 0)
    zone = out["cards"][cid]["zone"]
    if zone == "hand" or (effect.get("cost", {}).get("discard_self") and zone != "discard"):
        out = move(out, cid, "discard")
    return out


def used_once_more(state: State, cid: str, negated: bool | None = None) -> State:
    """``state`` with ``cid`` counted as used once more (jammer •2: negated or not)."""
    out = copied(state)
    out["cards"][cid]["used"] += 1
    if negated is not None:
        out["cards"][cid]["negated"] = negated
    return out


# -- use-most •1: what an effect does when it resolves ------------------------------------

def use(state: State, cid: str, by: str, effect: dict[str, Any]) -> State:
    """``state`` after ``by`` used ``cid`` and nothing answered it: paid, counted as used,
    resolved at once (use-most •1, nonbattle •4)."""
    return resolve(used_once_more(pay(state, cid, by, effect), cid), cid, by, effect)


def resolve(state: State, cid: str, by: str, effect: dict[str, Any]) -> State:
    """``state`` after the effect resolved at once: a stay goes into force and applies its
    instructions, a standby waits, anything else applies its instructions."""
    out = copied(state)
    if "standby" in effect:
        out["cards"][cid]["standing_by"] = True
        return out
    if "stay" in effect:
        out["cards"][cid]["staying"] = True
    for part in effect.get("do", []):
        out = apply(out, by, part)
    return out


def apply(state: State, by: str, part: dict[str, Any]) -> State:
    """One instruction of the kinds the generators use outside battles: MP, damage, discard
    (a card in hand or on the field goes to its owner's 捨て札), remove (that card's staying
    or standing-by effect is no longer in force); a 使えない shows in no observation."""
    out = copied(state)
    (key, spec), = part.items()
    if key == "mp":
        who = by if spec.get("player", "self") == "self" else opponent(by)
        out["players"][who]["mp"] = max(0, out["players"][who]["mp"] + spec["amount"])
    elif key == "damage":
        who = opponent(by) if spec.get("player", "opponent") == "opponent" else by
        out["players"][who]["damage"] += spec["amount"]
    elif key == "discard" and out["cards"][spec["card"]]["zone"] != "discard":
        out = move(out, spec["card"], "discard")
    elif key == "remove":
        out["cards"][spec["card"]]["staying" if spec["what"] == "stay" else "standing_by"] = False
    return out


# -- when an effect may be used (battle •2, •3, ※, nonbattle •2, •3, readings) -------------

def usable(effect: dict[str, Any], by: str, turn: str, phase: str,
           battle: dict[str, Any] | None) -> bool:
    """Whether ``by`` may use ``effect`` now, with no restriction in force."""
    kind: str = effect.get("kind", "ordinary")
    if kind == "on_field":
        return False
    if battle is None:
        if kind == "non_battle_spell":
            own = turn == by
            return phase == "battle" and (own if effect["side"] == "attack" else not own)
        return kind == "ordinary"
    if battle["step"] == "attack_defense":
        return kind == ("attack" if by == battle["attacker"] else "defense")
    if battle["step"] == "effects":
        return kind == "battle"
    return False


def contest_winner(attack: int, defense: int, attacker: str) -> str | None:
    """zatch/reading/contest-winner: the higher total wins, a tie has no winner."""
    if attack == defense:
        return None
    return attacker if attack > defense else opponent(attacker)


def chain_negated(depth: int, position: int) -> bool:
    """jammer •5: in a chain of ``depth`` jammers after an effect (position 0), whether the
    item at ``position`` ends up negated: the last jammer stands, each one before it is
    negated exactly when the one after it stands."""
    return (depth - position) % 2 == 1
