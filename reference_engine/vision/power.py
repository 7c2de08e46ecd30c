"""Combat power (戦闘力): rule 6.1.10 and the rulings QA-298 and QA-356.

The pipeline, recomputed whenever it is read (so whenever any modifier
changes): fix every variable X first, then apply modifiers layer by layer,
change → swap → add → always, each layer in arrival order.
"""

from __future__ import annotations

from typing import Any

from reference_engine.vision import negation
from reference_engine.vision.model import Card, Modifier
from reference_engine.vision.state import Game

#: vision/IR-6.1.10.a-.d: the order of the layers.
LAYERS = ("change", "swap", "add", "always")


def power_of(game: Game, card: Card) -> tuple[int, int]:
    """Attack and durability "after this process" (6.1.10: what 戦闘力 means)."""
    if game.rules.power_recomputed:
        return compute(game, card)
    if card.power_snapshot is None:
        refresh(game, card)
    assert card.power_snapshot is not None
    return card.power_snapshot


def refresh(game: Game, card: Card) -> None:
    """Record the current power (only the not-recomputed mutant ever reads it)."""
    card.power_snapshot = compute(game, card)


def compute(game: Game, card: Card) -> tuple[int, int]:
    if card.id in game.computing_power:       # a filter asked for the power being computed
        return fixed_base(game, card)
    game.computing_power.add(card.id)
    try:
        base = fixed_base(game, card)
        mods = [fix_modifier(game, card, m) for m in modifiers_on(game, card)]
        base, mods = game.rules.fix_variables(card, base, mods)
        value = base
        for mod in game.rules.sequence_modifiers(game.rules, mods):
            value = game.rules.apply_modifier(mod, value)
        return value
    finally:
        game.computing_power.discard(card.id)


def variable(game: Game, spec: Any, subject: Card, fallback: int | None = None) -> int:
    """The value of an X: an integer, ``cost`` of ``subject``, or a count of a zone."""
    if spec is None:
        return fallback or 0
    if isinstance(spec, int):
        return spec
    if spec == "cost":
        return (subject.x_paid or 0) if subject.cost == "X" else int(subject.cost)
    player = game.who(spec["player"], subject.owner)
    return len(game.zones[player][spec["count"]])


def fixed_base(game: Game, card: Card) -> tuple[int, int]:
    """The printed power with its variable X fixed (6.1.10: before the process)."""
    attack, durability = card.power or (0, 0)
    if "X" in (attack, durability):
        x = game.rules.power_variable(game, card.x, card, card.x_paid)
        attack = x if attack == "X" else attack
        durability = x if durability == "X" else durability
    return int(attack), int(durability)


def modifiers_on(game: Game, card: Card) -> list[Modifier]:
    """Every modifier on ``card`` now, in arrival order: instructions and continuous clauses."""
    found = [m for m in game.modifiers if m.target == card.id]
    for holder in game.field_cards():
        for index, clause in enumerate(negation.clauses_of(game, holder)):
            mod = clause.modifier
            if (clause.kind != "continuous" or mod is None or "cost" in mod
                    or not negation.clause_active(game, holder, clause)):
                continue
            if card.id in {c.id for c in negation.applies_to(game, holder, clause)}:
                found.append(Modifier(kind=mod["kind"], attack=mod["attack"],
                                      durability=mod["durability"], x=mod["x"], source=holder.id,
                                      ts=game.rules.continuous_arrival(holder, index)))
    return sorted(found, key=lambda m: m.ts)


def fix_modifier(game: Game, card: Card, mod: Modifier) -> Modifier:
    """Fix a modifier's "X" values: X counts as in a CARD, seen from the modified card."""
    def value(v: int | str | None) -> int | None:
        if v == "X":
            source = game.cards.get(mod.source or "")
            return variable(game, mod.x, card, source.x_paid if source else None)
        return None if v is None else int(v)
    return Modifier(mod.kind, value(mod.attack), value(mod.durability), None,
                    mod.source, mod.ts, mod.target)


def apply(mod: Modifier, value: tuple[int, int]) -> tuple[int, int]:
    attack, durability = value
    if mod.kind == "swap":
        return durability, attack
    if mod.kind == "add":
        return attack + int(mod.attack or 0), durability + int(mod.durability or 0)
    # change and always both set the values they give
    return (attack if mod.attack is None else int(mod.attack),
            durability if mod.durability is None else int(mod.durability))


# -- switch points ---------------------------------------------------------------------

def variables_fixed_first(card: Card, base: tuple[int, int],
                          mods: list[Modifier]) -> tuple[tuple[int, int], list[Modifier]]:
    """vision/IR-6.1.10, QA-356: a variable power is fixed before the process, so any
    change modifier overrides it whatever the arrival order."""
    return base, mods


def variable_as_late_change(card: Card, base: tuple[int, int],
                            mods: list[Modifier]) -> tuple[tuple[int, int], list[Modifier]]:
    """Mutant: a variable power acts as a change arriving when the card entered the field."""
    if card.power is None or "X" not in card.power:
        return base, mods
    own = Modifier("change", base[0], base[1], source=card.id, ts=(card.entered_at, -1))
    return base, sorted([*mods, own], key=lambda m: m.ts)


