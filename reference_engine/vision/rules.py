"""The switch points: every seed rule the engine applies, by name, in one record.

`REFERENCE` holds the functions (and a few data values) that state the seed
rules.  A mutant is `REFERENCE` with some fields replaced (see ``mutants``);
rule code always goes through ``game.rules.<field>``, never around it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from reference_engine._mutant import patched
from reference_engine.vision import (
    costs,
    deathblow,
    deck,
    names,
    negation,
    power,
    resolution,
    selectors,
    triggers,
)


@dataclasses.dataclass(frozen=True)
class Rules:
    # chapter 12: resolution
    parts_in_order: Callable[..., Any] = resolution.head_first             # IR-12/p1
    text_is_one_effect: bool = True                                        # IR-12/p1
    failed_part_stops_rest: Callable[..., bool] = resolution.failure_stops  # IR-12/p2
    short_pile: Callable[..., tuple[int, bool]] = deck.all_or_nothing      # reading, IR-12/p2
    chosen_succeeds: Callable[..., bool] = resolution.every_chosen_applied  # reading, IR-12/p2
    apply_to_chosen: Callable[..., list[bool]] = resolution.each_card      # reading (chosen list)
    damage_needs_character: bool = True                                    # reading, IR-12/p2
    off_field_part_fails: bool = True                                      # reading, IR-12/p2
    all_succeeds: Callable[..., bool] = resolution.all_always_succeeds     # IR-12/p3, p4
    apply_to_all: Callable[..., list[bool]] = resolution.each_card         # IR-12/p3
    all_matching: Callable[..., list[Any]] = selectors.matching            # IR-12/p3, p4
    empty_all_refused: str = resolution.NEVER                              # IR-12/p4
    play_needs_chosen: bool = True                                         # reading, IR-12/p4
    # 12.3: names
    reference_names: Callable[..., list[str]] = names.reference_names      # IR-12.3
    name_refers: Callable[..., bool] = names.name_contains                 # IR-12.3.1
    same_name: Callable[..., bool] = names.same_name_exact                 # IR-12.3.2
    same_name_names: Callable[..., list[str]] = names.reference_names      # reading
    disguise: Callable[..., None] = names.disguise_printed_name            # QA-2014-11-27
    # costs
    x_from_payment: Callable[..., int] = costs.x_is_nodes_paid             # QA-269
    due_cost: Callable[..., int] = costs.printed_cost_plus_modifier        # QA-269
    cost_clause_active: Callable[..., bool] = negation.clause_active       # IR-2.12.3
    # 6.1.10: combat power
    fix_variables: Callable[..., Any] = power.variables_fixed_first        # IR-6.1.10, QA-356
    sequence_modifiers: Callable[..., Any] = power.by_layer                # IR-6.1.10
    layer_order: tuple[str, ...] = power.LAYERS                            # IR-6.1.10.a-.d
    order_changes: Callable[..., Any] = power.last_change_wins             # QA-298
    apply_modifier: Callable[..., Any] = power.apply                       # reading (always,
                                                                           # not clamped)
    continuous_arrival: Callable[..., Any] = power.since_entry             # reading, QA-298
    power_variable: Callable[..., int] = power.variable                    # reading, 6.1.10
    power_recomputed: bool = True                                          # IR-6.1.10
    battle_attack: Callable[..., int] = power.attack_now                   # IR-6.1.10, context
    # 9.2.2: deathblow
    damage_is_lethal: Callable[..., bool] = deathblow.damage_reaches_durability   # IR-9.2.2.a
    accumulated_damage: Callable[..., int] = deathblow.accumulated         # IR-9.2.2.a
    lethal_durability: Callable[..., int] = deathblow.modified_durability  # IR-6.1.10, 9.2.2
    durability_is_lethal: Callable[..., bool] = deathblow.durability_zero_or_less  # IR-9.2.2.b
    rule_beats_effects: Callable[..., bool] = deathblow.durability_rule_beats_effects
    instruction_deathblows: Callable[..., None] = deathblow.instruction_puts_into_deathblow
    deathblow_checked_each_part: bool = True                               # reading, IR-9.2.2
    destroyed_after_has_put: bool = True                                   # context 9.2.3
    lethal_damage_source: Callable[..., Any] = deathblow.finishing_damage_source  # 1.10.12.f
    durability_cause: Callable[..., Any] = deathblow.no_cause_for_durability  # reading
    damage_cause_spent: bool = True                                        # reading, QA-363
    damage_cleared_on_entry: bool = True                                   # reading (fresh card)
    deathblow_cause: Callable[..., Any] = deathblow.cause_is_damage_source  # IR-1.10.12.f
    deathblow_by_battle: Callable[..., bool] = deathblow.only_battle_damage  # QA-363
    deathblow_by_effect_of: Callable[..., Any] = deathblow.by_card_effect  # QA-2013-11-13
    # 2.12.3 / 12.4: negation
    negated_text_silences: Callable[..., bool] = negation.negated_text_silences_all
    text_negation_spares: Callable[..., bool] = negation.brackets_survive_text_negation
    auto_negation_spares: Callable[..., bool] = negation.brackets_survive_auto_negation
    auto_negation_reaches: Callable[..., bool] = negation.only_auto_clauses  # QA-020
    combine_negations: Callable[..., bool] = negation.once_total_stays_total  # IR-12.4
    effect_negatable: Callable[..., bool] = negation.effect_negatable      # IR-12.4/p2
    on_effect_negated: Callable[..., None] = negation.nothing_more         # IR-12.4/p2
    negated_effect_keeps: Callable[..., Any] = resolution.nothing_of_a_negated_effect
    targeted_by: Callable[..., bool] = triggers.opponents_effect            # reading (No.445)
    # 3.2.5: shuffle after seeing the whole deck
    reveal_needs_shuffle: Callable[..., bool] = deck.whole_deck_without_count
    saw_whole_deck: Callable[..., bool] = deck.all_of_a_non_empty_deck
    reveal_applied: Callable[..., bool] = deck.reveals_what_is_there       # reading
    shuffle_timing: str = deck.DEFERRED
    own_shuffle_replaces_auto: bool = True


REFERENCE = Rules()


def with_patch(patch: dict[str, Any] | None) -> Rules:
    """`REFERENCE` with the fields in ``patch`` replaced; unknown fields are an error."""
    return patched(REFERENCE, patch)
