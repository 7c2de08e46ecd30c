"""The effect language: what one INSTRUCTION does (docs/rulesets/mtg.md).

609.3 (do as much as possible) for discards and library moves; 609.5 (ties:
only the text decides); the continuous effects a resolving text creates
(``become``, ``cost_change``, ``grant``, ``shield``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from reference_engine.mtg import characteristics, prevention
from reference_engine.mtg.model import Continuous, Obj
from reference_engine.mtg.state import Game, Rejected


class Fizzled(Exception):
    """Mutant behaviour: an impossible instruction stops the rest of the text."""


# -- 609.3 switch points ------------------------------------------------------------------

def as_many_as_possible(asked: int, available: int) -> int:
    """609.3: do the possible part."""
    return min(asked, available)


def all_or_nothing(asked: int, available: int) -> int:
    """Mutant: an instruction that cannot be done in full does nothing at all."""
    return asked if available >= asked else 0


def impossible_is_illegal(asked: int, available: int) -> int:
    """Mutant: an instruction that cannot be done in full makes the action illegal."""
    if available < asked:
        raise Rejected(f"cannot do {asked} with only {available}")
    return asked


# -- 609.5 switch points -----------------------------------------------------------------------

def no_general_tie_rule(game: Game, controller: str) -> str | None:
    """609.5: there is no general rule for a tie; only the text says what happens."""
    return None


def tie_goes_to_controller(game: Game, controller: str) -> str | None:
    """Mutant: a tie counts as the effect's controller having more."""
    return controller


def tie_goes_to_active_player(game: Game, controller: str) -> str | None:
    """Mutant: a tie counts as the active player having more."""
    return game.active


# -- instructions -------------------------------------------------------------------------------

class Context(NamedTuple):
    """Who controls the effect and what its source is."""

    controller: str
    source: str | None                 # the source's id
    source_obj: Obj | None = None      # the source as the effect refers to it, when that is
                                       # not the card now (an ability whose source left)
    choice: str | None = None          # what the controller chose as the text resolved


def _count(game: Game, rule: Callable[[int, int], int], asked: int, available: int) -> int:
    return rule(asked, available)


def discard(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    player = game.who(args.get("player", "self"), ctx.controller)
    hand = game.zone(player, "hand")
    n = _count(game, game.rules.discard_count, args["count"], len(hand))
    for obj in hand[:n]:
        game.move(obj, "graveyard")
        game.emit("discard", player=player, card=obj.id)
    if game.rules.impossible_stops_rest and n < args["count"]:
        raise Fizzled


def move_top(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    player = game.who(args.get("player", "self"), ctx.controller)
    library = game.zone(player, "library")
    n = _count(game, game.rules.library_count, args["count"], len(library))
    for obj in library[:n]:
        game.move(obj, args.get("to", "graveyard"))
    if game.rules.impossible_stops_rest and n < args["count"]:
        raise Fizzled


def damage(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    if ctx.source is None:
        raise Rejected("a damage instruction needs a source")
    to = args["to"]
    if to in ("self", "opponent"):
        to = game.who(to, ctx.controller)
    else:
        to = game.obj(to, "damage to").id
    source = ctx.source_obj or game.objects[ctx.source]
    prevention.deal(game, source, to, args["amount"], combat=False)


def become(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    characteristics.create_become(game, ctx.controller, ctx.source, args)


def cost_change(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    game.effects.append(Continuous("cost_change", ctx.controller, ctx.source, game.tick(), args))


def grant(game: Game, ctx: Context, args: Any) -> None:
    effect = Continuous("grant", ctx.controller, ctx.source, game.tick(), {"grant": args})
    game.effects.append(effect)


def shield(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    if args.get("your_choice"):   # 609.7a: the source is chosen as the effect is created
        args = {k: v for k, v in args.items() if k != "your_choice"}
        if ctx.choice is not None:
            args["choose"] = ctx.choice
        elif game.rules.choice_required:
            raise Rejected("the text asks for a source of your choice: resolve with choose")
    prevention.create_shield(game, ctx.controller, args)


def compare_life(game: Game, ctx: Context, args: dict[str, Any]) -> None:
    """609.5: the player with more life does ``more``; a tie does what ``tie`` says."""
    me, other = ctx.controller, game.opponent(ctx.controller)
    if game.life[me] != game.life[other]:
        winner = me if game.life[me] > game.life[other] else other
        apply(game, ctx._replace(controller=winner), args.get("more", []))
        return
    winner = game.rules.tie_break(game, ctx.controller)
    if winner is not None:
        apply(game, ctx._replace(controller=winner), args.get("more", []))
    elif game.rules.tie_clause_followed:
        apply(game, ctx, args.get("tie", []))


OPERATIONS: dict[str, Callable[[Game, Context, Any], None]] = {
    "discard": discard, "move_top": move_top, "damage": damage, "become": become,
    "cost_change": cost_change, "grant": grant, "shield": shield,
    "compare_life": compare_life,
}


def asks_for_choice(parts: list[dict[str, Any]]) -> bool:
    """Whether a text asks its controller to choose as it resolves (vocabulary 3)."""
    for part in parts:
        (op, args), = part.items()
        if op == "shield" and args.get("your_choice"):
            return True
        if op == "compare_life" and any(asks_for_choice(args.get(k, []))
                                        for k in ("more", "tie")):
            return True
    return False


def apply(game: Game, ctx: Context, parts: list[dict[str, Any]]) -> None:
    """Apply a text's instructions in order (a mutant may stop at an impossible one)."""
    try:
        for part in parts:
            (op, args), = part.items()
            OPERATIONS[op](game, ctx, args)
    except Fizzled:
        return
