"""Vision rule invariants, checked through the engine protocol only.

Each property runs generated scenarios (`strategies`) and compares what the
engine shows (replies, events, ``observe()``) with what the seed says
(`expected`).  Nothing here imports an engine.
"""

from __future__ import annotations

from typing import Any

from conformance._properties import Play, Scenario, Trace, Violation, invariant
from conformance.rulesets.vision import exercised as X
from conformance.rulesets.vision import strategies as S
from conformance.rulesets.vision._support import (
    card_in_setup,
    events,
    resolve_effect,
    run_accepted,
    short,
)
from conformance.rulesets.vision.expected import (
    Board,
    base_power,
    names_of,
    power_after,
    refers_to,
    same_name,
    seen_cards,
    whole_deck_by_no_count,
)
from conformance.rulesets.vision.expected import resolve as resolve_model
from conformance.rulesets.vision.metamorphic import METAMORPHIC_PROPERTIES

# -- 1. 【】 text -------------------------------------------------------------------

def _negations_of(scenario: Scenario) -> list[str]:
    """The negations the scenario's steps put on n1, in order."""
    found = []
    for step in scenario["steps"][:-1]:
        (op, args), = resolve_effect(step)[0].items()
        found.append("negate_auto" if op == "negate_auto" else
                     "negate_text_including_unnegatable" if args.get("include_unnegatable")
                     else "negate_text")
    return found


def stops(clause: dict[str, Any], negation: str) -> bool:
    """2.12.3 / 12.4 / 12.4 p1 / QA-020: whether ``negation`` stops ``clause``."""
    if negation == "negate_text_including_unnegatable":
        return True  # the negation says it includes 【】 text (12.4)
    if clause.get("unnegatable"):
        return False
    return negation == "negate_text" or clause["kind"] == "auto"


def clause_works(clause: dict[str, Any], negations: list[str]) -> bool:
    """A clause works unless some negation on its card stops it: a later negation
    never un-negates what an earlier one negated."""
    return not any(stops(clause, n) for n in negations)


@invariant("vision/prop/unnegatable-text-survives-negation",
           rules=["vision/IR-2.12.3", "vision/IR-12.4", "vision/IR-12.4/p1",
                  "vision/QA-020"],
           scenarios=S.unnegatable_text_scenarios(),
           exercises=X.unnegatable_text)
def unnegatable_text(play: Play, scenario: Scenario) -> None:
    """Negating a text leaves its 【】 clauses working and stops every other clause.

    negate_text without include_unnegatable stops the non-【】 clauses only;
    with it, every clause; negate_auto stops the non-【】 auto clauses only; a
    second negation adds to the first and undoes nothing.
    """
    trace = run_accepted(play, scenario)
    negations = _negations_of(scenario)
    negation = " then ".join(negations) or "no negation"
    _, n1 = card_in_setup(scenario, "n1")
    last = len(scenario["steps"]) - 1
    for i, clause in enumerate(n1["texts"]):
        works = clause_works(clause, negations)
        dummy = trace.card(f"d{i}")
        what = "damage" if clause["kind"] == "auto" else "attack"
        if dummy.get(what) != int(works):
            tag = "【】 " if clause.get("unnegatable") else ""
            verb = "kept working" if works else "stopped"
            raise Violation(
                f"after {negation} on n1, its {tag}{clause['kind']} clause #{i} should have "
                f"{verb} (d{i}.{what} = {int(works)}), observed d{i}.{what} = "
                f"{dummy.get(what)!r}",
                expect={last: {"cards": {f"d{i}": {what: int(works)}}}})


@invariant("vision/prop/unnegatable-effect-can-be-negated",
           rules=["vision/IR-12.4/p2", "vision/IR-12.4/supplement", "vision/QA-102"],
           scenarios=S.unnegatable_effect_scenarios(),
           exercises=X.unnegatable_effect)
