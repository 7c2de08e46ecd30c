"""The MTG mutants: each is the reference engine with exactly the named rules broken.

Every entry is data: a name, the rule ids it breaks, one sentence (the bug a
real engine author could write), and the `rules.Rules` fields it replaces.
tests/rulesets/test_reference_mtg.py shows each one behaving differently from the
reference on some board.
"""

from __future__ import annotations

from typing import Any

from reference_engine._mutant import Mutant
from reference_engine.mtg import casting, combat, instructions, prevention, resolution
from reference_engine.mtg import characteristics as ch

R = "mtg/"
STATICS = ["CR-609.1", "page/p1", "reading/statics-on-battlefield"]
GOLDEN = ["CR-609.3", "page/p3"]
TIE = ["CR-609.5", "reading/tie-without-instruction-does-nothing"]


def _m(name: str, rules: list[str], description: str, **patch: Any) -> Mutant:
    return Mutant(name=name, ruleset="mtg", rules=[R + r for r in rules],
                  description=description, patch=patch)


MUTANTS: tuple[Mutant, ...] = (
    # 609.1: where effects come from, and when
    _m("statics-work-from-any-zone", STATICS,
       "static abilities of cards in hand, library, graveyard... generate their effects",
       statics_zones=ch.EVERY_ZONE),
    _m("statics-work-from-stack", STATICS,
       "a permanent spell's static ability works while it is still a spell on the stack",
       statics_zones=ch.BATTLEFIELD_AND_STACK),
    _m("spell-effect-on-cast", ["CR-609.1", "page/p1"],
       "an instant's or sorcery's effects happen when it is cast, not when it resolves",
       effects_at_resolution=resolution.on_cast),
    _m("ability-effect-on-activation", ["CR-609.1", "page/p1"],
       "an activated ability's effects happen when it is activated, not when it resolves",
       ability_effects_at_resolution=False),
    # the page: all effects overlap
    _m("cost-changes-do-not-stack", ["page/p2"],
       "of several cost changes only the largest one applies",
       sum_cost_changes=casting.largest_change_only),
    _m("new-shield-replaces-old", ["page/p2"],
       "a new prevention shield on a player or object replaces the one already there",
       combine_shields=False),
    _m("latest-become-only", ["page/p2"],
       "a newer characteristic-changing effect on an object replaces the older ones",
       combine_becomes=ch.latest_become_only),
    # 609.2: permanents only, unless the text says otherwise
    _m("land-animation-reaches-graveyard", ["CR-609.2", "ex-609.2/1"],
       "'all lands become creatures' also turns land cards in graveyards into creatures",
       become_scope=ch.scope_adds_graveyard),
    _m("become-reaches-every-zone", ["CR-609.2", "ex-609.2/1"],
       "an effect that names no zone touches matching cards in every zone",
       become_scope=ch.scope_every_zone),
    _m("become-follows-card-to-new-zone", ["CR-609.2", "ex-609.2/1"],
       "an animated land keeps being a creature after it is put into a graveyard",
       become_reaches=ch.same_id),
    _m("named-zone-reaches-every-other-zone", ["CR-609.2"],
       "a text that names a zone (the graveyard) touches matching cards in every zone but "
       "the battlefield",
       become_scope=ch.scope_named_means_off_battlefield),
    _m("zone-list-reaches-first-zone-only", ["CR-609.2"],
       "a text naming several zones ('creature cards in graveyards and creatures on the "
       "battlefield') touches only the first zone it names",
       become_scope=ch.scope_first_named_zone),
    _m("become-ignores-named-zone", ["CR-609.2"],
       "an effect whose text names the graveyard still touches only permanents",
       become_scope=ch.scope_battlefield_always),
    _m("cost-change-reaches-hand", ["CR-609.2", "ex-609.2/2"],
       "a cost change rewrites the mana cost of the cards in hand",
       cost_change_visible_in=("hand",)),
    _m("cost-change-reaches-permanents", ["CR-609.2", "ex-609.2/2"],
       "a cost change rewrites the mana cost of permanents (effects touch permanents)",
       cost_change_visible_in=("battlefield",)),
    _m("cost-filter-reads-owner", ["CR-609.2", "ex-609.2/2"],
       "'spells your opponents cast cost more' reads the card's owner, so a spell cast from "
       "another player's graveyard is taxed as the owner's",
       spell_controller=casting.owner_controls),
    _m("cost-change-only-from-hand", ["CR-609.2", "ex-609.2/2"],
       "a cost change misses spells cast from anywhere but the hand",
       cost_change_reaches=casting.spell_from_hand_only),
    # 609.3 and the page's golden rule: do as much as possible
    _m("discard-all-or-nothing", [*GOLDEN, "ex-609.3/1"],
       "'discard N' with fewer than N cards in hand discards nothing",
       discard_count=instructions.all_or_nothing),
    _m("discard-impossible-rejected", [*GOLDEN, "ex-609.3/1"],
       "'discard N' with fewer than N cards in hand makes the action illegal",
       discard_count=instructions.impossible_is_illegal),
    _m("library-move-all-or-nothing", [*GOLDEN, "ex-609.3/2"],
       "moving N cards from a library holding fewer moves none",
       library_count=instructions.all_or_nothing),
    _m("library-move-impossible-rejected", [*GOLDEN, "ex-609.3/2"],
       "moving N cards from a library holding fewer makes the action illegal",
       library_count=instructions.impossible_is_illegal),
    _m("impossible-part-stops-rest", [*GOLDEN, "ex-609.3/1", "ex-609.3/2"],
       "after an instruction that could be done only in part, the rest of the text is skipped",
       impossible_stops_rest=True),
    # 609.4: "as though" applies to its own effect only
    _m("as-though-flash-grants-keyword", ["CR-609.4"],
       "'cast as though they had flash' gives the cards the flash keyword",
       permission_grants_keyword=True),
    _m("as-though-graveyard-merges-graveyards",
       ["CR-609.4", "reading/as-though-card-stays-put"],
       "'as though those cards were in your graveyard' lists them in your graveyard",
       graveyards_merged=True),
    _m("as-though-cast-goes-to-casters-zones",
       ["CR-609.4", "reading/as-though-card-stays-put"],
       "a spell cast from another player's graveyard 'as though' it were yours goes to "
       "your graveyard, or your exile with flashback",
       leaves_stack_to=resolution.to_caster),
    _m("trance-is-a-cast-permission", ["CR-609.4", "ex-609.4a"],
       "'as though those cards were in your graveyard' lets you cast any card from another "
       "player's graveyard, flashback or not",
       zone_permission_casts=True),
    _m("flash-permission-for-every-player", ["CR-609.4"],
       "'you may cast spells as though they had flash' lets every player do so",
       static_grants_to=casting.grants_to_everyone),
    # 609.4a: two "as though" permissions combine
    _m("zone-permission-drops-flash", ["CR-609.4a", "ex-609.4a"],
       "a card cast 'as though it were in your graveyard' gets no 'as though it had flash'",
       combine_permissions=casting.zone_permission_excludes_flash),
    _m("latest-as-though-only", ["CR-609.4a", "ex-609.4a"],
       "of several 'as though' permissions only the newest applies",
       combine_permissions=casting.latest_as_though_only),
    _m("flashback-needs-own-graveyard", ["CR-609.4a", "ex-609.4a"],
       "flashback works only from the caster's real graveyard, not one treated as theirs",
       flashback_graveyard=casting.only_really_own_graveyard),
    # the vocabulary's conventions on costs and payments, and on refused actions
    _m("overpayment-accepted", ["ex-609.2/2"],
       "a payment of more than the (changed) cost is accepted and all of it is spent",
       payment_accepted=casting.payment_covers),
    _m("pool-not-checked", ["ex-609.2/2"],
       "a payment is accepted without checking that the pool holds it (the pool goes below 0)",
       pool_checked=False),
    _m("refusal-keeps-earlier-parts", ["CR-609.7a"],
       "a text refused at an illegal choice of source keeps what its earlier parts did",
       refusal_restores=False),
    # 609.4b: paying "as though any type"
    _m("any-type-recorded-as-replaced", ["CR-609.4b"],
       "mana paid 'as though' it were another type is recorded as that type",
       record_spent=casting.spent_as_replaced),
    _m("any-type-rewrites-cost", ["CR-609.4b"],
       "paying 'as though any type' rewrites the spell's mana cost to the mana paid",
       cost_after_payment=casting.cost_rewritten),
    _m("any-type-ignored", ["CR-609.4b"],
       "'spend mana as though it were any type' is not honoured",
       any_type_wordings=()),
    _m("any-type-can-be-spent-ignored", ["CR-609.4b"],
       "only the 'as though' wording is honoured, not 'mana of any type can be spent'",
       any_type_wordings=("spend_as_any_type",)),
    # 609.5: no general rule for ties
    _m("tie-goes-to-controller", TIE,
       "a tie counts as the effect's controller having more",
       tie_break=instructions.tie_goes_to_controller),
    _m("tie-goes-to-active-player", TIE,
       "a tie counts as the active player having more",
       tie_break=instructions.tie_goes_to_active_player),
    _m("tie-clause-ignored", ["CR-609.5"],
       "what the text says to do on a tie is not done",
       tie_clause_followed=False),
    # 609.7: damage from a specific source
    _m("shield-stops-any-source", ["CR-609.7"],
       "a shield for a chosen source prevents damage from any source",
       shield_source_matches=prevention.any_source),
    _m("shield-protects-its-controller", ["CR-609.7"],
       "a shield protects the player who created it, not the player or creature it names",
       shield_protects=prevention.protects_its_controller),
    _m("shield-protects-both-players", ["CR-609.7"],
       "a shield on one player also prevents damage to the other player",
       shield_protects=prevention.protects_both_players),
    _m("player-shield-covers-their-permanents", ["CR-609.7"],
       "a shield against damage to a player also prevents that source's damage to the "
       "permanents the player controls",
       shield_protects=prevention.protects_player_and_permanents),
    _m("next-time-shield-never-used-up", ["CR-609.7", "context/CR-615"],
       "'the next time' shields keep preventing for the rest of the turn",
       shield_used_up=prevention.never_used_up),
    # 609.7a: which sources may be chosen, and when
    _m("source-chosen-from-any-zone", ["CR-609.7a"],
       "any object may be chosen as the source, e.g. a card in a graveyard no one refers to",
       legal_source=prevention.any_zone_source),
    _m("referenced-source-rejected", ["CR-609.7a"],
       "an object that left its zone cannot be chosen even when an ability on the stack "
       "refers to it",
       legal_source=prevention.unreferenced_source),
    _m("command-zone-source-rejected", ["CR-609.7a"],
       "face-up objects in the command zone cannot be chosen",
       legal_source=prevention.no_command_zone_source),
    _m("source-must-deal-damage", ["CR-609.7a"],
       "only an object able to deal damage may be chosen",
       legal_source=prevention.damage_dealer_source),
    _m("source-chosen-at-damage-time", ["CR-609.7a"],
       "the source is chosen when damage comes, not when the shield is created",
       choose_at_creation=False),
    _m("shield-loses-source-that-left", ["CR-609.7a", "context/CR-113.7a"],
       "an ability's source that left the battlefield deals its damage as a new object, so "
       "a shield that chose it on the battlefield no longer applies",
       ability_source=resolution.current_source, chosen_object=prevention.card_as_it_is_now),
    _m("shield-follows-card-id", ["CR-609.7a", "context/CR-400.7"],
       "a shield for a chosen permanent also stops damage from its card after the card has "
       "changed zones (the card id is compared, not the object)",
       shield_source_matches=prevention.same_card_id),
    _m("missing-choice-accepted", ["CR-609.7a", "context/CR-608.2d"],
       "a text asking for 'a red source of your choice' resolves without a choice, as a "
       "shield against the next damage from any red source",
       choice_required=False),
    _m("chosen-permanent-ignores-combat", ["CR-609.7a"],
       "a shield for a chosen permanent does not stop its combat damage",
       shield_source_matches=prevention.chosen_ignores_combat),
    _m("spell-shield-lost-on-resolution", ["CR-609.7a"],
       "a shield for a permanent spell stops applying once the spell becomes a permanent",
       shield_follows_spell=False),
    # 609.7b: characteristic-limited shields
    _m("characteristic-checked-at-creation", ["CR-609.7b"],
       "the source's characteristic is checked when the shield is made, not at the damage",
       characteristic_holds=prevention.checked_at_creation),
    _m("colour-rechecked-as-exact", ["CR-609.7b"],
       "a shield limited to red sources rechecks 'exactly red', so a red and green source "
       "does not qualify",
       characteristic_holds=prevention.recheck_exact_colour),
    _m("shield-used-without-preventing", ["CR-609.7b"],
       "a shield is used up by damage from its source even when it prevented nothing",
       shield_used_up=prevention.used_when_met),
    _m("chosen-source-needs-no-characteristic", ["reading/chosen-source-has-characteristic"],
       "'a red source of your choice' accepts any source as the choice; the colour is "
       "only checked when the damage comes",
       choice_needs_characteristic=False),
    _m("zero-damage-uses-shield", ["CR-609.7b", "reading/zero-damage-prevents-nothing"],
       "a source dealing 0 damage uses up the shield",
       zero_damage_meets_shields=True, shield_used_up=prevention.used_when_fits),
    _m("zero-damage-reported", ["reading/zero-damage-prevents-nothing", "context/CR-120.8"],
       "a source dealing 0 damage reports a damage event of 0",
       zero_damage_reported=True),
    # 609.7c: static prevention/replacement by characteristic, every zone
    _m("static-prevention-battlefield-only", ["CR-609.7c"],
       "a static 'prevent all damage from red sources' only stops permanents",
       static_prevent_zones=ch.BATTLEFIELD_ONLY),
    _m("static-prevention-battlefield-and-stack", ["CR-609.7c"],
       "a static prevention by characteristic only stops permanents and spells",
       static_prevent_zones=ch.BATTLEFIELD_AND_STACK),
    _m("static-prevention-covers-your-permanents", ["CR-609.7c"],
       "'prevent all damage red sources would deal to you' also stops damage to the "
       "permanents you control",
       static_protects=prevention.protects_controller_and_permanents),
    _m("static-replacement-doubles-all-damage", ["context/CR-614"],
       "'if a red source would deal damage to you, it deals double that damage instead' "
       "doubles the source's damage to every player and permanent",
       replacement_protects=prevention.protects_every_recipient),
    _m("static-replacement-battlefield-only", ["CR-609.7c", "context/CR-614"],
       "a static replacement by characteristic only touches damage from permanents",
       static_replace_zones=ch.BATTLEFIELD_ONLY),
    # the rules outside the seed that the vocabulary's real game actions follow (context)
    _m("sorcery-timing-ignores-active-player", ["context/CR-307.1"],
       "a sorcery may be cast in any player's main phase with an empty stack, not only "
       "the active player's",
       sorcery_timing=casting.any_player_main_phase),
    _m("flashback-without-the-keyword", ["context/CR-702.34", "context/CR-601.3"],
       "a card in its owner's graveyard can be cast 'with flashback' whether or not it "
       "has flashback (for its mana cost)",
       flashback_needs_keyword=False),
    _m("attacker-remembered-by-card", ["context/CR-400.7"],
       "an attacker that left the battlefield and came back is still attacking and deals "
       "combat damage",
       still_attacking=combat.same_card_on_battlefield),
    _m("activation-cost-not-paid", ["context/CR-602.2b"],
       "an activated ability with a mana cost is activated without paying it",
       activation_cost_paid=False),
    _m("unasked-choice-accepted", ["context/CR-608.2d"],
       "a choice given on resolving a text that asks for none is accepted and ignored",
       unasked_choice_refused=False),
)
