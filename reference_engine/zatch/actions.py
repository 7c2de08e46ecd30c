"""The actions of the Zatch vocabulary: use, pass, battle_in, next_step, end_turn.

Each action is checked before anything changes, so a rejected action leaves
the game as it was.  Every accepted action joins the history: a jammer may
only answer what the opponent's action right before it produced.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine.zatch import battle, lasting, negation, resolution, timing
from reference_engine.zatch.model import PLAYERS
from reference_engine.zatch.state import Action, Game, Instance


class Rejected(Exception):
    """The rules forbid the action; the message says why."""


_USE_KEYS = {"use", "by", "target", "interrupt"}


def act(game: Game, action: Any) -> dict[str, Any]:
    if not isinstance(action, dict) or not action:
        raise Unsupported(f"an action must be a non-empty object, got {action!r:.80}")
    kind = "use" if "use" in action else next(iter(action))
    if kind not in HANDLERS or (kind == "use" and set(action) - _USE_KEYS) \
            or (kind != "use" and len(action) != 1):
        raise Unsupported(f"unknown action {sorted(map(str, action))}; the actions are "
                          f"{sorted(HANDLERS)} (docs/rulesets/zatch.md)")
    game.events = []
    saved = (game.board.copy(), len(game.instances), dict(game.used), list(game.pending),
             list(game.armed), len(game.history))
    try:
        HANDLERS[kind](game, action)
    except Rejected as refusal:
        game.board, game.used, game.pending, game.armed = saved[0], saved[2], saved[3], saved[4]
        del game.instances[saved[1]:]
        del game.history[saved[5]:]
        game.events = []
        return {"accepted": False, "reason": str(refusal), "events": []}
    events, game.events = game.events, []
    return {"accepted": True, "events": events}


def _player(spec: Any) -> str:
    by = spec.get("by") if isinstance(spec, dict) else None
    if by not in PLAYERS:
        raise Unsupported(f"'by' must be one of {PLAYERS}, got {by!r}")
    return by


def _use(game: Game, action: dict[str, Any]) -> None:
    card, by = action["use"], _player(action)
    if card not in game.cards:
        raise Rejected(f"no card {card!r}")
    if "interrupt" in action and not game.rules.interrupts_allowed:
        raise Rejected("effect interrupts were abolished: an effect resolves as soon as it is "
                       "used, so nothing can be used in between")
    why = timing.use_refusal(game, card, by, interrupting="interrupt" in action)
    if why:
        raise Rejected(why)
    effect = game.effect_of(card)   # use_refusal refused a card without one
    target = _jam_target(game, card, by, action.get("target")) if effect.jammer else None
    if game.board.mp[by] < effect.mp_cost:
        raise Rejected(f"{by} has {game.board.mp[by]} MP, the cost is {effect.mp_cost}")
    _flush(game, by)
    inst = _pay(game, card, by)
    game.history.append(Action(by=by, kind="use", produced=[inst.n]))
    kind = timing.kind_of(game, effect)
    if _waits_for_contest(game, kind, by):
        assert game.board.battle is not None   # only in a battle
        game.board.battle.spells.append(inst.n)
    elif effect.jammer:
        if target is not None:
            negation.negate(game, target, card)
        elif game.rules.jammer_without_target == "armed":
            game.armed.append(inst.n)
        inst.resolved = True
    elif kind in game.rules.deferred_kinds or (kind == "non_battle_spell"
                                               and effect.side in game.rules.deferred_spell_sides):
        game.pending.append(inst.n)
    else:
        resolution.resolve(game, inst)
    _disarm(game, inst)
    if kind == "non_battle_spell":
        game.rules.non_battle_spell_aftermath(game, inst)
    if game.rules.costs_rechecked_after_response:
        _recheck_previous(game, inst)


def _waits_for_contest(game: Game, kind: str, by: str) -> bool:
    """Attack and defense effects wait for the contest (use-attack.1); a mutant makes the
    defender's battle effects wait too."""
    battle = game.board.battle
    if battle is None:
        return False
    return kind in game.rules.wait_for_contest or (
        kind == "battle" and by != battle.attacker and game.rules.defender_battle_effects_wait)


def _jam_target(game: Game, card: str, by: str, named: str | None) -> Instance | None:
    reach = negation.reach(game, by)
    if named is not None:
        reach = [i for i in reach if i.card == named]
    reach = [i for i in reach if i.n not in game.board.negated]
    if not reach:
        if game.rules.jammer_without_target == "refused":
            raise Rejected("a jammer answers the opponent's action right before it; there is "
                           "no such effect to negate")
        return None
    target = reach[-1]
    why = negation.jam_refusal(game, game.effect_of(card), target)
    if why and game.rules.jammer_at_unjammable == "wasted":
        return None   # bug: the jammer is used up and negates nothing
    if why:
        raise Rejected(why)
    return target