def unnegatable_effect(play: Play, scenario: Scenario) -> None:
    """An effect produced by a 【】 clause can still be negated by an effect that
    negates effects; without such an effect it resolves in full."""
    trace = run_accepted(play, scenario)
    _, spell = card_in_setup(scenario, "s1")
    effect = spell["texts"][0]["effect"]
    amount = effect[0]["damage"]["amount"]
    draws = len(effect) > 1
    guarded = any(c["id"] == "w1" for c in scenario["setup"]["p2"]["field"])
    tag = "【】 " if spell["texts"][0].get("unnegatable") else ""
    want_damage = 0 if guarded else amount
    want_hand = 0 if guarded or not draws else 1
    got_damage = trace.card("t1").get("damage")
    got_hand = len(trace.final["players"]["p1"]["hand"])
    if got_damage != want_damage or got_hand != want_hand:
        why = ("w1 negates the effect of the opponent's card that targets t1, "
               "and 【】 protects only the text, not the effects it produces"
               if guarded else "nothing negates it")
        raise Violation(
            f"the {tag}play effect of s1 should {'be negated' if guarded else 'resolve'} "
            f"({why}): expected t1.damage={want_damage}, p1 hand size {want_hand}; observed "
            f"t1.damage={got_damage!r}, p1 hand size {got_hand}",
            expect={0: {"cards": {"t1": {"damage": want_damage}}}})
    if guarded and not events(trace, 0, "negated", what="effect"):
        raise Violation("s1's effect was negated but no negated event with what: effect "
                        "was reported", expect={0: {"events": {"include": [
                            {"type": "negated", "what": "effect"}]}}})


# -- 2. shuffle ------------------------------------------------------------------------

def _ids(scenario: Scenario) -> set[str]:
    return {c["id"] for side in scenario["setup"].values() for zone in side.values()
            if isinstance(zone, list) for c in zone}


@invariant("vision/prop/shuffle-iff-whole-deck-without-count",
           rules=["vision/IR-3.2.5", "vision/IR-3.2.5.a", "vision/IR-3.2.5.b",
                  "vision/reading/shuffle-timing",
                  "vision/reading/counted-reveal-reveals-what-is-there"],
           scenarios=S.shuffle_scenarios(),
           exercises=X.shuffle)
def shuffle_rule(play: Play, scenario: Scenario) -> None:
    """The deck is shuffled exactly when an effect revealed or looked at the whole
    hidden deck without naming a count and did not itself say to shuffle; the
    shuffle comes within that resolution, after the reveal, never later."""
    trace = run_accepted(play, scenario)
    effect = resolve_effect(scenario["steps"][0])
    (op, args), = effect[0].items()
    owner = "p1" if args["player"] == "self" else "p2"
    other = "p2" if owner == "p1" else "p1"
    deck = scenario["setup"][owner]["deck"]
    told = any("shuffle" in ins for ins in effect)
    whole = whole_deck_by_no_count(args, deck)
    form = next(k for k in ("count", "all", "until") if k in args)
    evs = trace.events(0)

    seen = [e for e in evs if e.get("type") == op]
    want_seen = seen_cards(args, deck)
    if len(seen) != 1 or seen[0].get("cards") != want_seen:
        raise Violation(f"{op} ({form}) of {owner}'s deck should report cards {want_seen}, "
                        f"observed {op} events {seen}",
                        expect={0: {"events": {"include": [{"type": op, "cards": want_seen}]}}})
    mine = [i for i, e in enumerate(evs) if e.get("type") == "shuffle"
            and e.get("player") == owner]
    want = 1 if (told or whole) else 0
    if len(mine) != want:
        reason = ("the effect itself says to shuffle" if told else
                  "the whole hidden deck was seen by an effect naming no count" if whole else
                  "a count was named" if form == "count" else "only part of the deck was seen")
        raise Violation(
            f"{op} with {form} on a {len(deck)}-card deck{' + shuffle' if told else ''}: "
            f"expected {want} shuffle of {owner}'s deck ({reason}), observed {len(mine)}",
            expect={0: {"events": {"count": [{"match": {"type": "shuffle", "player": owner},
                                              "n": want}]}}})
    if any(e.get("type") == "shuffle" and e.get("player") == other for e in evs):
        raise Violation(f"{other}'s deck was shuffled, but only {owner}'s deck was seen",
                        expect={0: {"events": {"exclude": [{"type": "shuffle",
                                                            "player": other}]}}})
    if want and not told:
        at, looked = mine[0], evs.index(seen[0])
        others = [i for i, e in enumerate(evs) if i > looked and e.get("type") == "draw"
                  and e.get("player") == owner] if "w1" in _ids(scenario) else []
        shuffled = {"type": "shuffle", "player": owner}
        drawn = {"type": "draw", "player": owner}
        if others:  # w1's draw: another effect operates the deck mid-resolution
            ok, when = looked < at < others[0], "just before w1's draw (another effect)"
            order = [{"type": op}, shuffled, drawn]
        else:
            last = max(i for i, e in enumerate(evs) if e.get("type") not in
                       ("resolved", "shuffle"))
            ok, when = at > last, "at the end of the resolution, after its own draws"
            own_draw = any("draw" in ins for ins in effect)
            order = [{"type": op}, *([drawn] if own_draw else []), shuffled]
        if not ok:
            raise Violation(
                f"the shuffle of {owner}'s deck for the {op} ({form}) must come {when}; "
                f"observed event order {[e.get('type') for e in evs]}",
                expect={0: {"events": {"order": order}}})
    for step in range(1, len(scenario["steps"])):
        if events(trace, step, "shuffle"):
            raise Violation(
                f"step {step + 1} (a later draw) shuffled a deck; the shuffle for the "
                f"{op} belongs to the end of that effect's resolution",
                expect={step: {"events": {"exclude": [{"type": "shuffle"}]}}})


