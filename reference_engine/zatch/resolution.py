"""Resolving an effect: staying and standby effects go into force, the rest apply now.

`resolve` is what happens right after an effect is used (or, for attack and
defense effects, at the battle's resolution step); `apply` runs the
instructions of its ``do`` list, from the head.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference_engine.zatch.negation import negate, survives
from reference_engine.zatch.state import Game, Instance


def resolve(game: Game, inst: Instance) -> None:
    effect, board = inst.effect, game.board
    if effect.stay_until and game.rules.stay_kept:
        board.staying[inst.card] = effect.stay_until
        game.emit("staying", card=inst.card)
        apply(game, inst)
    elif effect.standby_when and game.rules.standby_waits:
        board.standby[inst.card] = effect.standby_when
        game.emit("standing_by", card=inst.card)
    else:
        apply(game, inst)
    inst.resolved = True
    game.emit("resolved", card=inst.card)


def apply(game: Game, inst: Instance) -> None:
    for part in inst.effect.do:
        (key, value), = part.items()
        INSTRUCTIONS[key](game, inst, value)


def _mp(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    player = game.who(spec.get("player", "self"), inst.by)
    game.board.mp[player] = max(0, game.board.mp[player] + int(spec["amount"]))
    game.emit("mp", player=player, amount=int(spec["amount"]))


def _damage(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    player = game.who(spec.get("player", "opponent"), inst.by)
    game.board.damage[player] += int(spec["amount"])
    game.emit("damage", player=player, amount=int(spec["amount"]))


def _discard(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    card = spec["card"]
    if game.zone_of(card) != "discard":
        game.move(card, "discard")
        game.emit("discarded", card=card)
        if game.history:
            game.history[-1].discarded.append(card)


def _power(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    if game.board.battle is not None:
        side = game.rules.raise_goes_to(game, inst.by)
        game.board.battle.power[side] += int(spec["amount"])
        game.emit("power", player=side, amount=int(spec["amount"]))


def _negate_in_battle(game: Game, inst: Instance, what: str) -> None:
    for spell in game.rules.battle_negation_hits(game, inst, what):
        if spell.n in game.board.negated:
            continue
        if survives(game, spell, "battle"):
            game.emit("not_negated", card=spell.card)
            continue
        game.board.negated.add(spell.n)
        game.emit("negated", card=spell.card, by=inst.card)


def _cannot_use(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    """A 使えない binds from now on; the rules say whether it reaches back (cannot.2)."""
    game.rules.cannot_use_reaches_back(game, inst, spec)


def _remove(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    if not game.rules.removal_reaches(game, spec["card"], inst.by):
        return
    for card in game.rules.removal(game, spec["card"], spec["what"]):
        game.emit("removed", card=card, what=spec["what"])


#: instruction key -> its function; each takes the value its key has in a ``do`` part
INSTRUCTIONS: dict[str, Callable[[Game, Instance, Any], None]] = {
    "mp": _mp, "damage": _damage, "discard": _discard, "power": _power,
    "negate_in_battle": _negate_in_battle, "cannot_use": _cannot_use, "remove": _remove}


# -- cannot.2: 使えない never undoes an effect already used ----------------------------------

def binds_from_now_on(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    return None


def undoes_lasting_effects(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    """Bug: the bound player's staying and standing-by effects are taken away."""
    bound = game.who(spec.get("player", "opponent"), inst.by)
    for lasting_effects in (game.board.staying, game.board.standby):
        for card in list(lasting_effects):
            if card != inst.card and game.controller_of(card) == bound:
                del lasting_effects[card]
                game.emit("removed", card=card, what="cannot_use")



def negates_last_effect(game: Game, inst: Instance, spec: dict[str, Any]) -> None:
    """Bug: a 使えない also negates the bound player's effect used just before."""
    bound = game.who(spec.get("player", "opponent"), inst.by)
    earlier = [i for i in game.instances if i.n < inst.n and i.how == "used"]
    if earlier and earlier[-1].by == bound and earlier[-1].n not in game.board.negated:
        negate(game, earlier[-1], inst.card)
