"""The actions (steps) of the Vision vocabulary: play, put_onto_field, resolve,
battle_damage, draw.

Each checks everything that can make it illegal *before* changing anything,
so a rejected action returns ``accepted: false`` and leaves the game as it was.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine.vision import (
    costs,
    deathblow,
    deck,
    field,
    resolution,
    triggers,
    vocabulary,
)
from reference_engine.vision.model import PLAYERS, Card, Clause, Effect, Part
from reference_engine.vision.state import Game


class Rejected(Exception):
    """The rules forbid the action; the message says why."""


def act(game: Game, action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise Unsupported(f"an action must be an object, got {action!r:.80}")
    kinds = [k for k in ACTIONS if k in action]
    if len(kinds) != 1:
        raise Unsupported(f"unknown action {sorted(map(str, action))}; the vocabulary's actions "
                          f"are {sorted(ACTIONS)}")
    kind = kinds[0]
    allowed, handler = ACTIONS[kind]
    vocabulary.reject_unknown(action, allowed | {kind}, f"action {kind}")
    game.events = []
    try:
        handler(game, action)
    except Rejected as refusal:
        game.events = []
        return {"accepted": False, "reason": str(refusal), "events": []}
    deathblow.check_state(game)
    events, game.events = game.events, []
    return {"accepted": True, "events": events}


def _card(game: Game, card_id: Any, what: str) -> Card:
    card = game.cards.get(str(card_id))
    if card is None:
        raise Rejected(f"{what}: no card with id {card_id!r} in this game")
    return card


def _player(value: Any, what: str) -> str:
    if value not in PLAYERS:
        raise Unsupported(f"{what}: a player is p1 or p2, got {value!r}")
    return value


def _targets(game: Game, raw: Any) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Unsupported(f"targets must be a list of card ids, got {raw!r:.80}")
    return [_card(game, t, "targets").id for t in raw]


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Unsupported(f"{what}: expected a non-negative integer, got {value!r}")
    return value


def enter_and_settle(game: Game, card: Card) -> None:
    """Put ``card`` onto the field, check deathblow, then resolve what its entry set off."""
    if card.zone == "deck":
        deck.before_deck_operation(game, card.owner, None)
    effects = field.enter(game, card)
    deathblow.check_state(game)
    for effect in effects:
        game.resolve(effect)


def play_parts(clause: Clause) -> list[Part]:
    """A play clause's text; its ``gain`` is applied as the last part of the same effect."""
    parts = list(clause.parts)
    if clause.gain:
        parts.append(("gain", {"target": clause.applies_to or "chosen",
                               "clauses": clause.gain}))
    return parts


def _play(game: Game, action: dict[str, Any]) -> None:
    card = _card(game, action["play"], "play")
    by = _player(action.get("by", card.owner), "play.by")
    if card.zone != "hand" or card.owner != by:
        raise Rejected(f"{card.id} is not in {by}'s hand (it is in {card.owner}'s {card.zone})")
    due = costs.cost_due(game, card, by)
    paid = action.get("pay_nodes", due)
    if paid is None:
        raise Rejected(f"{card.id} costs X: say how many nodes to pay with pay_nodes")
    paid = _count(paid, "play.pay_nodes")
    if due is not None and paid != due:
        raise Rejected(f"{card.id} costs {due} node(s) now, not {paid}")
    if paid > game.nodes[by]:
        raise Rejected(f"{by} has {game.nodes[by]} node(s), cannot pay {paid}")
    chosen = _targets(game, action.get("targets"))
    if (game.rules.play_needs_chosen and not chosen
            and any(_needs_chosen(clause) for clause in card.texts)):
        raise Rejected(f"{card.id} targets a card (chosen) and none was given: not a proper "
                       "target (only 'all' may match nothing, IR-12/p4)")
    if game.rules.empty_all_refused == resolution.AT_PLAY and any(
            resolution.empty_all(game, Effect(controller=by, parts=list(c.parts),
                                              source=card.id, chosen=chosen))
            for c in card.texts if c.kind == "play"):
        raise Rejected(f"{card.id}: an 'all' target matches no card")
    game.nodes[by] -= paid
    if card.cost == "X":
        card.x_paid = game.rules.x_from_payment(paid, costs.cost_delta(game, by))
    if card.type == "character":
        enter_and_settle(game, card)
        return
    game.move(card, "resolving")
    for clause in card.texts:
        if clause.kind == "play":
            game.resolve(Effect(controller=by, parts=play_parts(clause), source=card.id,
                                chosen=chosen, x=card.x_paid,
                                from_unnegatable=clause.unnegatable))
    if card.zone == "resolving":
        game.move(card, "graveyard")


