"""A battle: バトル・イン, its steps, the 魔力勝負 and the attack/defense effects.

Steps in order (zatch/reading/battle-steps): attack_defense (攻撃/防御),
effects (効果の使用), contest (魔力勝負), resolution (ダメージ・効果の解決).
Attack and defense effects wait in the battle until the resolution step,
where those of the contest's winner resolve.
"""

from __future__ import annotations

from collections.abc import Callable

from reference_engine.zatch.model import STEPS
from reference_engine.zatch.state import Battle, Game, Instance


def start(game: Game, attacker: str) -> None:
    game.board.battle = Battle(attacker=attacker)
    game.emit("battle_in", by=attacker)


def advance(game: Game, apply: Callable[[Game, Instance], None]) -> bool:
    """Go to the next step; returns False when the battle is over."""
    battle = game.board.battle
    if battle is None:
        raise RuntimeError("advance: there is no battle to advance")
    at = STEPS.index(battle.step)
    if at + 1 == len(STEPS):
        game.board.battle = None
        game.emit("battle_end")
        return False
    battle.step = STEPS[at + 1]
    game.emit("step", step=battle.step)
    if battle.step == "contest":
        _contest(game, battle)
    elif battle.step == "resolution":
        for n in battle.spells:
            inst = game.instances[n - 1]
            if inst.resolved or (n in game.board.negated
                                 and not game.rules.negated_spells_resolve):
                continue
            if battle.winner == inst.by or not game.rules.attack_needs_won_contest:
                apply(game, inst)
                inst.resolved = True
                game.emit("resolved", card=inst.card)
    return True


def _contest(game: Game, battle: Battle) -> None:
    rules = game.rules
    total = {p: battle.power[p] if rules.raises_count_in_contest else 0 for p in battle.power}
    for n in battle.spells:
        if n not in game.board.negated or rules.negated_spells_count:
            inst = game.instances[n - 1]
            total[inst.by] += inst.effect.power
    defender = game.opponent(battle.attacker)
    attack, defense = total[battle.attacker], total[defender]
    battle.winner = (battle.attacker if attack > defense
                     else defender if defense > attack else rules.tie_winner(battle.attacker))
    game.emit("contest", attack=attack, defense=defense, winner=battle.winner)


def nobody(attacker: str) -> None:
    return None


def attacker_wins_ties(attacker: str) -> str:
    """Bug: a tie goes to the attacker."""
    return attacker


# -- 「攻撃を無効にする」「防御を無効にする」「術を無効にする」 (use-attack.4) ---------

def opponents_spells(game: Game, inst: Instance, what: str) -> list[Instance]:
    return [s for s in _spells(game, what) if s.by != inst.by]


def everyones_spells(game: Game, inst: Instance, what: str) -> list[Instance]:
    """Bug: also negates the user's own attack/defense effects."""
    return _spells(game, what)


def spell_means_attack(game: Game, inst: Instance, what: str) -> list[Instance]:
    """Bug: 'negate the spell' reaches only attack spells."""
    return opponents_spells(game, inst, "attack" if what == "spell" else what)


def _spells(game: Game, what: str) -> list[Instance]:
    battle = game.board.battle
    if battle is None:
        return []
    found = [game.instances[n - 1] for n in battle.spells]
    return [s for s in found if what == "spell" or s.effect.kind == what]


# -- who a magic-power raise helps (use-attack.2) --------------------------------------------

def raiser(game: Game, by: str) -> str:
    return by


def raiser_opponent(game: Game, by: str) -> str:
    """Bug: a raise is added to the opponent's side."""
    return game.opponent(by)
