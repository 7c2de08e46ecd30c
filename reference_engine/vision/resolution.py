"""Chapter 12: resolving an effect.

The whole text of an effect is one effect, applied from its head in order
(IR-12/p1).  A part that cannot be applied as instructed stops the rest
(IR-12/p2).  A part applied to "all" succeeds even when it could not be
applied to some of them (IR-12/p3) or when nothing matched (IR-12/p4).
"""

from __future__ import annotations

from reference_engine.vision import deathblow, deck, instructions, negation, triggers
from reference_engine.vision.model import Effect, Part
from reference_engine.vision.state import Game

#: Nested resolutions (stack + answers) deeper than this set off no more targeted triggers.
MAX_DEPTH = 32


def resolve(game: Game, effect: Effect) -> bool:
    """Resolve ``effect``; True when every part was applied (the ``completed`` flag)."""
    if len(game.resolving) + answer_depth(effect) < MAX_DEPTH:
        for answer in triggers.collect_targeted(game, effect):
            game.resolve(answer)
    if effect.negated or silenced(game, effect):
        return False
    game.resolving.append(effect)
    completed = True
    try:
        deck.start_of_resolution(game, effect)
        for op, args in game.rules.parts_in_order(effect.parts):
            applied = instructions.apply(game, effect, op, args)
            deathblow.check_state(game)
            if not applied and game.rules.failed_part_stops_rest():
                completed = False
                break
    finally:
        game.resolving.pop()
    deck.end_of_resolution(game, effect)
    game.emit("resolved", source=effect.source, completed=completed)
    return completed


def silenced(game: Game, effect: Effect) -> bool:
    """vision/IR-2.12.3 「発生せず、解決されない」: an effect already triggered is not
    resolved when its card's text was negated before it resolves."""
    source = game.cards.get(effect.source or "")
    return (effect.clause is not None and source is not None
            and not negation.clause_active(game, source, effect.clause))


def answer_depth(effect: Effect) -> int:
    """How many `targeted` answers deep ``effect`` is (answers resolve before the
    answered effect is on the stack, so the stack alone cannot bound them)."""
    depth, current = 0, effect.answers
    while current is not None:
        depth, current = depth + 1, current.answers
    return depth


# -- switch points ---------------------------------------------------------------------

def head_first(parts: list[Part]) -> list[Part]:
    """vision/IR-12/p1: the text is one effect, applied from its head in order."""
    return list(parts)


def tail_first(parts: list[Part]) -> list[Part]:
    """Mutant: the parts are applied from the end of the text."""
    return list(reversed(parts))


def failure_stops() -> bool:
    """vision/IR-12/p2: after a part that was not applied as instructed, nothing more is."""
    return True


def failure_continues() -> bool:
    """Mutant: a failed part is skipped and the rest still applies."""
    return False


def all_always_succeeds(matched: int, not_applied: int) -> bool:
    """vision/IR-12/p3, p4: "all" succeeds if some could not be affected, or none matched."""
    return True


def all_fails_if_any_not_applied(matched: int, not_applied: int) -> bool:
    """Mutant: "all" fails when it could not be applied to one of them."""
    return not_applied == 0


def all_fails_on_nothing(matched: int, not_applied: int) -> bool:
    """Mutant: "all" with zero matches is not a proper target."""
    return matched > 0
