"""Chapter 12: resolving an effect.

The whole text of an effect is one effect, applied from its head in order
(IR-12/p1).  A part that cannot be applied as instructed stops the rest
(IR-12/p2).  A part applied to "all" succeeds even when it could not be
applied to some of them (IR-12/p3) or when nothing matched (IR-12/p4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from reference_engine.vision import deathblow, deck, instructions, negation, selectors, triggers
from reference_engine.vision.model import Effect, Part
from reference_engine.vision.state import Game

#: When an "all" part that matches nothing is refused (`Rules.empty_all_refused`).
NEVER = "never"                  # the rule (IR-12/p4): zero matches is a proper target
AT_PLAY = "play"                 # mutant: playing such a card is rejected
AT_RESOLUTION = "resolution"     # mutant: the whole effect does nothing

#: Operations that move a card or a player's cards between zones.
MOVES = frozenset({"destroy", "return_to_hand", "draw", "discard"})

#: Nested resolutions (stack + answers) deeper than this set off no more targeted triggers.
MAX_DEPTH = 32


def resolve(game: Game, effect: Effect) -> bool:
    """Resolve ``effect``; True when every part was applied (the ``completed`` flag)."""
    if len(game.resolving) + answer_depth(effect) < MAX_DEPTH:
        for answer in triggers.collect_targeted(game, effect):
            game.resolve(answer)
    if silenced(game, effect):
        return False
    if effect.negated:
        effect.parts = game.rules.negated_effect_keeps(effect.parts)
        if not effect.parts:
            return False
    if not game.rules.text_is_one_effect and len(effect.parts) > 1:
        return all([game.resolve(dataclasses.replace(effect, parts=[part]))
                     for part in effect.parts])
    game.resolving.append(effect)
    completed = True
    try:
        deck.start_of_resolution(game, effect)
        if game.rules.empty_all_refused == AT_RESOLUTION and empty_all(game, effect):
            completed = False
        for op, args in game.rules.parts_in_order(effect.parts) if completed else []:
            applied = instructions.apply(game, effect, op, args)
            if game.rules.deathblow_checked_each_part:
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


def empty_all(game: Game, effect: Effect) -> bool:
    """Whether some ``all`` part of ``effect`` matches no card right now."""
    for _, args in effect.parts:
        target = args.get("target")
        if isinstance(target, dict) and "all" in target:
            cards, _ = selectors.select(game, target, controller=effect.controller,
                                        source=effect.source, chosen=effect.chosen)
            if not cards:
                return True
    return False


# -- switch points ---------------------------------------------------------------------

def head_first(parts: list[Part]) -> list[Part]:
    """vision/IR-12/p1: the text is one effect, applied from its head in order."""
    return list(parts)


def tail_first(parts: list[Part]) -> list[Part]:
    """Mutant: the parts are applied from the end of the text."""
    return list(reversed(parts))


def head_last(parts: list[Part]) -> list[Part]:
    """Mutant: an off-by-one loop starts at the second part and wraps round to the head."""
    return [*parts[1:], *parts[:1]]


def moves_last(parts: list[Part]) -> list[Part]:
    """Mutant: parts that move cards between zones are batched after the others."""
    return ([p for p in parts if p[0] not in MOVES] + [p for p in parts if p[0] in MOVES])


def nothing_of_a_negated_effect(parts: list[Part]) -> list[Part]:
    """vision/IR-12.4/p2, QA-102: a negated effect is negated whole: none of it applies."""
    return []


def negated_effect_keeps_untargeted(parts: list[Part]) -> list[Part]:
    """Mutant: negating an effect cancels only its parts that target cards; the rest
    (draws, reveals) still resolves."""
    return [p for p in parts if p[1].get("target") is None]


def failure_stops() -> bool:
    """vision/IR-12/p2: after a part that was not applied as instructed, nothing more is."""
    return True


def failure_continues() -> bool:
    """Mutant: a failed part is skipped and the rest still applies."""
    return False


def all_always_succeeds(results: list[bool]) -> bool:
    """vision/IR-12/p3, p4: "all" succeeds if some could not be affected, or none matched."""
    return True


def all_fails_if_any_not_applied(results: list[bool]) -> bool:
    """Mutant: "all" fails when it could not be applied to one of them."""
    return all(results)


def all_fails_on_nothing(results: list[bool]) -> bool:
    """Mutant: "all" with zero matches is not a proper target."""
    return bool(results)


def fails_when_none_affected(results: list[bool]) -> bool:
    """Mutant: an "all" part that affected none of the cards it matched fails."""
    return not results or any(results)


def last_card_decides(results: list[bool]) -> bool:
    """Mutant: the loop's flag is overwritten per card, so the last card decides."""
    return results[-1] if results else True


def each_card(cards: list[Any], one: Callable[[Any], bool]) -> list[bool]:
    """vision/IR-12/p3: an "all" part is applied to every card it matches; a part on a
    chosen list, to every chosen card (vision/reading/chosen-list-part-reaches-the-others)."""
    return [one(card) for card in cards]


def until_first_failure(cards: list[Any], one: Callable[[Any], bool]) -> list[bool]:
    """Mutant: an "all" part (or a chosen list) stops at the first card it cannot be
    applied to."""
    results: list[bool] = []
    for card in cards:
        results.append(one(card))
        if not results[-1]:
            break
    return results


def every_chosen_applied(results: list[bool]) -> bool:
    """IR-12/p2 with IR-12/p3 (which spares "all" alone): a ``chosen`` list is applied
    as instructed only if it is applied to each card."""
    return bool(results) and all(results)


def any_chosen_applied(results: list[bool]) -> bool:
    """Mutant: a ``chosen`` list succeeds when any one card could be affected."""
    return any(results)
