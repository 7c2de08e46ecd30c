"""The deck: drawing, revealing, looking, shuffling, and rule 3.2.5.

3.2.5: when an effect revealed or looked at the whole hidden deck and did not
itself say to shuffle, the deck is shuffled at the end of that effect's
resolution, or just before another effect operates the deck, whichever comes
first.  Never after a counted reveal (3.2.5.a/.b).
"""

from __future__ import annotations

from reference_engine.vision import selectors
from reference_engine.vision.model import Card, Effect
from reference_engine.vision.state import Game

#: Shuffle timings (`Rules.shuffle_timing`).
DEFERRED = "deferred"          # the rule: end of resolution or before another effect's deck op
IMMEDIATE = "immediate"        # mutant: right after the reveal, mid-effect
AT_START = "start"             # mutant: when the effect starts resolving
END_ONLY = "end-only"          # mutant: only at the end of the revealing effect


def shuffle(game: Game, player: str) -> None:
    game.rng.shuffle(game.zones[player]["deck"])
    game.emit("shuffle", player=player)


def before_deck_operation(game: Game, player: str, effect: Effect | None) -> None:
    """3.2.5: a shuffle still owed by *another* effect happens just before this operation."""
    owner = game.pending_shuffles.get(player)
    if owner is not None and owner is not effect and game.rules.shuffle_timing == DEFERRED:
        del game.pending_shuffles[player]
        shuffle(game, player)


def draw(game: Game, player: str, count: int, effect: Effect | None) -> bool:
    """Draw ``count`` cards; False (nothing drawn) if the deck holds fewer."""
    before_deck_operation(game, player, effect)
    deck = game.zones[player]["deck"]
    taken, applied = game.rules.short_pile(len(deck), count)
    for _ in range(taken):
        card = game.cards[deck[0]]
        game.move(card, "hand")
        game.emit("draw", player=player, card=card.id)
    return applied


def reveal(game: Game, effect: Effect, verb: str, player: str, args: dict) -> bool:
    """Reveal (or look at) the top ``count`` cards, the whole deck, or ``until`` a match."""
    before_deck_operation(game, player, effect)
    deck = game.zone_cards(player, "deck")
    if "count" in args:
        mode, seen = "count", deck[: _count(args["count"], effect)]
    elif "all" in args:
        mode, seen = "all", list(deck)
    else:
        mode, seen = "until", _until(game, deck, args["until"], effect.controller)
    game.emit(verb, player=player, cards=[c.id for c in seen])
    whole = game.rules.saw_whole_deck(len(seen), len(deck))
    if game.rules.reveal_needs_shuffle(mode, whole):
        owe_shuffle(game, player, effect)
    wanted = _count(args["count"], effect) if mode == "count" else len(seen)
    return game.rules.reveal_applied(len(seen), wanted)


def _count(value: int | str, effect: Effect) -> int:
    return (effect.x or 0) if value == "X" else int(value)


def _until(game: Game, deck: list[Card], flt: dict, controller: str) -> list[Card]:
    seen = []
    for card in deck:
        seen.append(card)
        if selectors.matches(game, card, flt, controller, default_zone="deck"):
            break
    return seen


def owe_shuffle(game: Game, player: str, effect: Effect) -> None:
    timing = game.rules.shuffle_timing
    if timing == IMMEDIATE:
        shuffle(game, player)
    elif timing in (DEFERRED, END_ONLY):
        game.pending_shuffles[player] = effect


def shuffle_instruction(game: Game, effect: Effect, player: str) -> bool:
    """The effect itself says shuffle: that shuffle replaces the one 3.2.5 would add."""
    before_deck_operation(game, player, effect)
    if game.pending_shuffles.get(player) is effect and game.rules.own_shuffle_replaces_auto:
        del game.pending_shuffles[player]
    shuffle(game, player)
    return True


def start_of_resolution(game: Game, effect: Effect) -> None:
    """Only the shuffle-at-start mutant acts here: it shuffles *before* revealing, for
    each reveal that is going to see the whole deck (so it breaks only the timing)."""
    if game.rules.shuffle_timing != AT_START:
        return
    told = {game.who(a["player"], effect.controller) for op, a in effect.parts
            if op == "shuffle"}
    for op, args in effect.parts:
        player = game.who(args.get("player", "self"), effect.controller)
        if op not in ("reveal", "look") or player in told or "count" in args:
            continue
        deck = game.zone_cards(player, "deck")
        whole = "all" in args or len(_until(game, deck, args["until"],
                                            effect.controller)) == len(deck)
        if deck and whole:
            told.add(player)
            shuffle(game, player)


def end_of_resolution(game: Game, effect: Effect) -> None:
    """3.2.5: shuffles this effect still owes happen when its resolution ends."""
    for player in [p for p, owner in game.pending_shuffles.items() if owner is effect]:
        del game.pending_shuffles[player]
        shuffle(game, player)


# -- switch points ---------------------------------------------------------------------

def whole_deck_without_count(mode: str, whole: bool) -> bool:
    """vision/IR-3.2.5, .a, .b: shuffle when the whole deck was seen by an effect that
    named no count (all, or until that ended up seeing all); never after a part, and
    never after a counted reveal even if the count covered the whole deck."""
    return whole and mode != "count"


def never(mode: str, whole: bool) -> bool:
    """Mutant: no automatic shuffle at all."""
    return False


def any_reveal(mode: str, whole: bool) -> bool:
    """Mutant: every reveal or look shuffles, even of a part."""
    return True


def whole_deck_any_mode(mode: str, whole: bool) -> bool:
    """Mutant: a counted reveal that happened to cover the whole deck shuffles too."""
    return whole


def only_reveal_all(mode: str, whole: bool) -> bool:
    """Mutant: only "reveal all" shuffles; an until-reveal that saw everything does not."""
    return whole and mode == "all"


def any_uncounted(mode: str, whole: bool) -> bool:
    """Mutant: every reveal naming no count shuffles, even an until-reveal that stopped
    part-way."""
    return mode != "count"


def all_of_a_non_empty_deck(seen: int, size: int) -> bool:
    """vision/IR-3.2.5, reading/shuffle-timing: the whole deck was seen; an empty deck
    hides nothing, so revealing it never counts."""
    return size > 0 and seen == size


def all_but_one(seen: int, size: int) -> bool:
    """Mutant: off by one, seeing all but the last card counts as the whole deck."""
    return size > 0 and seen >= size - 1


def all_even_if_empty(seen: int, size: int) -> bool:
    """Mutant: revealing an empty deck counts as revealing the whole deck."""
    return seen == size


def all_or_nothing(available: int, wanted: int) -> tuple[int, bool]:
    """vision/reading/short-draw-discard-does-nothing (IR-12/p2): drawing or discarding
    more cards than there are does nothing and is not applied as instructed."""
    return (wanted, True) if available >= wanted else (0, False)


def what_is_there(available: int, wanted: int) -> tuple[int, bool]:
    """Mutant: take what there is and carry on as if the part was applied."""
    return min(available, wanted), True


def reveals_what_is_there(seen: int, wanted: int) -> bool:
    """vision/reading/counted-reveal-reveals-what-is-there: a counted reveal of a deck
    holding fewer cards shows what is there and is applied as instructed."""
    return True


def short_reveal_fails(seen: int, wanted: int) -> bool:
    """Mutant: revealing fewer cards than the count named is a failed part."""
    return seen >= wanted
