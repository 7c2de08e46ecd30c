"""Jammers and negation (ジャマー効果, 無効にする, 無効にならない).

A jammer negates an effect in its reach (`reach`), if this jammer may negate
that effect (`jam_refusal`); `negate` then puts the board back.  Every choice
goes through ``game.rules``.
"""

from __future__ import annotations

from reference_engine.zatch.model import Effect
from reference_engine.zatch.state import Game, Instance
from reference_engine.zatch.timing import kind_of

# -- which effects a jammer can reach (jammer.1) -------------------------------------------

def last_action_of_opponent(game: Game, by: str) -> list[int]:
    """Reference: only what the action right before this one produced, if the opponent's."""
    if not game.history or game.history[-1].by != game.opponent(by):
        return []
    return list(game.history[-1].produced)


def any_time(game: Game, by: str) -> list[int]:
    """Bug: any effect the opponent ever used is in reach."""
    return [i.n for i in game.instances if i.by == game.opponent(by)]


def last_card_of_opponent(game: Game, by: str) -> list[int]:
    """Bug: the opponent's last used card, however many actions ago."""
    theirs = [i.n for i in game.instances if i.by == game.opponent(by) and i.how == "used"]
    return theirs[-1:]


def last_action_of_anyone(game: Game, by: str) -> list[int]:
    """Bug: the action right before, whoever took it (your own effects too)."""
    return list(game.history[-1].produced) if game.history else []


def last_effect_action_of_opponent(game: Game, by: str) -> list[int]:
    """Bug: an end of turn does not count as an action: the window reaches the action before
    it (what the opponent's last action that was not an end of turn produced)."""
    actions = [a for a in game.history if a.kind != "end_turn"]
    if not actions or actions[-1].by != game.opponent(by):
        return []
    return list(actions[-1].produced)


def action_before_last(game: Game, by: str) -> list[int]:
    """Bug (off by one): the opponent's action one before the last action."""
    if len(game.history) < 2 or game.history[-2].by != game.opponent(by):
        return []
    return list(game.history[-2].produced)


def reach(game: Game, by: str) -> list[Instance]:
    """Every effect a jammer used now by ``by`` could try to negate, oldest first."""
    rules, board = game.rules, game.board
    found = set(rules.jam_window(game, by))
    for inst in game.instances:
        if inst.by == by:
            continue
        lasting = ("stay" if inst.card in board.staying else
                   "standby" if inst.card in board.standby else None)
        if lasting in rules.in_force_jammable and inst.how == "used":
            found.add(inst.n)
        if inst.how in rules.jammable_any_time:
            found.add(inst.n)
        if board.battle is not None and inst.n in board.battle.spells \
                and rules.attack_defense_jammable == "in_effect_step" \
                and board.battle.step == "effects":
            found.add(inst.n)
    return [game.instances[n - 1] for n in sorted(found)]


# -- may this jammer negate that effect? ---------------------------------------------------

def jam_refusal(game: Game, jammer: Effect, target: Instance) -> str | None:
    """Why ``jammer`` may not negate ``target`` (None when it may)."""
    rules, kind = game.rules, kind_of(game, target.effect)
    if target.how == "on_field" and not rules.on_field_jammable:
        return "a 'このカードが場にある→' effect cannot be negated by a jammer"
    if target.how == "fired" and not rules.fired_standby_jammable:
        return "a standby effect that fired cannot be negated by a jammer"
    if kind in ("attack", "defense") and not _spell_jammable(game, jammer, kind):
        return "attack/defense effects cannot be negated by a jammer"
    if (target.effect.stay_until or target.effect.standby_when) \
            and not rules.lasting_jammable_right_after:
        return "(mutant) staying and standby effects cannot be jammed"
    if target.effect.jammer and not rules.jammer_negatable:
        return "(mutant) jammers cannot be negated"
    if kind == "battle" and not rules.battle_effects_jammable:
        return "(mutant) battle effects cannot be negated"
    if target.effect.usable_anyway and not rules.usable_anyway_jammable(target.effect):
        return "(mutant) effects usable under 使えない cannot be negated"
    if kind == "non_battle_spell" and jammer.negates != "non_battle_spells" \
            and not rules.any_jammer_negates_non_battle_spells:
        return "only a jammer that negates non-battle spells can negate a non-battle spell"
    if kind != "non_battle_spell" and jammer.negates == "non_battle_spells":
        return "this jammer negates non-battle spells only"
    return None