# -- 3. combat power ----------------------------------------------------------------

def _power_steps(scenario: Scenario) -> tuple[bool, list[dict[str, Any]]]:
    """Whether t1 enters the field first, and the modifiers the steps give it."""
    mods = []
    enters = False
    for step in scenario["steps"]:
        if "put_onto_field" in step["do"]:
            enters = True
            continue
        power = dict(resolve_effect(step)[0]["power"])
        power.pop("target")
        mods.append(power)
    return enters, mods


@invariant("vision/prop/power-modifier-order",
           rules=["vision/IR-6.1.10", "vision/IR-6.1.10.a", "vision/IR-6.1.10.b",
                  "vision/IR-6.1.10.c", "vision/IR-6.1.10.d", "vision/QA-298",
                  "vision/QA-356", "vision/reading/always-sets-the-value",
                  "vision/reading/variable-counted-when-power-is-computed"],
           scenarios=S.power_scenarios(),
           exercises=X.power)
def power_order(play: Play, scenario: Scenario) -> None:
    """Combat power after modifiers follows 6.1.10 (variables fixed first, then
    change, swap, add, always; the last change wins) and so does not depend on
    the order in which modifiers of different kinds arrived."""
    p1 = scenario["setup"]["p1"]
    _, card = card_in_setup(scenario, "t1")
    base = base_power(card, {"hand": [c for c in p1.get("hand", []) if c["id"] != "t1"]})
    standing = [clause["modifier"] for c in p1["field"] if c["id"] == "m1"
                for clause in c["texts"]]
    enters, mods = _power_steps(scenario)
    trace = run_accepted(play, scenario)
    offset = int(enters)
    for i in range(offset, len(scenario["steps"])):
        given = standing + mods[:i + 1 - offset]
        want = power_after(base, given)
        seen = trace.card("t1", i)
        got = (seen.get("attack"), seen.get("durability"))
        if got != want:
            raise Violation(
                f"t1 (printed {card['power']}, so {base[0]}/{base[1]} with X fixed) under "
                f"modifiers {given} (in arrival order) should be {want[0]}/{want[1]} by "
                f"6.1.10 (change, swap, add, always; last change wins), observed "
                f"{got[0]}/{got[1]}",
                expect={i: {"cards": {"t1": {"attack": want[0], "durability": want[1]}}}})
    regrouped = S.grouped_order(mods)
    if regrouped == mods:
        return
    other = {"setup": scenario["setup"],
             "steps": scenario["steps"][:offset] + [S.power_step(m) for m in regrouped]}
    final = run_accepted(play, other).card("t1")
    got = (final.get("attack"), final.get("durability"))
    want = power_after(base, standing + mods)
    if got != want:
        raise Violation(
            f"the same modifiers arriving as {regrouped} instead of {mods} gave t1 "
            f"{got[0]}/{got[1]}; the order of modifiers of different kinds must not matter "
            f"(6.1.10 gives {want[0]}/{want[1]})")


# -- 4. deathblow --------------------------------------------------------------------

