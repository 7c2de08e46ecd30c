"""MTG rule invariants (rule 609), checked through the engine protocol only.

Each property runs generated scenarios (`strategies`) and compares what the
engine shows (replies, events, ``observe()``) with what the seed says
(`expected`), or with the same engine on a transformed scenario (metamorphic
relations).  Nothing here imports an engine.
"""

from __future__ import annotations

from typing import Any

from conformance.ruleset import Play, Trace, Violation, invariant, run_accepted, short
from conformance.rulesets.mtg import expected
from conformance.rulesets.mtg import strategies as S

Scenario = dict[str, Any]


# -- 609.7 / 609.7b: shields ----------------------------------------------------------------

def _check_shields(play: Play, scenario: Scenario) -> None:
    trace = run_accepted(play, scenario)
    model = expected.Shields(scenario["setup"])
    for i, step in enumerate(scenario["steps"]):
        do = step["do"]
        if "apply" in do:
            (op, args), = do["apply"]["effect"][0].items()
            if op == "shield":
                model.add(args)
            else:
                model.recolor(args["filter"]["card"], args["colors"])
            continue
        d = do["damage"]
        want = model.damage(d["source"], d["to"], d["amount"])
        got = sum(e.get("amount", 0) for e in trace.find(i, type="prevented"))
        life = trace.states[i]["players"][d["to"]]["life"]
        if got != want or life != model.life[d["to"]]:
            raise Violation(
                f"step {i + 1}: {d['source']} deals {d['amount']} to {d['to']}: the shields "
                f"should prevent {want} (life {model.life[d['to']]}), the engine prevented "
                f"{got} (life {life})",
                expect={i: {"players": {d["to"]: {"life": model.life[d["to"]]}}}})
        shields = trace.states[i]["players"]["p1"].get("shields")
        if shields != model.in_force():
            raise Violation(
                f"after step {i + 1} the shields in force on p1 should be {model.in_force()} "
                f"(used up exactly when they prevented something), observed {shields}",
                expect={i: {"players": {"p1": {"shields": model.in_force()}}}})


def shields_exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """What a shield scenario exercised: damage dealt to p1 while one of its shields is in
    force (609.7, prevention, CR 615), from a source-characteristic shield (609.7b), 0
    damage (the reading), after a colour change (the timestamp order, CR 613.7).  The
    shields in force are the engine's, as ``observe()`` shows them (an engine that never
    makes one exercises none of this)."""
    found: set[str] = set()
    recolored = False
    for i, step in enumerate(scenario["steps"]):
        do = step["do"]
        if "apply" in do:
            recolored = recolored or "become" in do["apply"]["effect"][0]
            continue
        d = do.get("damage")
        before = trace.states[i - 1]["players"]["p1"].get("shields") if i else None
        if not d or d["to"] != "p1" or not before or not trace.replies[i]["accepted"]:
            continue
        found |= {"mtg/CR-609.7", "mtg/context/CR-615"}
        if any(isinstance(shield, dict) and shield.get("from") for shield in before):
            found.add("mtg/CR-609.7b")
        if d["amount"] == 0:
            found.add("mtg/reading/zero-damage-prevents-nothing")
        if recolored:
            found.add("mtg/context/CR-613.7")
    return found


@invariant("mtg/prop/shield-prevents-at-most-the-damage",
           rules=["mtg/CR-609.7", "mtg/CR-609.7b", "mtg/context/CR-615",
                  "mtg/reading/zero-damage-prevents-nothing"],
           scenarios=S.shield_scenarios(), exercises=shields_exercised)
def shield_prevents_at_most_the_damage(play: Play, scenario: Scenario) -> None:
    """A shield prevents only its chosen or qualifying source's damage to its player, never
    more than the damage dealt, and is used up exactly when it prevented something."""
    _check_shields(play, scenario)


@invariant("mtg/prop/characteristic-checked-at-damage",
           rules=["mtg/CR-609.7b", "mtg/CR-609.7", "mtg/context/CR-613.7"],
           scenarios=S.shield_scenarios(recolor=True), exercises=shields_exercised)
def characteristic_checked_at_damage(play: Play, scenario: Scenario) -> None:
    """A characteristic-limited shield prevents exactly when the source has the
    characteristic at the time of the damage (colours change between damage steps)."""
    _check_shields(play, scenario)


# -- 609.3: do as much as possible ------------------------------------------------------------

