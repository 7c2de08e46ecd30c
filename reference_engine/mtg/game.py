"""One MTG game behind the engine protocol: ``act`` and ``observe``.

An action that the rules forbid returns ``accepted: false`` and leaves the
game exactly as it was (the state is restored from a copy taken before it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from conformance import Unsupported
from reference_engine._mutant import Mutant
from reference_engine.mtg import casting, characteristics, combat, prevention, resolution, rules
from reference_engine.mtg.instructions import Context, apply
from reference_engine.mtg.model import PLAYERS, ZONES, Obj
from reference_engine.mtg.state import Game, Rejected
from reference_engine.mtg.vocabulary import mana, need, read_setup, reject_unknown

# -- actions ---------------------------------------------------------------------------


def _player(value: Any, where: str) -> str:
    need(value in PLAYERS, f"{where}: a player is p1 or p2, got {value!r}")
    return value


def do_cast(game: Game, action: dict[str, Any]) -> None:
    obj = game.obj(action["cast"], "cast")
    caster = _player(action.get("by", obj.owner), "cast/by")
    casting.cast(game, obj, caster, mana(action.get("pay", {}), "cast/pay"),
                 bool(action.get("flashback")))
    resolution.after_cast(game, obj)


def do_activate(game: Game, action: dict[str, Any]) -> None:
    obj = game.obj(action["activate"], "activate")
    by = _player(action.get("by", obj.controller), "activate/by")
    if obj.zone != "battlefield" or obj.controller != by:
        raise Rejected(f"{by} does not control {obj.id} on the battlefield")
    texts = [a["activated"] for a in obj.abilities if "activated" in a]
    index = action.get("ability", 0)
    if not 0 <= index < len(texts):
        raise Rejected(f"{obj.id} has no activated ability #{index}")
    text = texts[index]
    if isinstance(text, dict):                # version 3: {cost, effect}
        cost = mana(text["cost"], "activated/cost", frozenset({"generic"}))
        if game.rules.activation_cost_paid:   # CR 602.2b (context)
            casting.pay_automatically(game, by, cost)
        text = text["effect"]
    if not game.rules.ability_effects_at_resolution:    # a mutant: effects on activation
        apply(game, Context(by, obj.id), list(text))
        text = []
    new_id = str(action["as"])
    if new_id in game.objects or new_id in PLAYERS:
        raise Unsupported(f"activate/as: id {new_id!r} is already used")
    ability = Obj(id=new_id, owner=by, zone="stack", controller=by, ability_of=obj.id,
                  source_incarnation=obj.incarnation, effect=list(text))
    game.objects[new_id] = ability
    game.stack.append(new_id)
    game.emit("activated", card=obj.id, ability=new_id, player=by)


def do_resolve(game: Game, action: dict[str, Any]) -> None:
    need(action["resolve"] == "top", "resolve: the only form is {resolve: top}")
    choice = action.get("choose")
    resolution.resolve_top(game, None if choice is None else str(choice))


def do_attack(game: Game, action: dict[str, Any]) -> None:
    combat.declare_attackers(game, _player(action["by"], "attack/by"), action["attack"])


def do_step(game: Game, action: dict[str, Any]) -> None:
    need(action["step"] == "combat_damage", "step: the only form is {step: combat_damage}")
    combat.combat_damage(game)


def do_damage(game: Game, action: dict[str, Any]) -> None:
    args = action["damage"]
    reject_unknown(args, frozenset({"source", "to", "amount", "combat"}), "damage")
    source = game.obj(args["source"], "damage/source")
    to = args["to"] if args["to"] in PLAYERS else game.obj(args["to"], "damage/to").id
    prevention.deal(game, source, to, int(args["amount"]), bool(args.get("combat", False)))


def do_move(game: Game, action: dict[str, Any]) -> None:
    obj = game.obj(action["move"], "move")
    need(action["to"] in ZONES and action["to"] != "stack",
         f"move/to: one of {[z for z in ZONES if z != 'stack']}")
    game.move(obj, action["to"])


def do_apply(game: Game, action: dict[str, Any]) -> None:
    args = action["apply"]
    reject_unknown(args, frozenset({"source", "by", "effect"}), "apply")
    source = args.get("source")
    if source is not None:
        source = game.obj(source, "apply/source").id
    apply(game, Context(_player(args["by"], "apply/by"), source), list(args["effect"]))


ACTIONS: dict[str, tuple[frozenset[str], Callable[[Game, dict[str, Any]], None]]] = {
    "cast": (frozenset({"by", "pay", "flashback"}), do_cast),
    "activate": (frozenset({"by", "ability", "as"}), do_activate),
    "resolve": (frozenset({"choose"}), do_resolve),
    "attack": (frozenset({"by"}), do_attack),
    "step": (frozenset(), do_step),
    "damage": (frozenset(), do_damage),
    "move": (frozenset({"to"}), do_move),
    "apply": (frozenset(), do_apply),
}


class MtgGame:
    """A game built from a canonical setup, under the reference rules or a mutant's."""

    def __init__(self, setup: Any, mutant: Mutant | None = None):
        phase, active, life, pools, objects = read_setup(setup)
        self.state = Game(rules.with_patch(dict(mutant.patch) if mutant else None),
                          life, pools, objects, phase, active)

    def act(self, action: Any) -> dict[str, Any]:
        need(isinstance(action, dict), f"an action must be an object, got {action!r:.80}")
        kinds = [k for k in ACTIONS if k in action]
        need(len(kinds) == 1, f"unknown action {sorted(map(str, action))}; the vocabulary's "
                              f"actions are {sorted(ACTIONS)}")
        allowed, handler = ACTIONS[kinds[0]]
        reject_unknown(action, allowed | {kinds[0]}, f"action {kinds[0]}")
        saved = copy.deepcopy(self.state)
        self.state.events = []
        try:
            handler(self.state, action)
        except Rejected as refusal:
            if self.state.rules.refusal_restores:
                self.state = saved
            self.state.events = []
            return {"accepted": False, "reason": str(refusal), "events": []}
        events, self.state.events = self.state.events, []
        return {"accepted": True, "events": events}

    def observe(self) -> dict[str, Any]:
        game = self.state
        return {"cards": {o.id: observe_object(game, o) for o in game.objects.values()},
                "players": {p: observe_player(game, p) for p in PLAYERS}}