def _spell_jammable(game: Game, jammer: Effect, kind: str) -> bool:
    mode = game.rules.attack_defense_jammable
    return mode in ("any_jammer", "in_effect_step") or (mode == "battle_jammer"
                                                         and jammer.kind == "battle") \
        or (mode == "defense_only" and kind == "defense")


def always_jammable(effect: Effect) -> bool:
    return True


def never_jammable(effect: Effect) -> bool:
    """Bug: an effect usable under 使えない cannot be negated either."""
    return False


def regardless_unjammable(effect: Effect) -> bool:
    """Bug: 「効果にかかわらず使える」 is read as 'regardless of jammers too'."""
    return effect.usable_anyway != "regardless"


# -- what a negation does ------------------------------------------------------------------

def survives(game: Game, target: Instance, by: str) -> bool:
    """無効にならない: not negated by a ``by`` ("jammer" or "battle") negation."""
    return target.effect.unnegatable and by in game.rules.unnegatable_against


def restore_keep_costs(game: Game, target: Instance) -> None:
    """Reference: the board as it was just before the effect resolved, later costs still paid."""
    game.board = target.before.copy()
    reapply_later_costs(game, target)


def restore_refund_costs(game: Game, target: Instance) -> None:
    """Bug: also gives back what was paid to use the effect."""
    game.board = target.before_costs.copy()
    reapply_later_costs(game, target)


def restore_battle_part_only(game: Game, target: Instance) -> None:
    """Bug: negating a battle effect undoes only what it did to the battle (its raises);
    the damage it dealt and the MP it moved stay."""
    damage, mp = dict(game.board.damage), dict(game.board.mp)
    restore_keep_costs(game, target)
    if kind_of(game, target.effect) == "battle":
        game.board.damage, game.board.mp = damage, mp


def restore_keep_lasting(game: Game, target: Instance) -> None:
    """Bug: a negated staying or standby effect is put back like any other, but stays in
    force (or keeps waiting): the engine keeps lasting effects apart from the board."""
    staying, standby = dict(game.board.staying), dict(game.board.standby)
    restore_keep_costs(game, target)
    for kept, now in ((staying, game.board.staying), (standby, game.board.standby)):
        if target.card in kept:
            now[target.card] = kept[target.card]


def mark_only(game: Game, target: Instance) -> None:
    """Bug: the effect is called negated but what it did stays done."""


def reapply_later_costs(game: Game, target: Instance) -> None:
    for inst in game.instances:
        if inst.n > target.n:
            for cost in inst.costs:
                pay(game, inst.by, inst.card, cost)


def pay(game: Game, by: str, card: str, cost: tuple[str, int]) -> None:
    what, amount = cost
    if what == "mp":
        game.board.mp[by] -= amount
    elif game.zone_of(card) != "discard":
        game.move(card, "discard")


def negate(game: Game, target: Instance, by_card: str) -> None:
    """Negate ``target``: restore, keep it counted as used, and mark it negated."""
    if survives(game, target, "jammer"):
        game.emit("not_negated", card=target.card)
        return
    if not (target.effect.jammer and not game.rules.jammer_on_jammer_revives):
        game.rules.negation_restores(game, target)
    game.board.negated.add(target.n)
    if target.n in game.pending:
        game.pending.remove(target.n)
    if not game.rules.negated_counts_as_used:
        game.used[target.card] -= 1
    game.emit("negated", card=target.card, by=by_card)