def partial_exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """What a partial-instruction scenario exercised: an instruction asking for more cards
    than its zone holds when it is done (609.3, the page's sentence); a discard (ex. 1) or a
    library move (ex. 2) among those."""
    setup = scenario["setup"]
    left = {(p, zone): len((setup.get(p) or {}).get(zone, []))
            for p in ("p1", "p2") for zone in ("hand", "library")}
    found: set[str] = set()
    for part in scenario["steps"][0]["do"]["apply"]["effect"]:
        (op, args), = part.items()
        if op not in ("discard", "move_top"):
            continue
        key = ("p1" if args["player"] == "self" else "p2",
               "hand" if op == "discard" else "library")
        if args["count"] > left[key]:
            found |= {"mtg/CR-609.3", "mtg/page/p3",
                      "mtg/ex-609.3/1" if op == "discard" else "mtg/ex-609.3/2"}
        left[key] = max(0, left[key] - args["count"])
    return found


@invariant("mtg/prop/do-as-much-as-possible",
           rules=["mtg/CR-609.3", "mtg/page/p3", "mtg/ex-609.3/1", "mtg/ex-609.3/2"],
           scenarios=S.partial_instruction_scenarios(), exercises=partial_exercised)
def do_as_much_as_possible(play: Play, scenario: Scenario) -> None:
    """'Discard N' discards min(N, hand); moving N from a library moves min(N, library);
    the rest of the text still happens."""
    trace = run_accepted(play, scenario)
    want = expected.partial_instructions(scenario)
    players = trace.final["players"]
    for player, zones in want.items():
        got = {z: players[player].get(z) for z in zones}
        if got != zones:
            raise Violation(f"{player}'s zones should be {zones}, observed {got}",
                            expect={0: {"players": {player: zones}}})
    if players["p2"]["life"] != 19:
        raise Violation("the text's last part (1 damage to the opponent) was not done",
                        expect={0: {"players": {"p2": {"life": 19}}}})


# -- 609.2: permanents only ---------------------------------------------------------------------

def become_exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """What a become scenario exercised: a card of the filter's type outside the
    battlefield, which the effect must leave alone or (naming its zone) change (609.2);
    a land card in a graveyard under an effect on lands naming no zone (the example)."""
    flt = scenario["steps"][0]["do"]["apply"]["effect"][0]["become"]["filter"]
    found: set[str] = set()
    for _, zone, card in expected.objects(scenario["setup"]).values():
        if zone != "battlefield" and flt["type"] in card["types"]:
            found.add("mtg/CR-609.2")
            if zone == "graveyard" and flt["type"] == "land" and "zone" not in flt:
                found.add("mtg/ex-609.2/1")
    return found


@invariant("mtg/prop/no-zone-means-permanents-only",
           rules=["mtg/CR-609.2", "mtg/ex-609.2/1"],
           scenarios=S.become_scenarios(), exercises=become_exercised)
def no_zone_means_permanents_only(play: Play, scenario: Scenario) -> None:
    """An effect that names no zone changes only permanents; one that names a zone changes
    only cards there."""
    trace = run_accepted(play, scenario)
    become = scenario["steps"][0]["do"]["apply"]["effect"][0]["become"]
    for cid, (_, zone, card) in expected.objects(scenario["setup"]).items():
        touched = expected.become_touches(zone, card, become["filter"])
        want_types = card["types"] + (["creature"] if touched and
                                      "creature" not in card["types"] else [])
        want_colors = become.get("colors", card["colors"]) if touched else card["colors"]
        got = trace.card(cid)
        if got.get("types") != want_types or got.get("colors") != want_colors:
            where = f"in {zone}" + ("" if touched else ", which the effect does not touch")
            raise Violation(
                f"{cid} ({card['types'][0]} {where}) should have types {want_types} and "
                f"colours {want_colors}; observed {got.get('types')} / {got.get('colors')}",
                expect={0: {"cards": {cid: {"types": want_types, "colors": want_colors}}}})


# -- 609.4 / 609.4a: "as though" permissions ------------------------------------------------------

def permissions_exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """What a cast under "as though" permissions exercised: one in force (the Trance resolved,
    the Orrery on p1's battlefield: 609.4), both (609.4a; with s1 a sorcery with flashback in
    p2's graveyard, the seed's example); flashback cast or offered (CR 702.34); a cast from a
    graveyard without flashback (CR 601.3: the Trance alone permits nothing); a sorcery
    (its timing, CR 307.1)."""
    owner, zone, card = expected.objects(scenario["setup"])["s1"]
    cast = scenario["steps"][-1]["do"]
    trance = any("apply" in s["do"] and trace.replies[i]["accepted"]
                 for i, s in enumerate(scenario["steps"][:-1]))
    orrery = any(c["id"] == "orrery" for c in (scenario["setup"].get("p1") or {})
                 .get("battlefield", []))
    flashback = any(a.get("keyword") == "flashback" for a in card.get("abilities", []))
    found: set[str] = set()
    if trance or orrery:
        found.add("mtg/CR-609.4")
    if trance and orrery:
        found.add("mtg/CR-609.4a")
        if (owner, zone) == ("p2", "graveyard") and flashback and "sorcery" in card["types"]:
            found.add("mtg/ex-609.4a")
    if flashback or cast.get("flashback"):
        found.add("mtg/context/CR-702.34")
    if zone == "graveyard" and not (flashback and cast.get("flashback")):
        found.add("mtg/context/CR-601.3")
    if "sorcery" in card["types"]:
        found.add("mtg/context/CR-307.1")
    return found


