"""An MTG engine written apart from reference_engine/, with mutants of its own.

It speaks the JSON Lines protocol (docs/protocol.md) in plain stdlib and was
written from docs/rulesets/mtg.md, the vocabulary schema, the card data and
the seed (CR 609.1-609.7c) only, never from the reference engine: a second
reading of the same contract, so that the catalogue is tested on an engine
whose mistakes are its own.  `hello` lists the engine's mutants (MUTANTS):
each breaks one seed rule in one plausible way; the hello's `mutant` turns
one on (`bug(name)` marks where).

    python tests/fakes/independent/mtg.py
"""

from __future__ import annotations

import copy
import json
import sys
import traceback
from typing import Any

COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
PLAYERS = ("p1", "p2")
ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "command")


def _m(name: str, rule: str, description: str) -> dict[str, Any]:
    return {"name": name, "ruleset": "mtg", "rules": [f"mtg/{rule}"], "description": description}


MUTANTS = [
    # page p1 / CR 609.1: effects come from resolution and from static abilities
    _m("spell-effect-on-cast", "CR-609.1",
       "an instant's text is done as it is cast, not as it resolves"),
    _m("statics-ignored", "CR-609.1",
       "static abilities generate no effect (an Orrery grants nothing)"),
    _m("ability-effect-on-activation", "page/p1",
       "an activated ability's text is done when it is activated"),
    # page p2: effects overlap
    _m("cost-changes-do-not-add-up", "page/p2",
       "only the newest cost change applies to a spell"),
    _m("later-become-replaces-added-types", "page/p2",
       "a later 'become' effect drops the types an earlier one added"),
    _m("new-shield-replaces-old", "page/p2",
       "a new shield on a player replaces the shields already there"),
    # 609.2 and its examples
    _m("become-reaches-graveyard", "ex-609.2/1",
       "'all lands become creatures' also animates land cards in graveyards"),
    _m("become-ignores-zone-list", "CR-609.2",
       "an effect naming graveyards still touches only permanents"),
    _m("become-touches-stack-spells", "CR-609.2",
       "an effect naming no zone also touches spells on the stack"),
    _m("cost-change-taxes-abilities", "ex-609.2/2",
       "a change to the cost of casting spells also changes activated abilities' costs"),
    _m("become-zone-list-first-only", "CR-609.2",
       "an effect naming several zones touches only the first zone it names"),
    _m("cost-change-taxes-hand-card", "ex-609.2/2",
       "a cost change is paid for the spell being cast only when it is cast from the hand"),
    _m("cost-filter-reads-owner", "ex-609.2/2",
       "a cost change's controller filter reads the card's owner, not the caster"),
    _m("payment-may-exceed-cost", "ex-609.2/2",
       "a payment larger than the changed cost is accepted"),
    # 609.3: do the possible part
    _m("discard-all-or-nothing", "ex-609.3/1",
       "a discard asking for more cards than the hand holds discards nothing"),
    _m("move-top-all-or-nothing", "ex-609.3/2",
       "moving more cards than the library holds moves none"),
    _m("impossible-stops-text", "CR-609.3",
       "after an instruction that cannot be done in full, the rest of the text is skipped"),
    _m("discard-from-back", "page/p3",
       "a short discard takes the last card of the hand, not what there is in order"),
    # 609.4, 609.4a, 609.4b: as though
    _m("as-though-flash-gives-flash", "CR-609.4",
       "casting as though it had flash gives the spell the flash keyword"),
    _m("grant-helps-both-players", "CR-609.4",
       "a permission of one player's Orrery lets the other player cast at instant speed too"),
    _m("trance-casts-without-flashback", "CR-609.4",
       "under the Trance a card in another graveyard is cast without flashback"),
    _m("as-though-conditions-not-combined", "CR-609.4a",
       "flashback from another graveyard ignores a flash permission"
       " (sorcery timing still applies)"),
    _m("any-type-changes-spent-types", "CR-609.4b",
       "paying as though mana were any type records the cost's types as spent"),
    _m("any-type-ignored", "CR-609.4b",
       "a permission to spend mana as though any type is ignored"),
    _m("flash-permission-not-for-flashback", "ex-609.4a",
       "a permission to cast as though with flash does not reach a spell cast with flashback"),
    # 609.5: ties
    _m("tie-does-more", "CR-609.5",
       "on a tie the controller does the 'more' instruction"),
    _m("less-life-does-more", "CR-609.5",
       "the player with less life does the 'more' instruction"),
    _m("tie-done-by-opponent", "CR-609.5",
       "on a tie the opponent does the 'tie' instruction"),
    _m("more-life-always-controller", "CR-609.5",
       "the 'more' instruction is always done by the controller"),
    # 609.7, 609.7a
    _m("shield-any-source", "CR-609.7",
       "a shield for a chosen source prevents damage from any source"),
    _m("shield-any-recipient", "CR-609.7",
       "a player's shield also prevents damage to the other player"),
    _m("creature-shield-covers-their-creatures", "CR-609.7",
       "a shield on one creature prevents damage to every creature of its controller"),
    _m("shield-not-used-up", "CR-609.7",
       "a shield for 'the next damage' keeps preventing after it prevented once"),
    _m("shield-covers-creatures", "CR-609.7",
       "a shield naming a creature also protects that creature's controller"),
    _m("command-zone-face-down-choosable", "CR-609.7a",
       "a face-down object in the command zone is a legal choice of source"),
    _m("command-zone-not-choosable", "CR-609.7a",
       "a face-up object in the command zone is not a legal choice of source"),
    _m("graveyard-cards-choosable", "CR-609.7a",
       "any card in a hand or graveyard is a legal choice of source"),
    _m("referenced-card-not-choosable", "CR-609.7a",
       "a card that left play is not a choice even while an ability on the stack refers to it"),
    _m("shield-referenced-not-choosable", "CR-609.7a",
       "an object referred to by a prevention effect waiting to apply is not a legal choice"),
    _m("shield-follows-card", "CR-609.7a",
       "a shield on a chosen permanent follows its card into the graveyard (a new object)"),
    _m("choice-at-damage-time", "CR-609.7a",
       "a 'source of your choice' is taken from the next damage"
       " instead of when the effect is made"),
    _m("spell-shield-not-on-permanent", "CR-609.7a",
       "a resolving permanent spell becomes a new object, so a shield that chose the spell"
       " does not apply to the permanent"),
    _m("permanent-shield-ignores-combat", "CR-609.7a",
       "a shield on a chosen permanent ignores its combat damage"),
    _m("choice-ignored-binds-next-source", "CR-609.7a",
       "a 'source of your choice' shield ignores the choice"
       " and takes the next source to deal damage"),
    _m("illegal-choice-keeps-earlier-instructions", "CR-609.7a",
       "an illegal choice refuses only the shield; the text's earlier instructions stay done"),
    _m("player-shield-covers-their-creatures", "CR-609.7",
       "a shield on a player also prevents damage to the creatures they control"),
    # 609.7b
    _m("shield-characteristic-at-creation", "CR-609.7b",
       "a characteristic-limited shield checks the source when made, not when damage comes"),
    _m("unused-shield-consumed", "CR-609.7b",
       "a shield that did not prevent damage (characteristic mismatch) is used up"),
    _m("colour-match-needs-mono", "CR-609.7b",
       "a multicoloured source does not count as having its colours"),
    _m("zero-damage-uses-shield", "CR-609.7b",
       "a shield facing 0 damage is used up although it prevented nothing"),
    # 609.7c
    _m("static-prevention-battlefield-only", "CR-609.7c",
       "a static prevention effect applies only to sources on the battlefield"),
    _m("static-replacement-battlefield-only", "CR-609.7c",
       "a static damage-doubling effect applies only to sources on the battlefield"),
    _m("static-prevention-protects-creatures", "CR-609.7c",
       "a static 'damage to you' prevention also protects the controller's creatures"),
    _m("static-double-reaches-creatures", "CR-609.7c",
       "a static 'double the damage to you' effect"
       " also doubles damage to the controller's creatures"),
    _m("static-cost-change-ignored", "CR-609.1",
       "a permanent's static cost change generates no effect (only resolved cost changes apply)"),
]
# Left out, as they break no seed rule: a cost reduction taking coloured mana off (CR
# 601.2f, the vocabulary's "never below 0"), and an ability whose source left dealing damage
# with the card's new characteristics (CR 113.7a, a context rule), and "prevent the next N
# damage" preventing all of it (CR 615.7; 609.6 only points to 615 and is informative).
MUTANT_NAMES = {m["name"] for m in MUTANTS}