def observe_object(game: Game, obj: Obj) -> dict[str, Any]:
    power, toughness = characteristics.power_toughness(game, obj)
    keywords = obj.keywords
    if game.rules.permission_grants_keyword and obj.zone != "battlefield" and "flash" in {
            p for _, p in casting.permissions(game, obj.owner)} and "flash" not in keywords:
        keywords = [*keywords, "flash"]
    return {
        "zone": obj.zone, "owner": obj.owner, "controller": obj.controller,
        "name": obj.name, "types": characteristics.types_of(game, obj),
        "colors": characteristics.colors_of(game, obj),
        "mana_cost": casting.observed_cost(game, obj),
        "power": power, "toughness": toughness, "damage": obj.damage,
        "keywords": keywords, "mana_spent": dict(obj.mana_spent),
        "ability_of": obj.ability_of,
        "shields": prevention.shields_of(game, obj.id),
    }


def observe_player(game: Game, player: str) -> dict[str, Any]:
    zones = {z: list(game.zones[player][z]) for z in ZONES if z != "stack"}
    if game.rules.graveyards_merged and "other_graveyards" in {
            p for _, p in casting.permissions(game, player)}:
        zones["graveyard"] += game.zones[game.opponent(player)]["graveyard"]
    return {"life": game.life[player], "mana": dict(game.mana[player]), **zones,
            "shields": prevention.shields_of(game, player)}


def new_game(setup: Any, mutant: Mutant | None = None) -> MtgGame:
    return MtgGame(setup, mutant)
