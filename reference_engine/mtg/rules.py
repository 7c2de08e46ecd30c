"""The switch points: every seed rule the engine applies, by name, in one frozen record.

`REFERENCE` states the seed rules.  A mutant is `REFERENCE` with some fields
replaced (see ``mutants``).  The record is injected into the game state
(``game.rules``); rule modules never import this module, so there is no import
circle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from reference_engine._mutant import patched
from reference_engine.mtg import (
    casting,
    characteristics,
    combat,
    instructions,
    prevention,
    resolution,
)


@dataclasses.dataclass(frozen=True)
class Rules:
    # 609.1 (+ reading statics-on-battlefield): where effects come from, and when
    statics_zones: tuple[str, ...] = characteristics.BATTLEFIELD_ONLY
    effects_at_resolution: Callable[..., bool] = resolution.on_resolution
    ability_effects_at_resolution: bool = True
    # 609.2 and its two examples; the page's "all effects overlap"
    become_scope: Callable[..., tuple[str, ...]] = characteristics.scope_named_or_battlefield
    become_reaches: Callable[..., bool] = characteristics.same_object
    combine_becomes: Callable[..., Any] = characteristics.every_become
    cost_change_reaches: Callable[..., bool] = casting.spell_on_stack_only
    spell_controller: Callable[..., str] = casting.caster_controls
    cost_change_visible_in: tuple[str, ...] = ()
    sum_cost_changes: Callable[..., int] = casting.changes_stack
    # 609.3 and the page's golden rule
    discard_count: Callable[..., int] = instructions.as_many_as_possible
    library_count: Callable[..., int] = instructions.as_many_as_possible
    impossible_stops_rest: bool = False
    # 609.4 / 609.4a
    static_grants_to: Callable[..., bool] = casting.grants_to_controller
    combine_permissions: Callable[..., set[str]] = casting.all_permissions
    flashback_graveyard: Callable[..., bool] = casting.treated_as_own_graveyard
    zone_permission_casts: bool = False
    leaves_stack_to: Callable[..., str] = resolution.to_owner
    graveyards_merged: bool = False
    permission_grants_keyword: bool = False
    # the context rules the vocabulary's real game actions follow
    sorcery_timing: Callable[..., bool] = casting.active_player_main_phase   # CR 307.1
    flashback_needs_keyword: bool = True                                     # CR 702.34
    still_attacking: Callable[..., bool] = combat.same_object                # CR 400.7
    unasked_choice_refused: bool = True                                      # CR 608.2d
    # the vocabulary's conventions: exact payment from the pool; a refusal changes nothing
    payment_accepted: Callable[..., bool] = casting.payment_fits
    pool_checked: bool = True
    activation_cost_paid: bool = True                       # CR 602.2b (context)
    refusal_restores: bool = True
    # 609.4b
    any_type_wordings: tuple[str, ...] = casting.ANY_TYPE
    record_spent: Callable[..., dict[str, int]] = casting.spent_as_paid
    cost_after_payment: Callable[..., None] = casting.cost_kept
    # 609.5
    tie_break: Callable[..., str | None] = instructions.no_general_tie_rule
    tie_clause_followed: bool = True
    # 609.7 / 609.7a / 609.7b
    legal_source: Callable[..., bool] = prevention.legal_source
    choice_needs_characteristic: bool = True   # reading chosen-source-has-characteristic
    choose_at_creation: bool = True
    choice_required: bool = True
    chosen_object: Callable[..., tuple[str, int]] = prevention.referred_object
    ability_source: Callable[..., Any] = resolution.last_known_source
    shield_follows_spell: bool = True
    shield_source_matches: Callable[..., bool] = prevention.source_is_chosen
    shield_protects: Callable[..., bool] = prevention.protects_its_player
    static_protects: Callable[..., bool] = prevention.protects_controller_only
    characteristic_holds: Callable[..., bool] = prevention.recheck_now
    shield_used_up: Callable[..., bool] = prevention.used_when_prevented
    zero_damage_meets_shields: bool = False
    zero_damage_reported: bool = False
    combine_shields: bool = True
    # 609.7c
    static_prevent_zones: tuple[str, ...] = characteristics.EVERY_ZONE
    static_replace_zones: tuple[str, ...] = characteristics.EVERY_ZONE
    replacement_protects: Callable[..., bool] = prevention.protects_controller_only  # CR 614


REFERENCE = Rules()


def with_patch(patch: dict[str, Any] | None) -> Rules:
    """`REFERENCE` with the fields in ``patch`` replaced; unknown fields are an error."""
    return patched(REFERENCE, patch)