def _disarm(game: Game, inst: Instance) -> None:
    """Bug (jammer used in advance, negate.2): an armed jammer negates the next effect."""
    for n in list(game.armed):
        jammer = game.instances[n - 1]
        if jammer.by != inst.by and not inst.effect.jammer:
            game.armed.remove(n)
            negation.negate(game, inst, jammer.card)


def _pay(game: Game, card: str, by: str) -> Instance:
    effect = game.effect_of(card)
    before_costs = game.board.copy()
    costs: list[tuple[str, int]] = []
    if effect.mp_cost:
        costs.append(("mp", effect.mp_cost))
    if effect.discard_self or (game.zone_of(card) == "hand"
                               and game.rules.used_from_hand_discarded):
        costs.append(("discard", 0))
    for cost in costs:
        negation.pay(game, by, card, cost)
    inst = Instance(n=len(game.instances) + 1, card=card, by=by, effect=effect, how="used",
                    before=game.board.copy(), before_costs=before_costs, costs=costs)
    game.instances.append(inst)
    game.used[card] = game.used.get(card, 0) + 1
    game.emit("used", card=card, by=by)
    return inst


def _recheck_previous(game: Game, inst: Instance) -> None:
    """Bug (the abolished interrupt): an answer that leaves the opponent short of the MP
    their effect cost negates that effect."""
    earlier = [i for i in game.instances if i.n < inst.n and i.how == "used"]
    if earlier and earlier[-1].by != inst.by \
            and game.board.mp[earlier[-1].by] < earlier[-1].effect.mp_cost:
        negation.negate(game, earlier[-1], inst.card)


def _flush(game: Game, by: str, moment: str | None = None) -> None:
    """Resolve effects whose resolution a mutant deferred (the reference defers none);
    ``moment``: the moment this action makes (a mutant waits for the battle-in)."""
    if game.rules.deferred_until == "battle_in" and moment != "battle_in":
        return
    for n in list(game.pending):
        inst = game.instances[n - 1]
        if game.rules.deferred_until == "own_next_action" and inst.by != by:
            continue
        game.pending.remove(n)
        resolution.resolve(game, inst)


# -- what using a non-battle spell does besides resolving (nonbattle.5) -------------------

def no_battle(game: Game, inst: Instance) -> None:
    return None


def battle_for_turn_player(game: Game, inst: Instance) -> None:
    """Bug: using a non-battle spell starts a battle, the turn player attacking."""
    if game.board.battle is None:
        battle.start(game, game.board.turn)


def battle_for_user(game: Game, inst: Instance) -> None:
    """Bug: using a non-battle spell starts a battle with its user attacking."""
    if game.board.battle is None:
        battle.start(game, inst.by)


def battle_in_moment(game: Game, inst: Instance) -> None:
    """Bug: no battle starts, but the battle-in moment happens (standby/on-field fire)."""
    game.history[-1].produced += lasting.fire(game, "battle_in", resolution.apply)


def _pass(game: Game, action: dict[str, Any]) -> None:
    by = _player(action["pass"])
    _flush(game, by)
    game.history.append(Action(by=by, kind="pass"))


def _battle_in(game: Game, action: dict[str, Any]) -> None:
    by = _player(action["battle_in"])
    board = game.board
    if board.battle is not None or board.phase != "battle" or board.turn != by:
        raise Rejected("only the turn player enters a battle, in their battle phase, "
                       "when no battle is going on")
    _flush(game, by, "battle_in")
    battle.start(game, by)
    fired = lasting.fire(game, "battle_in", resolution.apply)
    game.history.append(Action(by=by, kind="battle_in", produced=fired))


def _next_step(game: Game, action: dict[str, Any]) -> None:
    by = _player(action["next_step"])
    if game.board.battle is None:
        raise Rejected("there is no battle to advance")
    if not game.rules.defender_advances and by != game.board.turn:
        raise Rejected("only the attacker moves the battle on")
    _flush(game, by)
    fired: list[int] = []
    if not battle.advance(game, resolution.apply):
        fired = lasting.fire(game, "end_of_battle", resolution.apply)
        if not game.rules.phase_outlives_battle:
            game.board.phase = "main"
    game.history.append(Action(by=by, kind="next_step", produced=fired))


def _end_turn(game: Game, action: dict[str, Any]) -> None:
    by = _player(action["end_turn"])
    if game.board.battle is not None or game.board.turn != by:
        raise Rejected("the turn player ends the turn, outside a battle")
    _flush(game, by)
    fired = lasting.fire(game, "end_of_turn", resolution.apply)
    game.board.turn, game.board.phase = game.opponent(by), "main"
    game.emit("turn", player=game.board.turn)
    game.history.append(Action(by=by, kind="end_turn", produced=fired))


HANDLERS = {"use": _use, "pass": _pass, "battle_in": _battle_in, "next_step": _next_step,
            "end_turn": _end_turn}