def variable_as_always(card: Card, base: tuple[int, int],
                       mods: list[Modifier]) -> tuple[tuple[int, int], list[Modifier]]:
    """Mutant: the power's variable is evaluated after every modifier, so it overrides them."""
    if card.power is None or "X" not in card.power:
        return base, mods
    own = Modifier("always", base[0] if card.power[0] == "X" else None,
                   base[1] if card.power[1] == "X" else None, source=card.id,
                   ts=(1 << 60, 0))
    return base, [*mods, own]


def changes_skip_variables(card: Card, base: tuple[int, int],
                           mods: list[Modifier]) -> tuple[tuple[int, int], list[Modifier]]:
    """Mutant: a power defined by a variable is locked against change modifiers."""
    if card.power is None or "X" not in card.power:
        return base, mods
    return base, [m for m in mods if m.kind != "change"]


def by_layer(rules: Any, mods: list[Modifier]) -> list[Modifier]:
    """vision/IR-6.1.10: modifiers applied layer by layer in the order of .a-.d."""
    ordered: list[Modifier] = []
    for kind in rules.layer_order:
        layer = [m for m in mods if m.kind == kind]
        ordered.extend(rules.order_changes(layer) if kind == "change" else layer)
    return ordered


def by_arrival(rules: Any, mods: list[Modifier]) -> list[Modifier]:
    """Mutant: modifiers applied in the order they arrived, ignoring the layers."""
    return sorted(mods, key=lambda m: m.ts)


def sets_last_by_arrival(rules: Any, mods: list[Modifier]) -> list[Modifier]:
    """Mutant: change and "always" both set a value, so they share the last layer and
    apply in arrival order after swap and add."""
    sets = [m for m in mods if m.kind in ("change", "always")]
    return ([m for m in mods if m.kind == "swap"] + [m for m in mods if m.kind == "add"]
            + sorted(sets, key=lambda m: m.ts))


def one_swap_only(rules: Any, mods: list[Modifier]) -> list[Modifier]:
    """Mutant: swap is a flag ("swapped"), so two swaps do not swap back."""
    ordered = by_layer(rules, mods)
    first = next((m for m in ordered if m.kind == "swap"), None)
    return [m for m in ordered if m.kind != "swap" or m is first]


def last_add_only(rules: Any, mods: list[Modifier]) -> list[Modifier]:
    """Mutant: add modifiers are kept one per card (a dict by kind): only the last counts."""
    ordered = by_layer(rules, mods)
    adds = [m for m in ordered if m.kind == "add"]
    return [m for m in ordered if m.kind != "add" or m is adds[-1]]


def last_change_wins(changes: list[Modifier]) -> list[Modifier]:
    """vision/QA-298: several changes all apply in arrival order, so the last one wins."""
    return changes


def first_change_wins(changes: list[Modifier]) -> list[Modifier]:
    """Mutant: the first change that arrived is the one that sticks."""
    return list(reversed(changes))


def only_last_change(changes: list[Modifier]) -> list[Modifier]:
    """Mutant: the last change replaces the earlier ones whole, even on the values it does
    not set, so they do not overlap."""
    return changes[-1:]


def largest_change_wins(changes: list[Modifier]) -> list[Modifier]:
    """Mutant: of several changes, the one giving the highest attack sticks."""
    return sorted(changes, key=lambda m: (m.attack if isinstance(m.attack, int) else -1))


def apply_always_as_add(mod: Modifier, value: tuple[int, int]) -> tuple[int, int]:
    """Mutant: an "always" modifier adds its values instead of setting them."""
    if mod.kind == "always":
        return apply(Modifier("add", mod.attack, mod.durability), value)
    return apply(mod, value)


def attack_now(game: Game, card: Card) -> int:
    """vision/IR-6.1.10 (last sentence), context/battle-damage-is-attack: battle damage
    is the attack "after this process"."""
    return power_of(game, card)[0]


def printed_attack(game: Game, card: Card) -> int:
    """Mutant: battle damage reads the printed attack (its X fixed), not the modified one."""
    return fixed_base(game, card)[0]


def apply_floored_at_zero(mod: Modifier, value: tuple[int, int]) -> tuple[int, int]:
    """Mutant: attack and durability never go below 0 (each modifier's result is floored)."""
    attack, durability = apply(mod, value)
    return max(attack, 0), max(durability, 0)


def since_entry(holder: Card, index: int) -> tuple[int, int]:
    """vision/reading/continuous-modifier-arrives-on-entry: a continuous clause's
    modifier arrived when its card entered the field (clauses in text order)."""
    return holder.entered_at, index


def before_instructions(holder: Card, index: int) -> tuple[int, int]:
    """Mutant: continuous modifiers always count as arriving before any instruction's."""
    return -1, index


def variable_counted_once(game: Game, spec: Any, subject: Card,
                          fallback: int | None = None) -> int:
    """Mutant: a power's X is counted the first time and then kept for good."""
    fixed: dict[str, int] = game.__dict__.setdefault("mutant_fixed_x", {})
    if subject.id not in fixed:
        fixed[subject.id] = variable(game, spec, subject, fallback)
    return fixed[subject.id]
