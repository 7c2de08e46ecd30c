"""Effects that outlast their use: 【ステイ】, 【スタンバイ】, 「このカードが場にある→」.

A staying effect is in force until its time ends or a removal effect removes
it; a standby effect waits for its moment and then fires once; an on-field
effect fires whenever its moment comes while its card is on the field.
`fire` runs one moment (battle_in, end_of_battle, end_of_turn) for all three.
"""

from __future__ import annotations

from collections.abc import Callable

from reference_engine.zatch.state import Game, Instance
from reference_engine.zatch.timing import restricted

Apply = Callable[[Game, Instance], None]


def fire(game: Game, moment: str, apply: Apply) -> list[int]:
    """Everything that happens at ``moment``; returns the instances that fired."""
    rules, board, fired = game.rules, game.board, []
    for card, until in list(board.staying.items()):
        if rules.stay_ends(until, moment):
            del board.staying[card]
            game.emit("expired", card=card)
    for card, when in list(board.standby.items()):
        by = game.controller_of(card)
        if when != moment or (rules.restriction_stops_firing
                              and restricted(game, game.effect_of(card), by)):
            continue
        if rules.standby_fires != "repeat":
            del board.standby[card]
        if rules.standby_fires != "never":
            fired.append(_run(game, card, by, "fired", apply))
    for player in ("p1", "p2"):
        for card in [c for zone in rules.on_field_zones for c in board.zones[player][zone]]:
            effect = game.cards[card].effect
            if effect and effect.kind == "on_field" and effect.when == moment \
                    and on_field_works(game, card):
                fired.append(_run(game, card, player, "on_field", apply))
    return fired


def _run(game: Game, card: str, by: str, how: str, apply: Apply) -> int:
    before = game.board.copy()
    inst = Instance(n=len(game.instances) + 1, card=card, by=by, effect=game.effect_of(card),
                    how=how, before=before, before_costs=before)
    game.instances.append(inst)
    game.emit("fired", card=card)
    apply(game, inst)
    inst.resolved = True
    return inst.n


def on_field_works(game: Game, card: str) -> bool:
    """Whether an on-field effect works now (on-field.1, .3, .4)."""
    rules, owner = game.rules, game.cards[card].owner
    mode = rules.on_field_fires
    if mode == "declared":
        return False
    if mode == "own_turn" and game.board.turn != owner:
        return False
    if mode == "once" and any(i.card == card for i in game.instances):
        return False
    if game.board.battle is not None and not rules.on_field_in_battle:
        return False
    blocked = restricted(game, game.effect_of(card), rules.on_field_bound(game, card))
    return not (blocked and rules.cannot_use_stops_on_field)


def card_owner(game: Game, card: str) -> str:
    """Whom a 使えない must bind to stop an on-field effect: its card's owner."""
    return game.cards[card].owner


def turn_player(game: Game, card: str) -> str:
    """Bug: a 使えない stops an on-field effect when it binds the turn player."""
    return game.board.turn


# -- how long a stay lasts (stay.1) ----------------------------------------------------------

def ends_on_time(until: str, moment: str) -> bool:
    return until == moment


def ends_with_any_battle(until: str, moment: str) -> bool:
    """Bug: every staying effect also ends when a battle ends."""
    return until == moment or moment == "end_of_battle"


def battle_stay_ends_with_turn(until: str, moment: str) -> bool:
    """Bug: a stay until the end of battle also ends with the turn, so one used outside a
    battle lasts at most until the end of that turn."""
    return until == moment or (until == "end_of_battle" and moment == "end_of_turn")


def never_ends(until: str, moment: str) -> bool:
    """Bug: a staying effect outlives its stated time."""
    return False


# -- removal effects (stay.3, standby.4) -----------------------------------------------------

def _kind(game: Game, what: str) -> dict[str, str]:
    return game.board.staying if what == "stay" else game.board.standby


def remove_named(game: Game, card: str, what: str) -> list[str]:
    lasting = _kind(game, what)
    return [card] if lasting.pop(card, None) is not None else []


def anyones(game: Game, card: str, by: str) -> bool:
    """A removal reaches the lasting effect it names, whoever used it."""
    return True


def opponents_only(game: Game, card: str, by: str) -> bool:
    """Bug: a removal reaches only the opponent's staying or standing-by effects."""
    return game.controller_of(card) != by


def remove_nothing(game: Game, card: str, what: str) -> list[str]:
    """Bug: removal effects do nothing to effects in force."""
    return []


def remove_either_kind(game: Game, card: str, what: str) -> list[str]:
    """Bug: a removal removes the card's staying or standing-by effect, whichever it has."""
    return remove_named(game, card, "stay") or remove_named(game, card, "standby")


def remove_all_of_kind(game: Game, card: str, what: str) -> list[str]:
    """Bug: a removal removes every effect of that kind, not the one it names."""
    lasting = _kind(game, what)
    gone = list(lasting)
    lasting.clear()
    return gone
