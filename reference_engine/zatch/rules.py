"""The switch points: every seed rule the engine applies, by name, in one record.

`REFERENCE` states the seed rules (docs/rulesets/zatch.md).  The game gets the
record injected (``Game.rules``); rule modules read ``game.rules.<field>`` and
never import this module, so a mutant is just `REFERENCE` with fields replaced.
The comment on each field names the rule ids it decides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from reference_engine._mutant import patched
from reference_engine.zatch import actions, battle, lasting, negation, resolution, timing

F = Callable[..., Any]


@dataclasses.dataclass(frozen=True)
class Rules:
    # 効果の割り込みの廃止
    interrupts_allowed: bool = False                                # interrupt.1, .ex1, .ex2
    usable_from_discard: F = timing.never_from_discard              # interrupt.ex2
    costs_rechecked_after_response: bool = False                    # interrupt.ex1
    # ジャマー効果 / 無効にする
    jam_window: F = negation.last_action_of_opponent                # jammer.def, .1, negate.1
    jammer_without_target: str = "refused"                          # negate.2
    jammer_at_unjammable: str = "refused"                           # jammer.3, on-field.2
    negation_restores: F = negation.restore_keep_costs              # jammer.2
    negated_counts_as_used: bool = True                             # jammer.2
    on_field_jammable: bool = False                                 # jammer.3, on-field.2
    fired_standby_jammable: bool = False                            # jammer.3, standby.3
    jammable_any_time: frozenset[str] = frozenset()                 # jammer.3 (how: fired...)
    jammer_negatable: bool = True                                   # jammer.5
    jammer_on_jammer_revives: bool = True                           # jammer.5
    jammers_in_battle: bool = True                                  # jammer.4, battle.5
    attacker_jams_in_battle: bool = True                            # jammer.4
    plain_jammers_in_effect_step: bool = False                      # jammer.4, battle.note
    battle_effects_jammable: bool = True                            # battle.5
    lasting_jammable_right_after: bool = True                       # stay.2, standby.2
    in_force_jammable: frozenset[str] = frozenset()                 # stay.2, standby.2
    # バトルの効果
    battle_icon_read: bool = True                                   # battle.1
    battle_effect_steps: tuple[str, ...] = ("effects",)             # battle.2
    battle_effects_only_in_battle: bool = True                      # battle.3
    battle_jammers_anywhere: bool = False                           # battle.3, nonbattle.6
    any_effect_in_effect_step: bool = False                         # battle.note
    defender_advances: bool = True                                  # reading (either player)
    phase_outlives_battle: bool = True                              # reading (battles/phase)
    # 非バトルの術
    non_battle_icon_read: bool = True                               # nonbattle.1
    non_battle_spell_phase: F = timing.side_matches_turn            # nonbattle.2
    non_battle_spell_steps: tuple[str, ...] = ()                    # nonbattle.3
    non_battle_spell_aftermath: F = actions.no_battle               # nonbattle.5
    any_jammer_negates_non_battle_spells: bool = False              # nonbattle.6
    # 効果の使用と解決
    deferred_kinds: frozenset[str] = frozenset()                    # use-most.1, .3, battle.4
    used_from_hand_discarded: bool = True                           # reading (used card)
    deferred_spell_sides: frozenset[str] = frozenset()              # nonbattle.4
    deferred_until: str = "next_action"                             # (mutants only)
    defender_battle_effects_wait: bool = False                      # use-most.3, battle.4
    wait_for_contest: frozenset[str] = frozenset({"attack", "defense"})   # use-attack.1
    attack_needs_won_contest: bool = True                           # use-attack.1
    negated_spells_count: bool = False                              # use-attack.1, .4
    negated_spells_resolve: bool = False                            # negate.1, use-attack.4
    tie_winner: F = battle.nobody                                   # reading/contest-winner
    raises_count_in_contest: bool = True                            # use-attack.2
    raise_goes_to: F = battle.raiser                                # use-attack.2
    attack_defense_jammable: str = "never"                          # use-attack.3
    battle_negation_hits: F = battle.opponents_spells               # use-attack.4, negate.1
    # ステイ / スタンバイ
    stay_kept: bool = True                                          # stay.1
    stay_ends: F = lasting.ends_on_time                             # stay.1
    standby_waits: bool = True                                      # standby.1
    standby_fires: str = "once"                                     # standby.1
    removal: F = lasting.remove_named                               # stay.3, standby.4
    removal_reaches: F = lasting.anyones                            # stay.3, standby.4
    # 「このカードが場にある→」
    on_field_fires: str = "always"                                  # on-field.1
    on_field_in_battle: bool = True                                 # on-field.4
    on_field_zones: tuple[str, ...] = ("field",)                    # on-field.1
    on_field_bound: F = lasting.card_owner                          # on-field.3, cannot.3
    cannot_use_stops_on_field: bool = True                          # on-field.3, cannot.3
    effects_restriction_covers_on_field: bool = True                # on-field.3
    # 使えない / 無効にならない / 使えないときにも使える
    restrictions_apply: bool = True                                 # cannot.1
    restriction_binds: F = timing.binds_named_player                # cannot.1
    restriction_default: str = "opponent"                           # cannot.1
    restriction_matches: F = timing.matches                         # cannot.1
    cannot_use_reaches_back: F = resolution.binds_from_now_on       # cannot.2
    restriction_stops_firing: bool = False                          # cannot.2
    unnegatable_against: frozenset[str] = frozenset({"jammer", "battle"})  # unnegatable.1
    unnegatable_overrides_cannot_use: bool = False                  # unnegatable.2
    unnegatable_jammers_override_cannot_use: bool = False           # unnegatable.2
    usable_anyway_overrides: F = timing.both_wordings               # usable-anyway.1, .3
    usable_anyway_covers_jammers: bool = True                       # usable-anyway.1
    usable_anyway_jammable: F = negation.always_jammable            # usable-anyway.2


REFERENCE = Rules()


def with_patch(patch: dict[str, Any] | None) -> Rules:
    """`REFERENCE` with the fields in ``patch`` replaced; unknown fields are an error."""
    return patched(REFERENCE, patch)
