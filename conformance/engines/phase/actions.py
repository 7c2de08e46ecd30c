"""The action mapping: each vocabulary action as phase.rs game actions.

Real game actions where the vocabulary has them (cast, activate and pay, pass priority to
resolve and answer its choice; combat is `combat`'s; mtg vocabulary 3); a harness-only
action (``apply``, ``damage``, ``move``) is played as an activated ability ``{0}: <text>``
the adapter adds to its source (or, with no source, to an enchantment of its controller's),
so phase.rs's own rules decide what it does (an ability of a card in exile, which phase.rs's
list of legal actions omits, is applied and phase.rs's own activation check accepts or
refuses it).  Targets and choices phase.rs prompts for are answered from the action (its
``choose``, its card: `prompts`).  Anything it cannot map raises `Unsupported` with the
reason; it never makes up a result."""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from conformance import Unsupported
from conformance.rulesets.mtg import oracle

from .cards import carrier, checked_face
from .combat import attack, combat, combat_damage
from .mapping import EFFECT_EVENTS, MAX_PASSES, PASS, PLAYERS, SEATS, ZONE_OF, ZONE_WORDS
from .observation import events_of
from .prompts import pool, settle
from .state import Rejected

if TYPE_CHECKING:
    from .state import GameState


def act(g: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    if "cast" in action:
        return cast(g, action)
    if "activate" in action:
        return activate(g, action)
    if action.get("resolve") == "top":
        return resolve(g, action.get("choose"))
    if "attack" in action:
        return attack(g, action)
    if action.get("step") == "combat_damage":
        return combat_damage(g)
    if "damage" in action:
        return damage(g, action["damage"])
    if "apply" in action:
        return apply(g, action["apply"])
    if "move" in action:
        return move(g, action)
    raise Unsupported(f"action {sorted(action)} is not mapped",
                      kind="not-mapped")


def cast(g: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    seat, oid = g.seat(action.get("by", "p1")), g.oid(action["cast"])
    events: list[dict[str, Any]] = []
    g.give_priority(seat, events)
    offered = [a for a in g.actions()
               if a.kind == "CastSpell" and a.data.get("object_id") == oid]
    if not offered:
        raise Rejected(f"phase.rs offers no cast of {action['cast']}")
    cast = offered[0].to_dict()
    cast["data"]["payment_mode"] = {"type": "Manual"}
    pool_before = pool(g, seat)
    events += g.apply_raw(seat, cast)
    events += settle(g, seat, action, pay=action.get("pay", {}))
    spent = _minus(pool_before, pool(g, seat))
    if _nonzero(spent) != _nonzero(action.get("pay", {})):
        raise Rejected(f"phase.rs took {spent} from the pool, the action pays "
                        f"{action.get('pay')}")
    return events_of(g, events)


def activate(g: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    seat, oid = g.seat(action.get("by", "p1")), g.oid(action["activate"])
    events: list[dict[str, Any]] = []
    g.give_priority(seat, events)
    offered = [a for a in g.actions()
               if a.kind == "ActivateAbility" and a.data.get("source_id") == oid]
    n = action.get("ability", 0)
    if len(offered) <= n:
        raise Rejected(f"phase.rs offers {len(offered)} activation(s) of "
                        f"{action['activate']}")
    events += g.apply_raw(seat, offered[n])
    events += settle(g, seat, action)
    top = g.view()["state"]["stack"][-1]
    if "as" in action:
        g.stack_ids[top["id"]] = action["as"]
        g.ability_of[action["as"]] = action["activate"]
    return events_of(g, events, ability=action.get("as"))


def resolve(g: GameState, choose: str | None) -> list[dict[str, Any]]:
    """Both players pass: the top of the stack resolves, and ``choose`` answers the
    choice its text asks for as it resolves (a source of your choice)."""
    if not g.view()["state"]["stack"]:
        raise Rejected("the stack is empty")
    g.resolving = {"choose": choose}
    events = resolve_raw(g)
    if choose is not None and not g.resolving.get("asked"):
        raise Rejected("the text asks for no choice (resolve without choose)")
    return events_of(g, events)


def damage(g: GameState, damage: dict[str, Any]) -> list[dict[str, Any]]:
    if damage.get("combat"):
        return combat(g, damage)
    source = damage["source"]
    to = damage["to"]
    text = f"{{0}}: ~ deals {damage['amount']} damage to any target."
    obj = g.object(g.oid(source))
    where = ZONE_WORDS.get(obj["zone"])
    if where is None:
        by = controller(g, source)
    else:
        # a card's ability that works where the card is (CR 113.6k: an ability that says
        # it is activated from a zone other than the battlefield works there); its owner
        # activates it
        text += f" Activate only if ~ is {where}."
        by = PLAYERS[obj["owner"]]
    return effect_of(g, g.oid(source), by, text,
                           {"targets": [to]}, keep=frozenset({"damage", "prevented"}))


def move(g: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """`move` of a permanent to its owner's graveyard as a real game does it: its
    controller sacrifices it (an ability ``{0}: Sacrifice ~.`` on it, activated and
    resolved).  Other moves have no one real action and are not mapped."""
    cid, zone = action["move"], action["to"]
    oid = g.oid(cid)
    obj = g.object(oid)
    if obj["zone"] != "Battlefield" or zone != "graveyard":
        raise Unsupported(f"`move` from {ZONE_OF.get(obj['zone'], obj['zone'])} to "
                          f"{zone}: only a permanent put into its graveyard (a "
                          "sacrifice) is mapped",
                          kind="not-mapped")
    return effect_of(g, oid, PLAYERS[obj["controller"]], "{0}: Sacrifice ~.", {},
                           keep=frozenset({"moved"}))


def apply(g: GameState, apply: dict[str, Any]) -> list[dict[str, Any]]:
    by = apply.get("by", "p1")
    try:
        text = oracle.effect_text(apply["effect"], "~")
    except oracle.NotRenderable as exc:
        raise Unsupported(f"the card language cannot write this effect: {exc}",
                          kind="not-mapped") from exc
    context = {"targets": _targets(apply["effect"]), "choose": _chosen(apply["effect"])}
    source = apply.get("source")
    if source is None:
        return cast_effect(g, by, text, context)
    if controller(g, source) != by:
        raise Unsupported(f"an effect of {source} controlled by {by}, who does not "
                          "control it: no real game action makes one",
                          kind="impossible")
    return effect_of(g, g.oid(source), by, "{0}: " + text, context, keep=EFFECT_EVENTS)


def controller(g: GameState, cid: str) -> str:
    obj = g.object(g.oid(cid))
    if obj["zone"] != "Battlefield":
        raise Unsupported(f"{cid} is in {ZONE_OF.get(obj['zone'], obj['zone'])}: only a "
                          "permanent's ability can deal damage or make an effect in a "
                          "real game",
                          kind="impossible")
    return PLAYERS[obj["controller"]]


def effect_of(g: GameState, oid: int, by: str, text: str, context: dict[str, Any],
               keep: frozenset[str] | None = None, state: dict[str, Any] | None = None,
               carrier: bool = False) -> list[dict[str, Any]]:
    """A harness step as an ability ``{0}: text`` of its source, activated by its
    controller and resolved: phase.rs's rules decide what the text does.  ``state``:
    the game's state already being edited (one load instead of two); ``carrier``: the
    source is the adapter's own object, so the ability need not be taken off again."""
    state = state or g.edit()
    obj = state["state"]["objects"][str(oid)]
    card = oracle.card({"id": "x", "name": obj["name"], "types": ["artifact"]}, (text,))
    face = checked_face(card)
    ability = copy.deepcopy(face["abilities"][-1])
    if obj["zone"] != "Battlefield":
        # phase.rs reads "Activate only if ~ is in <zone>" as a condition only; the zone
        # an ability is activated from is its `activation_zone` (as for "Return ~ from
        # your graveyard to the battlefield")
        ability["activation_zone"] = obj["zone"]
    obj.setdefault("abilities", []).append(ability)
    obj.setdefault("base_abilities", []).append(copy.deepcopy(ability))
    g.load(state)
    seat = SEATS[by]
    events: list[dict[str, Any]] = []
    g.give_priority(seat, events)
    offered = [a for a in g.actions() if a.kind == "ActivateAbility"
               and a.data.get("source_id") == oid]
    if offered:
        activation: Any = offered[-1]
    elif obj["zone"] == "Exile":
        # phase.rs's list of legal actions looks at no card in exile, but its rules
        # allow the activation of an ability whose activation zone is exile (CR 602.1;
        # Greater Gargadon's): the game's own check (zone, priority, cost) decides
        activation = {"type": "ActivateAbility", "data": {
            "source_id": oid, "ability_index": len(obj["abilities"]) - 1}}
    else:
        zone = ZONE_OF.get(obj["zone"], obj["zone"])
        raise Unsupported(f"phase.rs offers no activation of an ability of "
                          f"{g.name(oid)} in {zone} (an ability of a card in that "
                          "zone, as Greater Gargadon's works in exile)",
                          kind="engine-gap")
    try:
        events += g.apply_raw(seat, activation)
    except Rejected as exc:
        if offered:
            raise
        raise Unsupported(f"phase.rs does not activate an ability of "
                          f"{g.name(oid)} in exile: {exc}",
                          kind="engine-gap") from exc
    events += settle(g, seat, context)
    g.resolving = context
    events += resolve_raw(g)
    if not carrier:
        # the ability was the adapter's way in: it goes again (the board is as before)
        # with the next edit of the state, or before the game goes on (`GameState.edit`,
        # `actions`, `apply_raw`); `observe` reads nothing it changes
        g.tidy = oid
    return [e for e in events_of(g, events) if keep is None or e["type"] in keep]


def resolve_raw(g: GameState) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(MAX_PASSES):
        before = len(events)
        events += g.apply_raw(g.game.priority_player(), PASS)
        events += settle(g, g.game.priority_player(), g.resolving)
        if any(e["type"] == "StackResolved" for e in events[before:]):
            return events
    raise Unsupported("phase.rs did not resolve the top of the stack",
                      kind="engine-gap")


def cast_effect(g: GameState, by: str, text: str, context: dict[str, Any]) -> list[dict[str, Any]]:
    """An effect of no object as a real game has it: the ability ``{0}: text`` of an
    enchantment its controller controls (as Circle of Protection: Red makes its
    shield), activated and resolved.  (The same text on an instant does nothing in
    phase.rs 0.103.0: docs/engines/phase.md, bug 1.)"""
    seat = SEATS[by]
    g.effects += 1
    name = f"Conformance Effect {g.effects}"
    made = json.loads(carrier(name))
    state = g.edit()
    st = state["state"]
    oid = st["next_object_id"]
    st["next_object_id"] = oid + 1
    st["objects"][str(oid)] = dict(made, id=oid, card_id=oid, owner=seat,
                                   controller=seat, base_controller=seat,
                                   zone="Battlefield", entered_battlefield_turn=0)
    st["battlefield"].append(oid)
    return effect_of(g, oid, by, "{0}: " + text, context, keep=EFFECT_EVENTS,
                           state=state, carrier=True)


def _targets(effect: list[dict[str, Any]]) -> list[str]:
    """What an effect's text targets, in order: a shield's creature, a become's card."""
    found = []
    for instr in effect:
        (op, args), = instr.items()
        if op == "shield" and args["to"] not in ("self", "opponent"):
            found.append(args["to"])
        if op == "become" and "card" in args.get("filter", {}):
            found.append(args["filter"]["card"])
        if op == "damage" and args["to"] not in ("self", "opponent"):
            found.append(args["to"])
    return found


def _chosen(effect: list[dict[str, Any]]) -> str | None:
    return next((i["shield"].get("choose") for i in effect if "shield" in i), None)


def _minus(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {t: a.get(t, 0) - b.get(t, 0) for t in set(a) | set(b)}


def _nonzero(m: dict[str, int]) -> dict[str, int]:
    return {t: n for t, n in m.items() if n}