MUTANT: str | None = None


def bug(name: str) -> bool:
    """True when the engine plays as the mutant `name`."""
    return name == MUTANT


class Rejected(Exception):
    """The rules forbid the action: answered as `accepted: false`."""


class Partial(Exception):
    """A mutant's refusal that keeps what was done before it."""


class Skip(Exception):
    """Something this engine does not model."""


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def mana_norm(mana: dict[str, int] | None) -> dict[str, int]:
    return {k: v for k, v in (mana or {}).items() if v}


class Card:
    """A card; `version` grows at each zone change (a new object, CR 400.7)."""

    def __init__(self, spec: dict[str, Any], owner: str, zone: str) -> None:
        self.id: str = spec["id"]
        self.owner = owner
        self.zone = zone
        self.controller: str = spec.get("controller", owner)
        self.name: str = spec.get("name", "")
        self.types: list[str] = list(spec.get("types", []))
        self.colors: list[str] = list(spec.get("colors", []))
        self.mana_cost = mana_norm(spec.get("mana_cost"))
        self.power = spec.get("power")
        self.toughness = spec.get("toughness")
        self.abilities: list[dict[str, Any]] = list(spec.get("abilities", []))
        self.face_down = bool(spec.get("face_down", False))
        self.damage = int(spec.get("damage", 0))
        self.mana_spent: dict[str, int] = {}
        self.version = 0
        self.flashback_cast = False

    def keywords(self) -> list[str]:
        return [a["keyword"] for a in self.abilities if "keyword" in a]

    def statics(self) -> list[dict[str, Any]]:
        return [a["static"] for a in self.abilities if "static" in a]

    def activated(self) -> list[dict[str, Any]]:
        return [a["activated"] for a in self.abilities if "activated" in a]

    def spell_text(self) -> list[dict[str, Any]]:
        return [i for a in self.abilities if "spell" in a for i in a["spell"]]

    def flashback_cost(self) -> dict[str, int] | None:
        for a in self.abilities:
            if a.get("keyword") == "flashback":
                return mana_norm(a.get("cost"))
        return None


