"""Combat as a real game plays it: `attack` and `combat_damage` (the vocabulary's declare
attackers and combat damage step), and `combat` (a harness ``damage`` with ``combat: true``:
one attack played through and the game put back at the case's step)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from conformance import Unsupported

from .mapping import MAX_PASSES, PASS, PLAYERS, SEATS
from .observation import events_of, keyword
from .state import Rejected

if TYPE_CHECKING:
    from .state import GameState


def attack(g: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Declare attackers as a real game does: the active player, with an empty stack,
    passes priority from the beginning of combat to the declare attackers step and
    declares each creature as an attacker of the opponent (no blockers follow)."""
    seat = g.seat(action["by"])
    if seat != g.active:
        raise Rejected(f"only the active player ({PLAYERS[g.active]}) declares "
                        "attackers")
    if g.attackers is not None:
        raise Rejected("attackers were already declared this turn")
    oids = [g.oid(a) for a in action["attack"]]
    st = g.view()["state"]
    if st["stack"]:
        raise Rejected("attackers are declared with an empty stack")
    pools = _pools(g)
    state = g.edit()
    st = state["state"]
    st["phase"] = "BeginCombat"
    st["priority_player"] = seat
    st["waiting_for"] = {"type": "Priority", "data": {"player": seat}}
    g.load(state)
    events: list[dict[str, Any]] = []
    for _ in range(MAX_PASSES):
        kind = g.game.waiting_for()["type"]
        if kind == "DeclareAttackers":
            defender = {"type": "Player", "data": 1 - seat}
            events += g.apply_raw(seat, {"type": "DeclareAttackers", "data": {
                "attacks": [[oid, defender] for oid in oids], "bands": []}})
            g.attackers = list(action["attack"])
            g.step = g.game.phase
            refill(g, pools)
            return events_of(g, events)
        if kind != "Priority":
            raise Unsupported(f"phase.rs prompt {kind} before attackers is not mapped",
                              kind="not-mapped")
        events += g.apply_raw(g.game.priority_player(), PASS)
    raise Unsupported("phase.rs did not ask for attackers", kind="not-mapped")


def _pools(g: GameState) -> list[Any]:
    return [copy.deepcopy(p["mana_pool"]) for p in g.view()["state"]["players"]]


def refill(g: GameState, pools: list[Any]) -> None:
    """Put back the pools a step change emptied (CR 500.4): the vocabulary's pool
    lasts the whole case, standing for mana a player could make (docs/rulesets/mtg.md)."""
    if _pools(g) != pools:
        state = g.edit()
        for player, pool in zip(state["state"]["players"], pools, strict=True):
            player["mana_pool"] = pool
        g.load(state)


def combat_damage(g: GameState) -> list[dict[str, Any]]:
    """The combat damage step: both players pass through the declare blockers step
    (the defending player declares no blockers) until the attackers' combat damage is
    dealt."""
    if not g.attackers:
        raise Rejected("no declared attackers are waiting to deal combat damage")
    if g.view()["state"]["stack"]:
        raise Rejected("the combat damage step starts with an empty stack")
    pools = _pools(g)
    events: list[dict[str, Any]] = []
    for _ in range(MAX_PASSES):
        waiting = g.game.waiting_for()
        kind = waiting["type"]
        if kind == "Priority":
            if g.game.phase in ("CombatDamage", "EndCombat", "PostCombatMain"):
                break
            events += g.apply_raw(g.game.priority_player(), PASS)
        elif kind == "DeclareBlockers":
            events += g.apply_raw(1 - g.active, {"type": "DeclareBlockers",
                                                        "data": {"assignments": []}})
        else:
            raise Unsupported(f"phase.rs prompt {kind} in combat is not mapped",
                              kind="not-mapped")
    else:
        raise Unsupported("phase.rs did not reach the combat damage step",
                          kind="not-mapped")
    attackers, g.attackers, g.step = g.attackers, [], g.game.phase
    refill(g, pools)
    out = [e for e in events_of(g, events) if e["type"] in ("damage", "prevented")]
    # phase.rs 0.103.0 reports a combat-damage prevention by a chosen-source shield
    # with source_id 0: it is the one attacker whose damage was not dealt
    dealt = {e["source"] for e in out if e["type"] == "damage"}
    silent = [a for a in attackers if a not in dealt]
    for e in out:
        if e["type"] == "prevented" and e["source"] == 0 and len(silent) == 1:
            e["source"] = silent[0]
    return out