def _needs_chosen(clause: Clause) -> bool:
    """vision/reading/play-needs-a-proper-target: a play clause acting on `chosen`."""
    return clause.kind == "play" and any(
        args.get("target") == "chosen" for _, args in play_parts(clause))


def _put_onto_field(game: Game, action: dict[str, Any]) -> None:
    _player(action.get("by", "p1"), "put_onto_field.by")
    card = _card(game, action["put_onto_field"], "put_onto_field")
    if card.zone == "field":
        raise Rejected(f"{card.id} is already on the field")
    enter_and_settle(game, card)


def _resolve(game: Game, action: dict[str, Any]) -> None:
    spec = action["resolve"]
    if not isinstance(spec, dict):
        raise Unsupported("resolve: expected {source, by, effect, targets}")
    vocabulary.reject_unknown(spec, frozenset({"source", "by", "effect", "targets"}), "resolve")
    parts = vocabulary.read_effect(spec.get("effect") or [], "resolve.effect")
    source = _card(game, spec["source"], "resolve.source") if spec.get("source") else None
    by = _player(spec.get("by") or (source.owner if source else "p1"), "resolve.by")
    chosen = _targets(game, spec.get("targets"))
    game.resolve(Effect(controller=by, parts=parts, source=source.id if source else None,
                        chosen=chosen, x=source.x_paid if source else None))


def _battle_damage(game: Game, action: dict[str, Any]) -> None:
    spec = action["battle_damage"]
    if not isinstance(spec, dict):
        raise Unsupported("battle_damage: expected {target, amount, source}")
    vocabulary.reject_unknown(spec, frozenset({"target", "amount", "source"}), "battle_damage")
    target = _card(game, spec.get("target"), "battle_damage.target")
    if target.zone != "field" or target.type != "character":
        raise Rejected(f"{target.id} is not a character on the field")
    source = _card(game, spec["source"], "battle_damage.source") if spec.get("source") else None
    if "amount" in spec or source is None:
        amount = _count(spec.get("amount"), "battle_damage.amount")
    else:  # the source's attack "after this process" (6.1.10), none below 0
        amount = max(0, game.rules.battle_attack(game, source))
    deathblow.deal_damage(game, target, amount, source.id if source else None, battle=True)
    if source is not None:
        deathblow.check_state(game)
        for effect in triggers.collect_from(game, "battle_damage_dealt", source, target):
            game.resolve(effect)


def _draw(game: Game, action: dict[str, Any]) -> None:
    spec = action["draw"]
    if not isinstance(spec, dict):
        raise Unsupported("draw: expected {player, count}")
    vocabulary.reject_unknown(spec, frozenset({"player", "count"}), "draw")
    player = _player(spec.get("player", "p1"), "draw.player")
    count = _count(spec.get("count", 1), "draw.count")
    if len(game.zones[player]["deck"]) < count:
        raise Rejected(f"{player}'s deck holds {len(game.zones[player]['deck'])} card(s), "
                       f"cannot draw {count}")
    deck.draw(game, player, count, None)


ACTIONS: dict[str, tuple[frozenset[str], Any]] = {
    "play": (frozenset({"by", "pay_nodes", "targets"}), _play),
    "put_onto_field": (frozenset({"by"}), _put_onto_field),
    "resolve": (frozenset(), _resolve),
    "battle_damage": (frozenset(), _battle_damage),
    "draw": (frozenset(), _draw),
}