def _deathblow_op(step: dict[str, Any]) -> tuple[str, str, int]:
    do = step["do"]
    if "battle_damage" in do:
        args = do["battle_damage"]
        return "battle", args["source"], args["amount"]
    (op, args), = do["resolve"]["effect"][0].items()
    source = do["resolve"]["source"]
    if op == "damage":
        return "effect", source, args["amount"]
    if op == "deathblow":
        return "deathblow", source, 0
    return "shrink", source, -args["durability"]


@invariant("vision/prop/deathblow-conditions",
           rules=["vision/IR-9.2.2", "vision/IR-9.2.2.a", "vision/IR-9.2.2.b",
                  "vision/IR-9.2.2.c", "vision/IR-1.10.12.f", "vision/QA-363",
                  "vision/reading/deathblow-cause-is-direct-damage",
                  "vision/reading/deathblow-checked-after-each-instruction"],
           scenarios=S.deathblow_scenarios(),
           exercises=X.deathblow)
def deathblow(play: Play, scenario: Scenario) -> None:
    """A card is in 決死状態 exactly when its damage reaches its durability, its
    durability is 0 or less, or a deathblow instruction hit it; only battle
    damage makes it 決死状態 by battle; the cause is the damage's source."""
    trace = run_accepted(play, scenario)
    _, target = card_in_setup(scenario, "t1")
    dmg = target.get("damage", 0)
    dur = int(target["power"].split("/")[1])
    immune = "deathblow" in target.get("immune", [])
    for i, step in enumerate(scenario["steps"]):
        kind, source, amount = _deathblow_op(step)
        dmg += amount if kind in ("battle", "effect") else 0
        dur -= amount if kind == "shrink" else 0
        if kind in ("battle", "effect"):
            battle = kind == "battle"
            pattern: dict[str, Any] = {"type": "damage", "card": "t1", "amount": amount,
                                       "battle": battle, "source": source}
            if not trace.find(i, **pattern):
                raise Violation(
                    f"{kind} damage {amount} from {source} to t1 should be reported as "
                    f"{pattern}; observed {trace.events(i)}",
                    expect={i: {"events": {"include": [pattern]}}})
        hit = kind == "deathblow" and not immune
        dies = dmg >= dur or dur <= 0 or hit
        reported = events(trace, i, "deathblow", card="t1")
        state = trace.card("t1", i)
        if not dies:
            if reported or state.get("deathblow") is not False:
                why = ("t1 is immune to being put into 決死状態 by effects"
                       if kind == "deathblow" else f"damage {dmg} < durability {dur}")
                raise Violation(
                    f"t1 should not be in 決死状態 after step {i + 1} ({why}); observed "
                    f"deathblow={state.get('deathblow')!r}, events {reported}",
                    expect={i: {"cards": {"t1": {"deathblow": False}},
                                "events": {"exclude": [{"type": "deathblow"}]}}})
            got = (state.get("damage"), state.get("durability"))
            if got != (dmg, dur):
                raise Violation(
                    f"t1 after step {i + 1} should have damage {dmg} and durability {dur} "
                    f"(damage accumulates; durability after its modifiers), observed "
                    f"{got[0]!r} and {got[1]!r}",
                    expect={i: {"cards": {"t1": {"damage": dmg, "durability": dur}}}})
            _no_watcher_draw(trace, i)
            continue
        by_battle = kind == "battle"
        cause = source if kind != "shrink" else None
        pattern = {"type": "deathblow", "card": "t1", "battle": by_battle}
        if cause:
            pattern["cause"] = cause
        why = {"battle": f"battle damage from {source} brought damage to {dmg} >= {dur}",
               "effect": f"effect damage from {source} brought damage to {dmg} >= {dur}",
               "deathblow": f"a deathblow instruction of {source} hit it",
               "shrink": f"durability fell to {dur} (damage {dmg})"}[kind]
        if len(reported) != 1 or not trace.find(i, **pattern):
            raise Violation(f"t1 should be put into 決死状態 once at step {i + 1} ({why}), "
                            f"as {pattern}; observed {reported}",
                            expect={i: {"events": {"include": [pattern], "count": [
                                {"match": {"type": "deathblow", "card": "t1"}, "n": 1}]}}})
        if state.get("zone") == "field":
            want: dict[str, Any] = {"deathblow": True, "deathblow_by_battle": by_battle}
            if cause:
                want["deathblow_cause"] = cause
            shown = {k: state.get(k) for k in want}
            if shown != want:
                raise Violation(f"t1 after step {i + 1} ({why}) should show {want}, "
                                f"observed {shown}", expect={i: {"cards": {"t1": want}}})
        if "resolve" in step["do"] and len(step["do"]["resolve"]["effect"]) > 1:
            _gone_before_the_next_part(trace, i, why)
        drew = events(trace, i, "draw", player="p1")
        if by_battle and len(drew) != 1:
            raise Violation(
                "w1 (when an opponent's card is put into 決死状態 by battle, draw 1) should "
                f"have drawn once: t1 was put into 決死状態 by battle damage; observed {drew}",
                expect={i: {"events": {"include": [{"type": "draw", "player": "p1"}]}}})
        if not by_battle:
            _no_watcher_draw(trace, i, f"t1 was put into 決死状態 by {kind}, not by battle "
                                       "damage (QA-363)")


