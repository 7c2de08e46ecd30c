"""Negation: which clauses of a card still work (2.12.3, 12.4, QA-020, QA-102).

A card's clauses are its printed texts, the clauses it gained from effects
(No.345-style) and those granted by continuous clauses of cards on the field.
Negating a text silences them except 【】 clauses; negating an *effect* is a
different thing (`effect_negatable`).
"""

from __future__ import annotations

from reference_engine.vision import selectors
from reference_engine.vision.model import Card, Clause, Effect
from reference_engine.vision.state import Game


def clauses_of(game: Game, card: Card) -> list[Clause]:
    """Every clause ``card`` has now, active or not: printed, gained, granted."""
    own = [*card.texts, *card.gained]
    if card.zone != "field":
        return own
    granted: list[Clause] = []
    for holder in game.field_cards():
        for clause in [*holder.texts, *holder.gained]:
            if (clause.kind == "continuous" and clause.gain
                    and clause_active(game, holder, clause)
                    and card.id in {c.id for c in applies_to(game, holder, clause)}):
                granted.extend(clause.gain)
    return own + granted


def applies_to(game: Game, holder: Card, clause: Clause) -> list[Card]:
    """The cards a continuous clause of ``holder`` reaches (default: the holder)."""
    selector = clause.applies_to
    if selector is None and clause.modifier is not None:
        selector = clause.modifier.get("target")
    cards, _ = selectors.select(game, selector or "this", controller=holder.owner,
                                source=holder.id, chosen=[])
    return cards


def clause_active(game: Game, card: Card, clause: Clause) -> bool:
    """Whether ``clause`` of ``card`` produces effects despite any negation on the card."""
    rules = game.rules
    if (card.text_negated and rules.negated_text_silences(clause.kind)
            and not rules.text_negation_spares(clause, card.text_negation_total)):
        return False
    return not (rules.auto_negation_reaches(clause.kind) and card.auto_negated
                and not rules.auto_negation_spares(clause, card.auto_negation_total, card))


def only_auto_clauses(kind: str) -> bool:
    """vision/QA-020: "negate auto effects" reaches the card's auto clauses only."""
    return kind == "auto"


def every_clause_kind(kind: str) -> bool:
    """Mutant: "negate auto effects" silences the card's continuous clauses too (as if
    its whole text were negated)."""
    return True


def negated_text_silences_all(kind: str) -> bool:
    """vision/IR-2.12.3: a negated text produces none of its effects, whatever their kind."""
    return True


def negated_text_keeps_continuous(kind: str) -> bool:
    """Mutant: negating a text stops its play and auto effects but not its continuous ones."""
    return kind != "continuous"


def negated_text_keeps_auto(kind: str) -> bool:
    """Mutant: negating a text stops its continuous effects but its auto clauses still
    trigger."""
    return kind != "auto"


def always_active(game: Game, card: Card, clause: Clause) -> bool:
    """Mutant (cost modifiers): negation is never consulted, so a negated card's cost
    modifier stays in force."""
    return True


def once_total_stays_total(before: bool, now: bool) -> bool:
    """vision/IR-12.4: once a negation that includes 【】 text hit the card, a later plain
    negation does not bring its 【】 clauses back."""
    return before or now


def latest_negation_decides(before: bool, now: bool) -> bool:
    """Mutant: each negation overwrites the last, so a plain one revives 【】 clauses."""
    return now


def nothing_more(game: Game, effect: Effect) -> None:
    """vision/IR-12.4/p2: negating an effect negates that effect, not the text it came from."""


def negate_source_text(game: Game, effect: Effect) -> None:
    """Mutant: negating an effect also negates the whole text that produced it, 【】 and all."""
    card = game.cards.get(effect.source or "")
    if card is not None and card.zone == "field":
        card.text_negated = card.text_negation_total = True


def brackets_survive_text_negation(clause: Clause, include_unnegatable: bool,
                                   card: Card | None = None) -> bool:
    """vision/IR-12.4, /p1, IR-2.12.3: 【】 text is not negated by negating the text,
    even the whole text, unless the negation says it includes 【】 text."""
    return clause.unnegatable and not include_unnegatable


def brackets_never_survive(clause: Clause, include_unnegatable: bool,
                           card: Card | None = None) -> bool:
    """Mutant: negation reaches 【】 clauses like any other."""
    return False


def only_auto_brackets_survive(clause: Clause, include_unnegatable: bool,
                               card: Card | None = None) -> bool:
    """Mutant: 【】 protection is checked where auto clauses trigger, not for continuous."""
    return clause.unnegatable and clause.kind == "auto" and not include_unnegatable


def only_continuous_brackets_survive(clause: Clause, include_unnegatable: bool,
                                     card: Card | None = None) -> bool:
    """Mutant: a negated card triggers nothing, so only 【】 continuous clauses survive."""
    return clause.unnegatable and clause.kind == "continuous" and not include_unnegatable


def brackets_always_survive(clause: Clause, include_unnegatable: bool,
                            card: Card | None = None) -> bool:
    """Mutant: even a negation that says it includes 【】 text leaves them working."""
    return clause.unnegatable


def brackets_survive_auto_negation(clause: Clause, include_unnegatable: bool,
                                   card: Card | None = None) -> bool:
    """vision/QA-020, IR-12.4: "negate auto effects" does not negate a 【】 auto effect."""
    return clause.unnegatable and not include_unnegatable


def effect_negatable(effect: Effect) -> bool:
    """vision/IR-12.4/p2, QA-102, 12.4 supplement: an effect *produced by* a 【】 clause
    can be negated (No.445 negates what No.345 gave); only the text itself is protected."""
    return True


def produced_effect_protected(effect: Effect) -> bool:
    """Mutant: effects produced by 【】 clauses cannot be negated."""
    return not effect.from_unnegatable


def printed_brackets_survive_auto_negation(clause: Clause, include_unnegatable: bool,
                                           card: Card | None = None) -> bool:
    """Mutant: "negate auto effects" checks 【】 only on the printed text, so a 【】 auto
    clause the card gained (No.345) is negated."""
    printed = card is None or any(c is clause for c in card.texts)
    return clause.unnegatable and printed and not include_unnegatable


def brackets_protect_whole_cards(clause: Clause, include_unnegatable: bool,
                                 card: Card | None = None) -> bool:
    """Mutant: 【】 is kept as a card flag: "negate auto effects" spares a card's auto
    clauses only when every one of them is in 【】."""
    autos = [c for c in card.texts if c.kind == "auto"] if card is not None else [clause]
    return all(c.unnegatable for c in autos) and not include_unnegatable