class Game:
    def __init__(self, setup: dict[str, Any]) -> None:
        self.phase = setup.get("phase", "main")
        self.active = setup.get("active", "p1")
        self.cards: dict[str, Card] = {}
        self.players: dict[str, dict[str, Any]] = {}
        for p in PLAYERS:
            ps = setup.get(p) or {}
            pool = {t: 0 for t in MANA_TYPES}
            pool.update(ps.get("mana") or {})
            self.players[p] = {"life": ps.get("life", 20), "mana": pool,
                               **{z: [] for z in ZONES}}
            for zone in ZONES:
                for spec in ps.get(zone) or []:
                    card = Card(spec, p, zone)
                    if zone != "battlefield":
                        card.controller = p
                    self.cards[card.id] = card
                    self.players[p][zone].append(card.id)
        self.stack: list[str] = []
        self.abilities: dict[str, dict[str, Any]] = {}   # stack abilities by id
        self.lki: dict[tuple[str, int], dict[str, Any]] = {}
        self.becomes: list[dict[str, Any]] = []
        self.cost_changes: list[dict[str, Any]] = []
        self.grants: list[tuple[str, str]] = []
        self.shields: list[dict[str, Any]] = []
        self.attackers: list[tuple[str, int]] = []
        self.attacked = False
        self.events: list[dict[str, Any]] = []

    # -- characteristics -------------------------------------------------------------

    def chars(self, cid: str) -> dict[str, Any]:
        """The current characteristics of a card, `become` effects applied in order."""
        c = self.cards[cid]
        types, colors = list(c.types), list(c.colors)
        power, toughness = c.power, c.toughness
        for eff in self.becomes:
            if (cid, c.version) not in eff["objects"]:
                continue
            if bug("later-become-replaces-added-types") and eff.get("types"):
                types = list(c.types)
            types += [t for t in eff.get("types", []) if t not in types]
            if "colors" in eff:
                colors = list(eff["colors"])
            power = eff.get("power", power)
            toughness = eff.get("toughness", toughness)
        return {"id": cid, "types": types, "colors": colors, "name": c.name,
                "power": power, "toughness": toughness, "controller": c.controller,
                "zone": c.zone}

    def obj_chars(self, ref: tuple[str, int]) -> dict[str, Any]:
        """An object's characteristics, or its last known ones if its card moved on."""
        cid, version = ref
        if self.cards[cid].version == version:
            return self.chars(cid)
        return self.lki[ref]

    def matches(self, filt: dict[str, Any] | None, ch: dict[str, Any], viewer: str) -> bool:
        if not filt:
            return True
        if "card" in filt and filt["card"] != ch["id"]:
            return False
        if "type" in filt and filt["type"] not in ch["types"]:
            return False
        if "color" in filt:
            if filt["color"] not in ch["colors"]:
                return False
            if bug("colour-match-needs-mono") and len(ch["colors"]) > 1:
                return False
        if "name" in filt and filt["name"] != ch["name"]:
            return False
        who = filt.get("controller", "any")
        if who == "self" and ch["controller"] != viewer:
            return False
        return not (who == "opponent" and ch["controller"] == viewer)

    # -- zones -----------------------------------------------------------------------

    def move(self, cid: str, to: str, *, new_object: bool = True) -> None:
        c = self.cards[cid]
        old = c.zone
        if old == "battlefield" or old == "stack":
            self.lki[(cid, c.version)] = self.chars(cid)
        if old == "stack":
            self.stack.remove(cid)
        else:
            self.players[c.owner][old].remove(cid)
        if to == "stack":
            self.stack.append(cid)
        else:
            self.players[c.owner][to].append(cid)
        c.zone = to
        if new_object:
            c.version += 1
            c.damage = 0
        if to not in ("battlefield", "stack"):
            c.controller = c.owner
        if to != "stack" and old == "stack" and to != "battlefield":
            c.mana_spent = {}
        self.events.append({"type": "moved", "card": cid, "from": old, "to": to})

    def statics_of(self, kind: str) -> list[tuple[str, Any, str]]:
        """(controller, value) of every static `kind` on the battlefield, p1's first."""
        out = []
        for p in PLAYERS:
            for cid in self.players[p]["battlefield"]:
                c = self.cards[cid]
                for st in c.statics():
                    if kind in st:
                        out.append((c.controller, st[kind], cid))
        if bug("statics-ignored"):
            return []
        return out

    def has_permission(self, player: str, perm: str) -> bool:
        for controller, value, _ in self.statics_of("grant"):
            if value == perm and (controller == player or bug("grant-helps-both-players")):
                return True
        return any(g == (player, perm) for g in self.grants)

    # -- casting ---------------------------------------------------------------------

    def cast(self, action: dict[str, Any]) -> None:
        cid, by = action["cast"], action["by"]
        if cid not in self.cards:
            raise Rejected(f"no card {cid}")
        c = self.cards[cid]
        flashback = bool(action.get("flashback", False))
        if flashback:
            if c.zone != "graveyard":
                raise Rejected(f"{cid} is not in a graveyard")
            if c.owner != by and not self.has_permission(by, "other_graveyards"):
                raise Rejected(f"{cid} is in {c.owner}'s graveyard, not {by}'s")
            base = c.flashback_cost()
            if base is None:
                raise Rejected(f"{cid} has no flashback")
        else:
            if (c.zone == "graveyard" and c.owner != by and bug("trance-casts-without-flashback")
                    and self.has_permission(by, "other_graveyards")):
                base = c.mana_cost
            elif c.zone != "hand" or c.owner != by:
                raise Rejected(f"{cid} is not in {by}'s hand")
            else:
                base = c.mana_cost
        if "land" in c.types and len(c.types) == 1:
            raise Rejected("a land is played, not cast")
        self.check_timing(c, by, from_other_graveyard=c.zone == "graveyard" and c.owner != by)
        cost = self.changed_cost(c, by, base, from_hand=c.zone == "hand")
        pay = mana_norm(action.get("pay"))
        self.check_payment(by, cost, pay)
        pool = self.players[by]["mana"]
        for t, n in pay.items():
            pool[t] -= n
        zone_from = c.zone
        self.move(cid, "stack")
        c.controller = by
        c.flashback_cast = flashback
        if bug("any-type-changes-spent-types"):
            c.mana_spent = dict(cost)
            if "generic" in c.mana_spent:
                del c.mana_spent["generic"]
                rest = sum(pay.values()) - sum(c.mana_spent.values())
                if rest:
                    c.mana_spent["C"] = c.mana_spent.get("C", 0) + rest
        else:
            c.mana_spent = pay
        self.events.append({"type": "cast", "card": cid, "player": by, "from": zone_from})
        if bug("spell-effect-on-cast") and "instant" in c.types:
            self.do_text(c.spell_text(), by, (cid, c.version), None)

    def check_timing(self, c: Card, by: str, *, from_other_graveyard: bool) -> None:
        if "instant" in c.types or "flash" in c.keywords():
            return
        flash_ok = self.has_permission(by, "flash")
        if bug("as-though-conditions-not-combined") and from_other_graveyard:
            flash_ok = False
        if bug("flash-permission-not-for-flashback") and c.zone == "graveyard":
            flash_ok = False
        if flash_ok:
            if bug("as-though-flash-gives-flash"):
                c.abilities.append({"keyword": "flash"})
            return
        if by != self.active or self.phase != "main" or self.stack:
            raise Rejected(f"{c.id} can be cast only at sorcery timing")

    def changed_cost(self, c: Card, by: str, base: dict[str, int], *,
                     from_hand: bool) -> dict[str, int]:
        ch = self.chars(c.id)
        ch["controller"] = by
        if bug("cost-filter-reads-owner"):
            ch["controller"] = c.owner
        changes = [(ctrl, v) for ctrl, v, _ in self.statics_of("cost_change")
                   if not bug("static-cost-change-ignored")]
        changes += [(e["controller"], e) for e in self.cost_changes]
        if bug("cost-changes-do-not-add-up") and changes:
            changes = changes[-1:]
        if bug("cost-change-taxes-hand-card") and not from_hand:
            changes = []
        delta = sum(v["amount"] for ctrl, v in changes if self.matches(v.get("filter"), ch, ctrl))
        cost = dict(base)
        generic = max(0, cost.get("generic", 0) + delta)
        cost.pop("generic", None)
        if generic:
            cost["generic"] = generic
        return cost

    def check_payment(self, by: str, cost: dict[str, int], pay: dict[str, int]) -> None:
        pool = self.players[by]["mana"]
        for t, n in pay.items():
            if pool.get(t, 0) < n:
                raise Rejected(f"{by}'s pool has no {n} {t}")
        total = sum(cost.values())
        if sum(pay.values()) != total and not (
                bug("payment-may-exceed-cost") and sum(pay.values()) > total):
            raise Rejected(f"the payment is not the cost ({total} mana)")
        any_type = (self.has_permission(by, "spend_as_any_type")
                    or self.has_permission(by, "any_type_can_be_spent"))
        if bug("any-type-ignored"):
            any_type = False
        if any_type:
            return
        for t in MANA_TYPES:
            if pay.get(t, 0) < cost.get(t, 0):
                raise Rejected(f"the cost needs {cost[t]} {t}")

    # -- activating and resolving ----------------------------------------------------

    def activate(self, action: dict[str, Any]) -> None:
        cid, by, new = action["activate"], action["by"], action["as"]
        c = self.cards.get(cid)
        if c is None or c.zone != "battlefield" or c.controller != by:
            raise Rejected(f"{by} controls no permanent {cid}")
        acts = c.activated()
        n = action.get("ability", 0)
        if n >= len(acts):
            raise Rejected(f"{cid} has no activated ability {n}")
        ab = acts[n]
        effect = ab["effect"] if isinstance(ab, dict) else ab
        cost = mana_norm(ab.get("cost")) if isinstance(ab, dict) else {}
        pool = self.players[by]["mana"]
        for t in MANA_TYPES:
            if pool[t] < cost.get(t, 0):
                raise Rejected(f"{by} cannot pay {cost}")
            pool[t] -= cost.get(t, 0)
        generic = cost.get("generic", 0)
        if bug("cost-change-taxes-abilities"):
            ch = {**self.chars(cid), "controller": by}
            changes = [(ctrl, v) for ctrl, v, _ in self.statics_of("cost_change")]
            changes += [(e["controller"], e) for e in self.cost_changes]
            generic = max(0, generic + sum(v["amount"] for ctrl, v in changes
                                           if self.matches(v.get("filter"), ch, ctrl)))
        for t in MANA_TYPES:
            take = min(pool[t], generic)
            pool[t] -= take
            generic -= take
        if generic:
            raise Rejected(f"{by} cannot pay {cost}")
        self.abilities[new] = {"id": new, "source": (cid, c.version), "controller": by,
                               "effect": effect}
        self.stack.append(new)
        self.events.append({"type": "activated", "card": cid, "ability": new, "player": by})
        if bug("ability-effect-on-activation"):
            self.do_text(effect, by, (cid, c.version), None)
            self.abilities[new]["effect"] = []

    def resolve(self, action: dict[str, Any]) -> None:
        if not self.stack:
            raise Rejected("the stack is empty")
        top = self.stack[-1]
        choose = action.get("choose")
        if top in self.abilities:
            ab = self.abilities[top]
            self.check_choice_asked(ab["effect"], choose)
            self.stack.pop()
            self.do_text(ab["effect"], ab["controller"], ab["source"], choose)
            del self.abilities[top]
            self.events.append({"type": "resolved", "card": top})
            return
        c = self.cards[top]
        text = [] if bug("spell-effect-on-cast") and "instant" in c.types else c.spell_text()
        self.check_choice_asked(text, choose)
        if "instant" in c.types or "sorcery" in c.types:
            self.do_text(text, c.controller, (top, c.version), choose)
            self.events.append({"type": "resolved", "card": top})
            self.move(top, "exile" if c.flashback_cast else "graveyard")
            c.flashback_cast = False
        else:
            self.move(top, "battlefield",
                      new_object=bug("spell-shield-not-on-permanent"))
            self.events.append({"type": "resolved", "card": top})

    def check_choice_asked(self, text: list[dict[str, Any]], choose: str | None) -> None:
        asks = any_choice(text)
        if choose is not None and not asks:
            raise Rejected("the text asks for no choice")
        if asks and choose is None and not bug("choice-at-damage-time"):
            raise Rejected("the text asks for a source of your choice")

    # -- the effect language ---------------------------------------------------------

    def do_text(self, text: list[dict[str, Any]], controller: str,
                source: tuple[str, int] | None, choose: str | None) -> None:
        for ins in text:
            (key, arg), = ins.items()
            done_in_full = getattr(self, "do_" + key)(arg, controller, source, choose)
            if done_in_full is False and bug("impossible-stops-text"):
                return

    def player_of(self, who: str | None, controller: str) -> str:
        return other(controller) if who == "opponent" else controller

    def do_discard(self, arg, controller, source, choose):
        p = self.player_of(arg.get("player"), controller)
        hand = self.players[p]["hand"]
        n = arg["count"]
        if n > len(hand) and bug("discard-all-or-nothing"):
            return False
        picks = list(hand[:n])
        if n > len(hand) and bug("discard-from-back"):
            picks = list(reversed(hand))[:n]
        for cid in picks:
            self.move(cid, "graveyard")
            self.events.append({"type": "discard", "player": p, "card": cid})
        return n <= len(picks)

    def do_move_top(self, arg, controller, source, choose):
        p = self.player_of(arg.get("player"), controller)
        lib = self.players[p]["library"]
        n = arg["count"]
        if n > len(lib) and bug("move-top-all-or-nothing"):
            return False
        for cid in list(lib[:n]):
            self.move(cid, arg["to"])
        return n <= len(lib)

    def target(self, to: str, controller: str) -> str:
        if to in ("self", "opponent"):
            return self.player_of(to, controller)
        return to

    def do_damage(self, arg, controller, source, choose):
        if source is None:
            raise Rejected("an effect of no object cannot deal damage")
        self.deal(source, self.target(arg["to"], controller), arg["amount"], False)

    def do_become(self, arg, controller, source, choose):
        filt = dict(arg["filter"])
        zones = filt.pop("zone", None)
        if zones is None or bug("become-ignores-zone-list"):
            zones = ["battlefield"]
            if bug("become-touches-stack-spells"):
                zones.append("stack")
        elif isinstance(zones, str):
            zones = [zones]
        if bug("become-zone-list-first-only"):
            zones = zones[:1]
        if bug("become-reaches-graveyard") and "battlefield" in zones:
            zones = [*zones, "graveyard"]
        objects = set()
        for cid, c in self.cards.items():
            if c.zone in zones and self.matches(filt, self.chars(cid), controller):
                objects.add((cid, c.version))
        eff = {k: v for k, v in arg.items() if k != "filter"}
        eff["objects"] = objects
        self.becomes.append(eff)

    def do_cost_change(self, arg, controller, source, choose):
        self.cost_changes.append({"controller": controller, **arg})

    def do_grant(self, arg, controller, source, choose):
        self.grants.append((controller, arg))

    def do_shield(self, arg, controller, source, choose):
        to = self.target(arg["to"], controller)
        recipient = ("player", to) if to in PLAYERS else ("card", to, self.cards[to].version)
        chosen: tuple[str, int] | str | None = None
        if arg.get("your_choice"):
            if choose is None or bug("choice-ignored-binds-next-source"):
                chosen = "next"   # only a mutant gets here: chosen at the next damage
            else:
                chosen = self.choose_source(choose, arg.get("from"), controller)
        elif "choose" in arg:
            chosen = self.choose_source(arg["choose"], arg.get("from"), controller)
        amount = arg.get("amount", "all")
        shield = {"to": recipient, "source": chosen, "from": arg.get("from"),
                  "remaining": amount, "controller": controller}
        if bug("shield-characteristic-at-creation") and arg.get("from") and chosen is None:
            shield["creation_check"] = True
        if bug("new-shield-replaces-old"):
            self.shields = [s for s in self.shields if s["to"] != recipient]
        self.shields.append(shield)
        self.events.append({"type": "shield", "to": to,
                            "source": chosen[0] if isinstance(chosen, tuple) else None})

    def do_compare_life(self, arg, controller, source, choose):
        mine = self.players[controller]["life"]
        theirs = self.players[other(controller)]["life"]
        if bug("less-life-does-more"):
            mine, theirs = theirs, mine
        if mine == theirs:
            if bug("tie-done-by-opponent"):
                self.do_text(arg.get("tie", []), other(controller), source, choose)
            elif bug("tie-does-more"):
                self.do_text(arg["more"], controller, source, choose)
            else:
                self.do_text(arg.get("tie", []), controller, source, choose)
        elif mine > theirs or bug("more-life-always-controller"):
            self.do_text(arg["more"], controller, source, choose)
        else:
            self.do_text(arg["more"], other(controller), source, choose)

    # -- choosing a source (609.7a) --------------------------------------------------

    def choosable(self) -> list[tuple[str, int]]:
        """Every object 609.7a lets an effect choose as a source."""
        out = []
        for cid, c in self.cards.items():
            if c.zone == "battlefield" or (c.zone == "stack" and cid in self.stack):
                out.append((cid, c.version))
            elif c.zone == "command" and not bug("command-zone-not-choosable"):
                if (not c.face_down) != bug("command-zone-face-down-choosable"):
                    out.append((cid, c.version))
            elif bug("graveyard-cards-choosable") and c.zone in ("hand", "graveyard"):
                out.append((cid, c.version))
        if not bug("referenced-card-not-choosable"):
            for aid in self.stack:
                if aid in self.abilities:
                    out.append(self.abilities[aid]["source"])
        for s in self.shields:
            if isinstance(s["source"], tuple) and not bug("shield-referenced-not-choosable"):
                out.append(s["source"])
        return out

    def choose_source(self, cid: str, filt: dict[str, Any] | None,
                      controller: str) -> tuple[str, int]:
        if cid not in self.cards:
            raise Rejected(f"{cid} is not an object")
        legal = [ref for ref in self.choosable() if ref[0] == cid]
        if not legal:
            if bug("illegal-choice-keeps-earlier-instructions"):
                raise Partial(f"{cid} is not a legal choice of source (609.7a)")
            raise Rejected(f"{cid} is not a legal choice of source (609.7a)")
        current = (cid, self.cards[cid].version)
        ref = current if current in legal else legal[0]
        if filt and not self.matches(filt, self.obj_chars(ref), controller):
            raise Rejected(f"{cid} does not have the characteristic the effect names")
        return ref

    # -- damage ----------------------------------------------------------------------

    def deal(self, source: tuple[str, int], to: str, amount: int, combat: bool) -> None:
        """One damage event: static effects (609.7c), then shields oldest first."""
        if amount <= 0:
            if bug("zero-damage-uses-shield"):
                for s in list(self.shields):
                    if self.recipient_is(s, to):
                        self.shields.remove(s)
                        break
            return
        ch = self.obj_chars(source)
        src_on_bf = self.cards[source[0]].version == source[1] and \
            self.cards[source[0]].zone == "battlefield"
        to_player = to in PLAYERS
        prevented = 0
        for kind_controller, value, _ in self.statics_of("damage_from"):
            protects = to_player and to == kind_controller
            widened = {"prevent": bug("static-prevention-protects-creatures"),
                       "double": bug("static-double-reaches-creatures")}[value["then"]]
            if not to_player and widened:
                protects = self.cards[to].controller == kind_controller
            if not protects or not self.matches(value.get("filter"), ch, kind_controller):
                continue
            if value["then"] == "prevent":
                if bug("static-prevention-battlefield-only") and not src_on_bf:
                    continue
                prevented += amount - prevented
            elif value["then"] == "double":
                if bug("static-replacement-battlefield-only") and not src_on_bf:
                    continue
                amount *= 2
        for s in list(self.shields):
            left = amount - prevented
            if left <= 0:
                break
            if not self.shield_applies(s, source, ch, to):
                if bug("unused-shield-consumed") and s["from"] and self.recipient_is(s, to):
                    self.shields.remove(s)
                continue
            if s["source"] == "next":
                s["source"] = source
            take = left if s["remaining"] == "all" else min(left, s["remaining"])
            prevented += take
            if s["remaining"] == "all" and bug("shield-not-used-up"):
                pass
            elif s["remaining"] == "all" or s["remaining"] == take:
                self.shields.remove(s)
            else:
                s["remaining"] -= take
        sid = source[0]
        if prevented:
            self.events.append({"type": "prevented", "source": sid, "to": to, "amount": prevented})
        dealt = amount - prevented
        if dealt <= 0:
            return
        if to_player:
            self.players[to]["life"] -= dealt
        else:
            self.cards[to].damage += dealt
        self.events.append({"type": "damage", "source": sid, "to": to, "amount": dealt,
                            "combat": combat})

    def recipient_is(self, s: dict[str, Any], to: str) -> bool:
        r = s["to"]
        if r[0] == "player":
            if bug("player-shield-covers-their-creatures") and to not in PLAYERS:
                return self.cards[to].controller == r[1]
            return r[1] == to or bug("shield-any-recipient")
        if r[1] == to and self.cards[to].version == r[2]:
            return True
        if bug("creature-shield-covers-their-creatures") and to not in PLAYERS:
            return self.cards[to].controller == self.cards[r[1]].controller
        return bool(bug("shield-covers-creatures") and to in PLAYERS
                    and self.cards[r[1]].controller == to)

    def shield_applies(self, s: dict[str, Any], source: tuple[str, int],
                       ch: dict[str, Any], to: str) -> bool:
        if not self.recipient_is(s, to):
            return False
        chosen = s["source"]
        if isinstance(chosen, tuple) and chosen != source and not bug("shield-any-source") \
                and not (chosen[0] == source[0] and bug("shield-follows-card")):
            return False
        if s.get("combat_bug"):
            return False
        if s["from"]:
            if s.get("creation_check"):
                return True
            if not self.matches(s["from"], ch, s["controller"]):
                return False
        return True

    # -- combat and harness actions --------------------------------------------------

    def attack(self, action: dict[str, Any]) -> None:
        by = action["by"]
        if by != self.active or self.stack or self.attacked:
            raise Rejected("attackers cannot be declared now")
        refs = []
        for cid in action["attack"]:
            c = self.cards.get(cid)
            if c is None or c.zone != "battlefield" or c.controller != by \
                    or "creature" not in self.chars(cid)["types"]:
                raise Rejected(f"{cid} is not a creature {by} controls")
            refs.append((cid, c.version))
        self.attackers, self.attacked, self.phase = refs, True, "combat"

    def combat_damage(self) -> None:
        if not self.attackers or self.stack:
            raise Rejected("no attackers are waiting for combat damage")
        defender = other(self.active)
        attackers, self.attackers = self.attackers, []
        for ref in attackers:
            c = self.cards[ref[0]]
            if c.version != ref[1] or c.zone != "battlefield":
                continue
            if bug("permanent-shield-ignores-combat"):
                for s in self.shields:
                    if s["source"] == ref:
                        s["combat_bug"] = True
            self.deal(ref, defender, self.chars(ref[0])["power"] or 0, True)
            for s in self.shields:
                s.pop("combat_bug", None)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self.events = []
        if "cast" in action:
            self.cast(action)
        elif "activate" in action:
            self.activate(action)
        elif "resolve" in action:
            self.resolve(action)
        elif "attack" in action:
            self.attack(action)
        elif "step" in action:
            self.combat_damage()
        elif "damage" in action:
            d = action["damage"]
            card = self.cards.get(d["source"])
            if card is None:
                raise Rejected(f"no card {d['source']}")
            self.deal((card.id, card.version), d["to"], d["amount"], bool(d.get("combat", False)))
        elif "move" in action:
            if action["move"] not in self.cards:
                raise Rejected(f"no card {action['move']}")
            self.move(action["move"], action["to"])
        elif "apply" in action:
            a = action["apply"]
            sid = a.get("source")
            src = (sid, self.cards[sid].version) if sid else None
            if any_choice(a["effect"]):
                raise Rejected("an apply makes no choice")
            self.do_text(a["effect"], a["by"], src, None)
        else:
            raise Skip(f"action {sorted(action)} is not modelled")
        return {"accepted": True, "events": self.events}

    # -- observation -----------------------------------------------------------------

    def shield_state(self, s: dict[str, Any]) -> dict[str, Any]:
        src = s["source"][0] if isinstance(s["source"], tuple) else None
        return {"source": src, "from": s["from"], "remaining": s["remaining"]}

    def observe(self) -> dict[str, Any]:
        cards: dict[str, Any] = {}
        for cid, c in self.cards.items():
            ch = self.chars(cid)
            mine = [self.shield_state(s) for s in self.shields
                    if s["to"][0] == "card" and s["to"][1] == cid and s["to"][2] == c.version]
            cards[cid] = {"zone": c.zone, "owner": c.owner, "controller": c.controller,
                          "name": c.name, "types": ch["types"], "colors": ch["colors"],
                          "mana_cost": c.mana_cost, "power": ch["power"],
                          "toughness": ch["toughness"], "damage": c.damage,
                          "keywords": c.keywords(), "mana_spent": c.mana_spent,
                          "ability_of": None, "shields": mine}
        for aid in self.stack:
            if aid in self.abilities:
                ab = self.abilities[aid]
                cards[aid] = {"zone": "stack", "owner": ab["controller"],
                              "controller": ab["controller"], "name": "", "types": [],
                              "colors": [], "mana_cost": {}, "power": None, "toughness": None,
                              "damage": 0, "keywords": [], "mana_spent": {},
                              "ability_of": ab["source"][0], "shields": []}
        players = {}
        for p in PLAYERS:
            ps = self.players[p]
            players[p] = {"life": ps["life"], "mana": dict(ps["mana"]),
                          **{z: list(ps[z]) for z in ZONES},
                          "shields": [self.shield_state(s) for s in self.shields
                                      if s["to"] == ("player", p)]}
        return {"cards": cards, "players": players}