@invariant("mtg/prop/as-though-permissions-combine",
           rules=["mtg/CR-609.4a", "mtg/ex-609.4a", "mtg/CR-609.4",
                  "mtg/context/CR-702.34", "mtg/context/CR-601.3", "mtg/context/CR-307.1"],
           scenarios=S.permission_scenarios(), exercises=permissions_exercised)
def as_though_permissions_combine(play: Play, scenario: Scenario) -> None:
    """A cast is legal exactly when the zone and the timing are each allowed, both 'as
    though' permissions applying together: from the hand normally, from a graveyard only
    with flashback, the graveyard being the caster's own or (under Shaman's Trance) treated
    as theirs; at sorcery timing or as though with flash.  The Trance alone lets nothing be
    cast (CR 601.3): a card without flashback is castable from no graveyard, p1's or p2's."""
    trace = play.run(scenario)
    last = len(scenario["steps"]) - 1
    legal = expected.cast_is_legal(scenario)
    accepted = trace.replies[last]["accepted"]
    if accepted != legal:
        raise Violation(
            f"casting s1 ({short(scenario['steps'][last]['do'])}) should be "
            f"{'legal' if legal else 'illegal'}; the engine "
            f"{'accepted' if accepted else 'rejected'} it",
            expect={last: {"outcome": "accepted" if legal else "rejected"}})
    owner, zone, _ = expected.objects(scenario["setup"])["s1"]
    got = trace.card("s1")
    want = {"zone": "stack", "owner": owner, "controller": "p1"} if legal else {"zone": zone}
    if any(got.get(k) != v for k, v in want.items()):
        raise Violation(f"after the cast s1 should be {want}, observed "
                        f"{ {k: got.get(k) for k in want} }",
                        expect={last: {"cards": {"s1": want}}})


# -- 609.4b: paying as though any type ----------------------------------------------------------

def nonzero(mana: dict[str, int]) -> dict[str, int]:
    """A mana cost or payment in its canonical form: zero entries dropped (``{generic: 0,
    W: 1}`` is ``{W: 1}``), as docs/rulesets/mtg.md says they compare."""
    return {t: n for t, n in mana.items() if n}


def payment_exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """A payment under an any-type permission in force (a static one on p1's battlefield, or
    one resolved and accepted first) exercises 609.4b; without one it is the control."""
    static = "battlefield" in scenario["setup"]["p1"]
    resolved = len(scenario["steps"]) > 1 and trace.replies[0]["accepted"]
    return {"mtg/CR-609.4b"} if static or resolved else set()


@invariant("mtg/prop/any-type-payment-keeps-cost-and-types",
           rules=["mtg/CR-609.4b"],
           scenarios=S.payment_scenarios(), exercises=payment_exercised)
def any_type_payment_keeps_cost_and_types(play: Play, scenario: Scenario) -> None:
    """With a permission to spend mana as though it were any type (either wording), a payment
    adding up to the cost is legal; the spell keeps its mana cost and records the mana
    actually spent."""
    trace = play.run(scenario)
    last = len(scenario["steps"]) - 1
    cast = scenario["steps"][last]["do"]
    _, _, card = expected.objects(scenario["setup"])["s1"]
    permitted = len(scenario["steps"]) > 1 or "battlefield" in scenario["setup"]["p1"]
    legal = expected.payment_is_legal(card["mana_cost"], cast["pay"], permitted)
    if trace.replies[last]["accepted"] != legal:
        raise Violation(f"paying {cast['pay']} for {card['mana_cost']} "
                        f"{'with' if permitted else 'without'} the any-type permission should "
                        f"be {'legal' if legal else 'illegal'}",
                        expect={last: {"outcome": "accepted" if legal else "rejected"}})
    if not legal:
        return
    want = {"mana_cost": nonzero(card["mana_cost"]), "mana_spent": nonzero(cast["pay"])}
    got = {k: nonzero(v) if isinstance(v, dict) else v for k, v in trace.card("s1").items()}
    if any(got.get(k) != v for k, v in want.items()):
        raise Violation(f"s1 should keep mana cost {want['mana_cost']} and record the mana "
                        f"spent as {want['mana_spent']}; observed {got.get('mana_cost')} / "
                        f"{got.get('mana_spent')}", expect={last: {"cards": {"s1": want}}})