def combat(g: GameState, damage: dict[str, Any]) -> list[dict[str, Any]]:
    """Combat damage as a real game deals it: the source's controller becomes the
    active player at the beginning of combat, declares the source as an attacker of
    the damaged player (or of the player controlling the damaged creature, which then
    blocks it), and both players pass priority through to the combat-damage step.
    Afterwards the game is put back at the case's step with the setup's active player
    (the vocabulary has one turn; docs/engines/phase.md)."""
    source, to, amount = damage["source"], damage["to"], damage["amount"]
    oid = g.oid(source)
    st = g.view()["state"]
    obj = st["objects"][str(oid)]
    if obj["zone"] != "Battlefield" or "Creature" not in obj["card_types"]["core_types"]:
        raise Rejected(f"{source} is not a creature on the battlefield: it cannot "
                        "attack, so it deals no combat damage")
    if st["stack"]:
        raise Unsupported("combat damage with a non-empty stack: combat would resolve "
                          "the stack first",
                          kind="not-mapped")
    if obj.get("power") != amount:
        raise Unsupported(f"combat damage of {amount} from {source} with power "
                          f"{obj.get('power')}: a real combat deals its power",
                          kind="impossible")
    attacker = obj["controller"]
    if to in SEATS:
        defender, blocker = SEATS[to], None
    else:
        blocker = g.oid(to)
        defender = st["objects"][str(blocker)]["controller"]
    if defender == attacker:
        raise Unsupported(f"combat damage from {source} to its own controller's side: "
                          "no real combat has it",
                          kind="impossible")
    sick = obj.get("summoning_sick") or obj.get("has_summoning_sickness")
    if sick and "haste" not in {keyword(k) for k in obj.get("keywords", [])}:
        raise Unsupported(f"{source} came under its controller's control this turn and "
                          "cannot attack (CR 302.6)",
                          kind="impossible")
    tapped = obj.get("tapped", False)
    events = _play_combat(g, attacker, defender, oid, blocker)
    # back to the case's step: its active player, nothing in combat, the attacker as it was
    state = g.edit()
    st = state["state"]
    st["phase"], st["combat"] = g.step, None
    st["active_player"] = st["priority_player"] = g.active
    st["waiting_for"] = {"type": "Priority", "data": {"player": g.active}}
    attacked = st["objects"].get(str(oid))
    if attacked is not None:
        attacked["tapped"] = tapped
    g.load(state)
    out = [e for e in events_of(g, events) if e["type"] in ("damage", "prevented")]
    # phase.rs 0.103.0 reports a combat-damage prevention by a chosen-source shield
    # with source_id 0; in this combat the declared attacker is the one source of damage
    # to the attacked side, and the blocker the one source of damage to the attacker
    blocker_id = g.names.get(blocker) if blocker is not None else None
    for e in out:
        if e["type"] == "prevented" and e["source"] == 0:
            e["source"] = blocker_id if e["to"] == source else source
    return out


def _play_combat(g: GameState, attacker: int, defender: int, oid: int,
                 blocker: int | None) -> list[dict[str, Any]]:
    state = g.edit()
    st = state["state"]
    st["phase"] = "BeginCombat"
    st["active_player"] = st["priority_player"] = attacker
    st["waiting_for"] = {"type": "Priority", "data": {"player": attacker}}
    g.load(state)
    events: list[dict[str, Any]] = []
    for _ in range(MAX_PASSES):
        waiting = g.game.waiting_for()
        kind = waiting["type"]
        if kind == "Priority":
            if g.game.phase in ("EndCombat", "PostCombatMain"):
                return events
            events += g.apply_raw(g.game.priority_player(), PASS)
        elif kind == "DeclareAttackers":
            attack = {"type": "DeclareAttackers", "data": {
                "attacks": [[oid, {"type": "Player", "data": defender}]], "bands": []}}
            events += g.apply_raw(attacker, attack)
        elif kind == "DeclareBlockers":
            blocks = [[blocker, oid]] if blocker is not None else []
            events += g.apply_raw(defender, {"type": "DeclareBlockers",
                                                 "data": {"assignments": blocks}})
        else:
            raise Unsupported(f"phase.rs prompt {kind} in combat is not mapped",
                              kind="not-mapped")
    raise Unsupported("phase.rs did not finish the combat",
                      kind="not-mapped")