def any_choice(text: list[dict[str, Any]]) -> bool:
    for ins in text:
        (key, arg), = ins.items()
        if key == "shield" and arg.get("your_choice"):
            return True
        if key == "compare_life" and (any_choice(arg["more"]) or any_choice(arg.get("tie", []))):
            return True
    return False


class Engine:
    def __init__(self) -> None:
        self.game: Game | None = None

    def act(self, action: dict[str, Any], observe: bool = False) -> dict[str, Any]:
        assert self.game is not None
        saved = copy.deepcopy(self.game)
        try:
            reply = self.game.act(action)
        except Rejected as exc:
            self.game = saved
            reply = {"accepted": False, "events": [], "reason": str(exc)}
        except Partial as exc:
            reply = {"accepted": False, "events": [], "reason": str(exc)}
        if observe:
            reply["state"] = self.game.observe()
        return reply

    def handle(self, request: dict[str, Any]) -> Any:
        global MUTANT
        cmd = request["cmd"]
        if cmd == "hello":
            capabilities: dict[str, Any] = {"mutants": MUTANTS, "play": True}
            if request.get("mutant"):
                if request["mutant"] not in MUTANT_NAMES:
                    raise ValueError(f"unknown mutant {request['mutant']!r}")
                MUTANT = request["mutant"]
                capabilities["mutant"] = MUTANT
            return {"name": "independent-mtg", "version": "1.0", "rulesets": ["mtg"],
                    "vocabulary": {"mtg": 3}, "capabilities": capabilities, "protocol": 1}
        if cmd == "start":
            self.game = Game(request["setup"])
            return None
        if cmd == "act":
            return self.act(request["action"], bool(request.get("observe")))
        if cmd == "observe":
            assert self.game is not None
            return self.game.observe()
        if cmd == "play":
            self.game = Game(request["setup"])
            return {"replies": [self.act(step["action"], bool(step.get("observe")))
                                for step in request["steps"]]}
        return None


def main() -> None:
    engine = Engine()
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = {"seq": request["seq"], "ok": engine.handle(request)}
        except Skip as exc:
            reply = {"seq": request["seq"], "skipped": {"reason": str(exc), "kind": "engine-gap"}}
        except Exception as exc:
            print(traceback.format_exc(), file=sys.stderr)
            reply = {"seq": request["seq"], "error": {"message": f"{type(exc).__name__}: {exc}",
                                                      "traceback": traceback.format_exc()}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if request["cmd"] == "stop":
            break


if __name__ == "__main__":
    main()