def _gone_before_the_next_part(trace: Trace, step: int, why: str) -> None:
    """9.2.2 is checked after each part (a reading): the return that follows in the same
    effect finds t1 already in 決死状態 and destroyed, so it does not return it."""
    if events(trace, step, "returned", card="t1") or trace.card("t1", step).get("zone") == "hand":
        raise Violation(
            f"t1 met 9.2.2 at step {step + 1} ({why}) before the effect's next part, so it "
            "was in 決死状態 and destroyed when that part tried to return it to hand; "
            f"observed events {trace.events(step)}",
            expect={step: {"events": {"exclude": [{"type": "returned", "card": "t1"}]}}})


def _no_watcher_draw(trace: Trace, step: int, why: str = "nothing was put into 決死状態 "
                                                             "by battle") -> None:
    drew = events(trace, step, "draw")
    if drew:
        raise Violation(f"w1 drew at step {step + 1}, but {why}",
                        expect={step: {"events": {"exclude": [{"type": "draw"}]}}})


# -- 5. name reference ---------------------------------------------------------------

@invariant("vision/prop/name-reference",
           rules=["vision/IR-12.3", "vision/IR-12.3.1", "vision/ex-12.3.1",
                  "vision/IR-12.3.2", "vision/QA-2014-11-27",
                  "vision/reading/same-name-any-name-exactly"],
           scenarios=S.name_scenarios(),
           exercises=X.names)
def name_reference(play: Play, scenario: Scenario) -> None:
    """name_ref "A" refers to exactly the cards one of whose names contains A;
    same_name_as to exactly the cards with some name equal to some name of that
    card (link names included: a reading); a name change keeps the names gained
    through link.  Names are compared as a set: the seed gives them no order."""
    trace = run_accepted(play, scenario)
    cards = {c["id"]: c for side in scenario["setup"].values() for c in side["field"]}
    names = {cid: names_of(c) for cid, c in cards.items()}
    if len(scenario["steps"]) == 2:
        args = resolve_effect(scenario["steps"][0])[0]["change_name"]
        cid = args["target"]["card"]
        names[cid] = names_of(cards[cid], args["name"])
        seen = trace.card(cid, 0).get("names") or []
        if set(seen) != set(names[cid]):
            raise Violation(
                f"renaming {cid} to {args['name']!r} replaces only its printed name; names "
                f"gained by link stay: expected the names {sorted(set(names[cid]))}, "
                f"observed {seen}")
    flt = resolve_effect(scenario["steps"][-1])[0]["damage"]["target"]["all"]
    last = len(scenario["steps"]) - 1
    for cid in cards:
        if "name_ref" in flt:
            want = refers_to(names[cid], flt["name_ref"])
            rule = f"one of its names {names[cid]} contains {flt['name_ref']!r}"
        else:
            ref = flt["same_name_as"]
            want = cid != ref and same_name(names[cid], names[ref])
            rule = f"some name of {names[cid]} equals some name of {ref}'s {names[ref]}"
        got = trace.card(cid).get("damage")
        if got != int(want):
            raise Violation(
                f"{flt} should {'' if want else 'not '}refer to {cid} "
                f"({'' if want else 'not: '}{rule}); expected damage {int(want)}, observed "
                f"{got!r}", expect={last: {"cards": {cid: {"damage": int(want)}}}})


# -- 6. resolution -------------------------------------------------------------------

