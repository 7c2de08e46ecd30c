"""The Vision mutants: each is the reference engine with exactly the named rules broken.

Every entry is data: a name, the rule ids it breaks, one sentence, and the
`rules.Rules` fields it replaces.  tests/test_reference_vision.py shows each
one behaving differently from the reference on some board.
"""

from __future__ import annotations

from typing import Any

from reference_engine._mutant import Mutant
from reference_engine.vision import costs, deathblow, deck, names, negation, power, resolution

R = "vision/"


def _m(name: str, rules: list[str], description: str, **patch: Any) -> Mutant:
    return Mutant(name=name, ruleset="vision", rules=[R + r for r in rules],
                  description=description, patch=patch)


MUTANTS: tuple[Mutant, ...] = (
    # chapter 12: resolution
    _m("parts-applied-tail-first", ["IR-12/p1"],
       "applies the parts of an effect text from its end instead of its head",
       parts_in_order=resolution.tail_first),
    _m("failed-part-continues", ["IR-12/p2"],
       "keeps applying the rest of a text after a part could not be applied",
       failed_part_stops_rest=resolution.failure_continues),
    _m("all-fails-on-partial", ["IR-12/p3"],
       "an 'all' part fails when it cannot be applied to one of the cards",
       all_succeeds=resolution.all_fails_if_any_not_applied),
    _m("all-zero-targets-fails", ["IR-12/p4"],
       "an 'all' part with zero matching cards fails",
       all_succeeds=resolution.all_fails_on_nothing),
    # 12.3: names
    _m("name-ref-printed-only", ["IR-12.3", "QA-2014-11-27"],
       "name references (and same-name checks) ignore names gained through link (連結)",
       reference_names=names.printed_name_only),
    _m("name-ref-exact", ["IR-12.3", "IR-12.3.1", "ex-12.3.1"],
       "a name reference matches only a name equal to it, not one containing it",
       name_refers=names.name_equals),
    _m("name-ref-any-word", ["IR-12.3.1", "ex-12.3.1"],
       "a name reference matches a name holding any word of it (No.143 博麗神社 for 博麗 霊夢)",
       name_refers=names.name_shares_a_word),
    _m("same-name-substring", ["IR-12.3.2"],
       "'the same name' matches names that merely contain the other",
       same_name=names.same_name_substring),
    _m("disguise-replaces-link-names", ["QA-2014-11-27"],
       "変装 (change_name) also drops the names the card has through link",
       disguise=names.disguise_all_names),
    # costs
    _m("x-includes-modifier", ["QA-269"],
       "X is the nodes paid plus the cost modifier in force, not the nodes paid",
       x_from_payment=costs.x_includes_modifier),
    # 6.1.10: combat power
    _m("modifiers-in-arrival-order", ["IR-6.1.10"],
       "applies power modifiers in arrival order instead of change/swap/add/always",
       sequence_modifiers=power.by_arrival),
    _m("power-not-recomputed", ["IR-6.1.10"],
       "keeps the power computed at entry / last power effect; modifiers that end or "
       "variables that change are not reflected",
       power_recomputed=False),
    _m("variable-as-late-change", ["IR-6.1.10", "QA-356"],
       "a variable power is not fixed first but acts as a change arriving at field entry, "
       "so it can override an earlier change",
       fix_variables=power.variable_as_late_change),
    _m("change-after-swap", ["IR-6.1.10.a"],
       "applies swap before change",
       layer_order=("swap", "change", "add", "always")),
    _m("swap-after-add", ["IR-6.1.10.b"],
       "applies add/subtract before swap",
       layer_order=("change", "add", "swap", "always")),
    _m("add-first", ["IR-6.1.10.c"],
       "applies add/subtract before change and swap",
       layer_order=("add", "change", "swap", "always")),
    _m("always-first", ["IR-6.1.10.d"],
       "applies 'always' modifiers first instead of last",
       layer_order=("always", "change", "swap", "add")),
    _m("change-first-wins", ["QA-298"],
       "with several change modifiers, the first applied one wins",
       order_changes=power.first_change_wins),
    # 9.2.2 / 1.10.12.f / QA-363: deathblow
    _m("deathblow-needs-excess-damage", ["IR-9.2.2", "IR-9.2.2.a"],
       "damage equal to durability does not put into deathblow; it must exceed it",
       damage_is_lethal=deathblow.damage_exceeds_durability),
    _m("deathblow-only-below-zero", ["IR-9.2.2.b"],
       "durability exactly 0 does not put into deathblow",
       durability_is_lethal=deathblow.durability_below_zero),
    _m("durability-zero-yields-to-effects", ["IR-9.2.2.b"],
       "card effects (immunity, 'not put into 決死状態' texts, would-deathblow replacements) "
       "can stop a durability-0 deathblow",
       rule_beats_effects=deathblow.nothing_beats_effects),
    _m("durability-deathblow-by-modifier-card", ["QA-2013-11-13"],
       "a durability-0 deathblow counts as put 'by an effect' of the card whose power "
       "modifier caused it, so No.1211 returns it",
       deathblow_by_effect_of=deathblow.durability_cut_by_modifier_card),
    _m("battle-damage-is-an-effect", ["QA-2013-11-13"],
       "a deathblow from battle damage counts as 'by an effect' of the attacking card",
       deathblow_by_effect_of=deathblow.battle_damage_by_effect),
    _m("deathblow-instruction-ignored", ["IR-9.2.2.c"],
       "'put into 決死状態' instructions do nothing",
       instruction_deathblows=deathblow.instruction_does_nothing),
    _m("deathblow-cause-is-controller", ["IR-1.10.12.f"],
       "records the player controlling the damage source as the deathblow cause",
       deathblow_cause=deathblow.cause_is_controller),
    _m("battle-flag-on-effect-damage", ["QA-363"],
       "a deathblow from effect damage also counts as 'by battle'",
       deathblow_by_battle=deathblow.any_damage_is_battle),
    # 2.12.3 / 12.4: negation
    _m("negation-spares-continuous", ["IR-2.12.3"],
       "a negated text keeps applying its continuous effects",
       negated_text_silences=negation.negated_text_keeps_continuous),
    _m("brackets-negated-with-text", ["IR-2.12.3", "IR-12.4", "IR-12.4/p1"],
       "negating a text negates its 【】 clauses too",
       text_negation_spares=negation.brackets_never_survive),
    _m("include-unnegatable-ignored", ["IR-12.4"],
       "a negation that says it includes 【】 text still leaves 【】 clauses working",
       text_negation_spares=negation.brackets_always_survive,
       auto_negation_spares=negation.brackets_always_survive),
    _m("brackets-negated-by-negate-auto", ["IR-12.4", "QA-020"],
       "'negate auto effects' negates 【】 auto clauses",
       auto_negation_spares=negation.brackets_never_survive),
    _m("produced-effects-unnegatable", ["IR-12.4/p2", "IR-12.4/supplement", "QA-102"],
       "effects produced by 【】 clauses cannot be negated",
       effect_negatable=negation.produced_effect_protected),
    # 3.2.5: shuffle
    _m("no-auto-shuffle", ["IR-3.2.5"],
       "never shuffles after an effect saw the whole deck",
       reveal_needs_shuffle=deck.never),
    _m("shuffle-at-start", ["IR-3.2.5"],
       "shuffles when an all/until reveal starts resolving, before revealing",
       shuffle_timing=deck.AT_START),
    _m("shuffle-immediately", ["IR-3.2.5"],
       "shuffles right after the whole-deck reveal, before the rest of the same effect",
       shuffle_timing=deck.IMMEDIATE),
    _m("no-shuffle-before-other-effect", ["IR-3.2.5"],
       "does not shuffle before another effect operates the deck mid-resolution; only at "
       "the end",
       shuffle_timing=deck.END_ONLY),
    _m("shuffle-despite-instruction", ["IR-3.2.5"],
       "adds the automatic shuffle even when the effect itself said to shuffle",
       own_shuffle_replaces_auto=False),
    _m("shuffle-after-partial-reveal", ["IR-3.2.5.a", "IR-3.2.5.b"],
       "shuffles after any reveal or look, even of a part of the deck",
       reveal_needs_shuffle=deck.any_reveal),
    _m("shuffle-after-counted-reveal", ["IR-3.2.5.b"],
       "shuffles when a counted reveal happened to cover the whole deck",
       reveal_needs_shuffle=deck.whole_deck_any_mode),
    _m("no-shuffle-after-until", ["IR-3.2.5.b"],
       "does not shuffle when an until-reveal ended up revealing the whole deck",
       reveal_needs_shuffle=deck.only_reveal_all),
)
