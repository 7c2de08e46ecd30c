"""Auto clauses (自動効果): which of them an event sets off.

Collecting is separate from resolving: these functions only build `Effect`s;
the caller resolves them (so rule modules never import the resolver).
"""

from __future__ import annotations

from reference_engine.vision import negation, selectors
from reference_engine.vision.model import Card, Clause, Effect
from reference_engine.vision.state import Game

#: Operations whose ``player`` argument makes that player (deck, hand) a target.
PLAYER_OPERATIONS = frozenset({"draw", "discard", "reveal", "look", "shuffle"})


def triggered_effect(holder: Card, clause: Clause, chosen: list[str],
                     answers: Effect | None = None) -> Effect:
    """The effect an auto clause of ``holder`` produces; ``chosen`` is what set it off."""
    return Effect(controller=holder.owner, parts=list(clause.parts), source=holder.id,
                  chosen=chosen, x=holder.x_paid, from_unnegatable=clause.unnegatable,
                  answers=answers, clause=clause)


def _auto_clauses(game: Game, holder: Card, event: str) -> list[Clause]:
    return [c for c in negation.clauses_of(game, holder)
            if c.kind == "auto" and c.when and c.when["event"] == event
            and negation.clause_active(game, holder, c)]


def collect(game: Game, event: str, subject: Card) -> list[Effect]:
    """Effects of auto clauses on the field whose TRIGGER ``event`` matches ``subject``.

    The trigger's filter is read from the holder's side; `chosen` of the
    produced effect is the subject (the card that entered / would die / died).
    """
    found = []
    for holder in game.field_cards():
        for clause in _auto_clauses(game, holder, event):
            assert clause.when is not None
            if selectors.matches(game, subject, clause.when["filter"], holder.owner):
                found.append(triggered_effect(holder, clause, [subject.id]))
    return found


def collect_by_opponent(game: Game, event: str, subject: Card, actor: str) -> list[Effect]:
    """Like `collect`, for triggers that also ask who acted: only holders whose
    opponent is ``actor`` (No.1211: "by an effect of the opponent's card")."""
    return [e for e in collect(game, event, subject) if e.controller != actor]


def collect_from(game: Game, event: str, holder: Card, subject: Card) -> list[Effect]:
    """Auto clauses of ``holder`` alone whose TRIGGER ``event`` matches ``subject``
    ("when this card deals battle damage to ...")."""
    return [triggered_effect(holder, clause, [subject.id])
            for clause in _auto_clauses(game, holder, event)
            if selectors.matches(game, subject, (clause.when or {})["filter"], holder.owner)]


def targets_of(game: Game, effect: Effect) -> tuple[set[str], list[Card]]:
    """The players (their deck/hand) and the cards ``effect`` is about to act on."""
    players: set[str] = set()
    cards: list[Card] = []
    for op, args in effect.parts:
        if op in PLAYER_OPERATIONS:
            players.add(game.who(args["player"], effect.controller))
        if args.get("target") is not None:
            picked, _ = selectors.select(game, args["target"], controller=effect.controller,
                                         source=effect.source, chosen=effect.chosen)
            cards.extend(c for c in picked if c.id not in {k.id for k in cards})
    return players, cards


def opponents_effect(side: str, controller: str) -> bool:
    """vision/reading/targeted-by-opponent-effect: No.445's "becomes the target of an
    effect of the opponent's card" is set off only by the other player's effects."""
    return side != controller


def any_effect(side: str, controller: str) -> bool:
    """Mutant: "becomes the target" is set off by any effect, its holder's own included."""
    return True


def collect_targeted(game: Game, effect: Effect) -> list[Effect]:
    """``targeted`` auto clauses of the other player set off by ``effect``.

    They fire when the opponent's effect targets their controller (you, your
    deck, hand or 冥界) or a card matching their filter (No.445); the produced
    effect `answers` ``effect`` so that ``negate_effect`` can negate it.
    """
    players, cards = targets_of(game, effect)
    found = []
    for holder in game.field_cards():
        side = holder.owner
        if not game.rules.targeted_by(side, effect.controller):
            continue
        for clause in _auto_clauses(game, holder, "targeted"):
            assert clause.when is not None
            flt = clause.when["filter"]
            mine = [c for c in cards
                    if (c.owner == side and c.zone in ("hand", "deck", "graveyard"))
                    or (flt is not None and selectors.matches(game, c, flt, side))]
            if side in players or mine:
                found.append(triggered_effect(holder, clause, [c.id for c in mine], effect))
    return found
