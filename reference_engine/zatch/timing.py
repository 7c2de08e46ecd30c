"""When an effect may be used: no interrupts, battle vs non-battle, the steps of a battle,
and the 使えない restrictions in force.

`use_refusal` answers "why may this player not use this effect now?" (None
when they may).  It only reads the game; ``game.rules`` holds every switch.
"""

from __future__ import annotations

from reference_engine.zatch.model import Effect
from reference_engine.zatch.state import Game


def kind_of(game: Game, effect: Effect) -> str:
    """The effect's kind as the rules read its icons (mutants may ignore an icon)."""
    if effect.kind == "battle" and not game.rules.battle_icon_read:
        return "ordinary"
    if effect.kind == "non_battle_spell" and not game.rules.non_battle_icon_read:
        return "ordinary"
    return effect.kind


def use_refusal(game: Game, card: str, by: str, interrupting: bool = False) -> str | None:
    """``interrupting``: used as an interrupt (only a mutant gets this far with one), which
    under the old rules could use a card the interrupted effect was discarding."""
    rules, board = game.rules, game.board
    effect = game.cards[card].effect
    if effect is None:
        return f"card {card} has no effect to use"
    if game.cards[card].owner != by:
        return f"card {card} is not {by}'s"
    if game.zone_of(card) == "discard" and not interrupting \
            and not rules.usable_from_discard(game, card):
        return f"card {card} is in the discard pile"
    if effect.kind == "on_field" and rules.on_field_fires != "declared":
        return "a 'このカードが場にある→' effect is never declared: it works while on the field"
    restriction = restricted(game, effect, by)
    if restriction:
        return restriction
    if board.battle is None:
        return _outside_battle(game, effect, by)
    return _in_battle(game, effect, by)


def _outside_battle(game: Game, effect: Effect, by: str) -> str | None:
    rules, kind = game.rules, kind_of(game, effect)
    if kind in ("attack", "defense"):
        return "attack/defense effects are used in a battle's attack/defense step"
    if kind == "battle" and rules.battle_effects_only_in_battle \
            and not (effect.jammer and rules.battle_jammers_anywhere):
        return "a battle effect cannot be used outside a battle"
    if kind == "non_battle_spell" and not rules.non_battle_spell_phase(game, by, effect.side):
        return f"a non-battle spell with the {effect.side} icon cannot be used in this phase"
    return None


def _in_battle(game: Game, effect: Effect, by: str) -> str | None:
    rules, kind = game.rules, kind_of(game, effect)
    battle = game.board.battle
    assert battle is not None   # use_refusal asks this only during a battle
    step, attacker = battle.step, battle.attacker
    if effect.jammer and not rules.jammers_in_battle:
        return "(mutant) no jammer during a battle"
    if effect.jammer and by == attacker and not rules.attacker_jams_in_battle:
        return "(mutant) only the defender jams during a battle"
    if kind == "non_battle_spell":
        if step in rules.non_battle_spell_steps:
            return None
        return "a non-battle spell cannot be used during a battle"
    if kind == "battle" and step in rules.battle_effect_steps:
        return None
    if step == "attack_defense":
        wanted = "attack" if by == attacker else "defense"
        if kind == wanted or (effect.jammer and rules.attack_defense_jammable != "never"):
            return None
        return f"only {wanted} effects are used by {by} in the attack/defense step"
    if step == "effects":
        if kind == "ordinary" and (rules.any_effect_in_effect_step
                                   or (effect.jammer and rules.plain_jammers_in_effect_step)):
            return None
        return "only battle effects can be used in the battle's use-of-effects step"
    return f"no effect is used in the {step} step"


# -- 非バトルの術: 攻 in your own battle phase, 防 in the opponent's (nonbattle.2) ---------------

def side_matches_turn(game: Game, by: str, side: str | None) -> bool:
    own = game.board.turn == by
    return game.board.phase == "battle" and (own if side == "attack" else not own)


def sides_swapped(game: Game, by: str, side: str | None) -> bool:
    """Bug: 攻 in the opponent's battle phase, 防 in your own."""
    return side_matches_turn(game, by, "defense" if side == "attack" else "attack")


def any_battle_phase(game: Game, by: str, side: str | None) -> bool:
    """Bug: either icon in any battle phase."""
    return game.board.phase == "battle"


# -- a card in the discard pile (interrupt.ex2) -------------------------------------------

def never_from_discard(game: Game, card: str) -> bool:
    return False


def always_from_discard(game: Game, card: str) -> bool:
    """Bug: cards in the discard pile can be used."""
    return True


def just_discarded(game: Game, card: str) -> bool:
    """Bug: a card the opponent's last action discarded can still be used (the old interrupt)."""
    return bool(game.history) and card in game.history[-1].discarded


# -- 使えない ------------------------------------------------------------------------------

def restricted(game: Game, effect: Effect, by: str) -> str | None:
    """Why a staying 使えない stops ``by`` from using ``effect`` (None if it does not)."""
    rules = game.rules
    if not rules.restrictions_apply:
        return None
    for what in restrictions_on(game, by):
        if not rules.restriction_matches(game, what, effect):
            continue
        if effect.usable_anyway and rules.usable_anyway_overrides(effect.usable_anyway) \
                and (rules.usable_anyway_covers_jammers or not effect.jammer):
            continue
        if effect.unnegatable and (rules.unnegatable_overrides_cannot_use or (
                effect.jammer and rules.unnegatable_jammers_override_cannot_use)):
            continue
        return f"a staying 使えない ({what}) stops {by} from using this effect"
    return None


def restrictions_on(game: Game, player: str) -> list[str]:
    """The 'cannot use' restrictions of staying effects that bind ``player``."""
    found = []
    for card in game.board.staying:
        controller = game.controller_of(card)
        for part in game.effect_of(card).do:
            spec = part.get("cannot_use")
            if spec is not None and player in game.rules.restriction_binds(
                    game, spec.get("player", game.rules.restriction_default), controller):
                found.append(spec.get("what", "effects"))
    return found


def matches(game: Game, what: str, effect: Effect) -> bool:
    if what == "effects":
        return effect.kind != "on_field" or game.rules.effects_restriction_covers_on_field
    if what == "jammers":
        return effect.jammer
    return effect.kind == what


def matches_everything(game: Game, what: str, effect: Effect) -> bool:
    """Bug: a 使えない binds every effect, whatever it names."""
    return True


def binds_named_player(game: Game, who: str, controller: str) -> tuple[str, ...]:
    return (game.who(who, controller),)


def binds_controller(game: Game, who: str, controller: str) -> tuple[str, ...]:
    """Bug: the restriction binds the player who used it, whatever it names."""
    return (controller,)


def binds_both(game: Game, who: str, controller: str) -> tuple[str, ...]:
    """Bug: the restriction binds both players."""
    return ("p1", "p2")


# -- 使えないときにも使える / 効果にかかわらず使える (usable-anyway.1, .3) ------------------------

def both_wordings(wording: str) -> bool:
    return True


def never(wording: str) -> bool:
    return False


def only_cannot_use_wording(wording: str) -> bool:
    """Bug: 「効果にかかわらず使える」 is not treated like 「使えないときにも使える」."""
    return wording == "cannot_use"


def only_regardless_wording(wording: str) -> bool:
    """Bug: only 「効果にかかわらず使える」 overrides a 使えない."""
    return wording == "regardless"