@invariant("vision/prop/resolution-stops-at-failure",
           rules=["vision/IR-12/p1", "vision/IR-12/p2", "vision/IR-12/p3",
                  "vision/IR-12/p4", "vision/reading/what-cannot-be-applied",
                  "vision/reading/short-draw-discard-does-nothing",
                  "vision/reading/all-with-every-card-failing"],
           scenarios=S.resolution_scenarios(),
           exercises=X.resolution)
def resolution(play: Play, scenario: Scenario) -> None:
    """An effect applies from the head and stops at the first part that cannot be
    applied; an ``all`` part never fails, even when it matches nothing or cannot
    be applied to some of what it matches (12/p3, p4) or, a reading, to any of
    them.  A named or chosen card an immunity protects is a part not applied
    (12/p3's own words); what "cannot be applied" covers where the seed is
    silent (a card off the field, what a short draw moves) follows the readings
    this property is tagged with."""
    trace = run_accepted(play, scenario)
    action = scenario["steps"][0]["do"]["resolve"]
    effect = action["effect"]
    board = Board.from_setup(scenario["setup"])
    failed = resolve_model(board, effect, "p1", action.get("targets", []),
                           action.get("source"))
    story = (f"the effect stops at part {failed + 1} {short(effect[failed])}"
             if failed is not None else "every part applies")
    done = events(trace, 0, "resolved")
    if len(done) != 1 or done[0].get("completed") is not (failed is None):
        raise Violation(f"{story}: expected one resolved event with completed: "
                        f"{failed is None}, observed {done}",
                        expect={0: {"events": {"include": [
                            {"type": "resolved", "completed": failed is None}]}}})
    state = trace.final
    for cid, zone in board.zone.items():
        seen = state["cards"].get(cid, {})
        if seen.get("zone") != zone:
            raise Violation(f"{story}: {cid} should be in {zone}, observed {seen.get('zone')}",
                            expect={0: {"cards": {cid: {"zone": zone}}}})
        if zone == "field" and seen.get("damage") != board.damage[cid]:
            raise Violation(
                f"{story}: {cid} should have damage {board.damage[cid]}, observed "
                f"{seen.get('damage')!r}", expect={0: {"cards": {cid: {"damage":
                                                                   board.damage[cid]}}}})
    for player in ("p1", "p2"):
        want = {"deck_size": len(board.deck[player]), "hand": len(board.hand[player])}
        side = state["players"][player]
        got = {"deck_size": side.get("deck_size"), "hand": len(side.get("hand", []))}
        if got != want:
            raise Violation(f"{story}: {player} should have {want}, observed {got}",
                            expect={0: {"players": {player: {
                                "deck_size": want["deck_size"]}}}})


# -- 7. X ------------------------------------------------------------------------------

# every example pays X under at least one cost modifier: each exercises QA-269 (the default)
@invariant("vision/prop/x-is-nodes-paid",
           rules=["vision/QA-269"],
           scenarios=S.x_cost_scenarios())
def x_is_paid(play: Play, scenario: Scenario) -> None:
    """X is the number of nodes actually paid, whatever cost modifiers are in force."""
    trace = run_accepted(play, scenario)
    pay = scenario["steps"][0]["do"]["pay_nodes"]
    nodes = scenario["setup"]["p1"]["nodes"]
    effect = scenario["setup"]["p1"]["hand"][0]["texts"][0]["effect"]
    draws = len(effect) > 1
    got = {"damage": trace.card("t1").get("damage"),
           "nodes": trace.final["players"]["p1"].get("nodes"),
           "hand": len(trace.final["players"]["p1"].get("hand", []))}
    want = {"damage": pay, "nodes": nodes - pay, "hand": pay if draws else 0}
    if got != want:
        mods = [c["texts"][0]["modifier"]["cost"]
                for c in scenario["setup"]["p1"].get("field", [])]
        raise Violation(
            f"s1 (cost X) was played paying {pay} nodes with cost modifiers {mods} in force: "
            f"X must be {pay} (QA-269), so expected {want}, observed {got}",
            expect={0: {"cards": {"t1": {"damage": pay}},
                        "players": {"p1": {"nodes": nodes - pay}}}})


RULE_PROPERTIES = [unnegatable_text, unnegatable_effect, shuffle_rule, power_order, deathblow,
                   name_reference, resolution, x_is_paid, *METAMORPHIC_PROPERTIES]
