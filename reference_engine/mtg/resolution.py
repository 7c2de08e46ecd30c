"""Resolving the top of the stack (609.1: a spell's or ability's effects happen when it
resolves) and applying an effect's text."""

from __future__ import annotations

from reference_engine.mtg import instructions, prevention
from reference_engine.mtg.model import PERMANENT_TYPES, Obj
from reference_engine.mtg.state import Game, Rejected


def on_resolution(game: Game, obj: Obj) -> bool:
    """609.1: a spell's effects are generated when it resolves."""
    return True


def on_cast(game: Game, obj: Obj) -> bool:
    """Mutant: a spell's text takes effect as soon as it is cast."""
    return False


def spell_text(obj: Obj) -> list[dict]:
    found = obj.ability("spell")
    return found["spell"] if found else []


def to_owner(obj: Obj) -> str:
    """A card leaving the stack goes to its owner's graveyard, or exile (whoever cast it)."""
    return obj.owner


def to_caster(obj: Obj) -> str:
    """Mutant: a spell cast 'as though' from your graveyard goes to your graveyard, or
    your exile with flashback."""
    return obj.controller


def last_known_source(game: Game, ability: Obj) -> Obj:
    """CR 113.7a (context): an ability's source that left its zone is used as it last
    existed there: it is still the object the ability refers to, and deals the damage."""
    assert ability.ability_of is not None, "only an ability has a source"
    return game.as_it_was(ability.ability_of, ability.source_incarnation)


def current_source(game: Game, ability: Obj) -> Obj:
    """Mutant: an ability's source is the card as it is now, a new object once it has
    changed zones."""
    assert ability.ability_of is not None, "only an ability has a source"
    return game.objects[ability.ability_of]


def after_cast(game: Game, obj: Obj) -> None:
    """The mutant timing: apply the text at cast time."""
    if not game.rules.effects_at_resolution(game, obj):
        instructions.apply(game, instructions.Context(obj.controller, obj.id), spell_text(obj))


def resolve_top(game: Game, choice: str | None = None) -> None:
    """Resolve the top of the stack; ``choice`` is what its text asks the controller to
    choose as it resolves (a source of your choice, vocabulary 3)."""
    if not game.stack:
        raise Rejected("the stack is empty")
    obj = game.objects[game.stack[-1]]
    text = obj.effect if obj.ability_of is not None else spell_text(obj)
    if choice is not None and not instructions.asks_for_choice(text) \
            and game.rules.unasked_choice_refused:   # CR 608.2d (context)
        raise Rejected(f"{obj.id}'s text asks for no choice (resolve without choose)")
    game.emit("resolved", card=obj.id)
    if obj.ability_of is not None:
        game.stack.pop()
        del game.objects[obj.id]
        source = game.rules.ability_source(game, obj)
        instructions.apply(game, instructions.Context(obj.controller, obj.ability_of, source,
                                                      choice), obj.effect)
        return
    if PERMANENT_TYPES & set(obj.types):
        old = obj.incarnation
        game.move(obj, "battlefield")
        prevention.spell_became_permanent(game, obj, old)
        return
    if game.rules.effects_at_resolution(game, obj):
        instructions.apply(game, instructions.Context(obj.controller, obj.id, None, choice),
                           spell_text(obj))
    if obj.zone != "stack":
        return
    where = "exile" if obj.cast_with_flashback else "graveyard"   # 702.34 (context)
    game.move(obj, where, into=game.rules.leaves_stack_to(obj))
