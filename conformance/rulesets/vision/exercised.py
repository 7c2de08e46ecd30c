"""Which of its rules one example of a Vision property exercised (`Property.exercises`).

Each function reads the scenario (what the seed makes of it, through `expected`)
and the engine's own trace (what it reported and showed), never another engine,
and names the rules whose situation the example brought about: a deathblow rule
only when the engine put the card into 決死状態, a reading only when the case it
settles came up.  An engine that lacks a feature plays no example reaching it, so
the rules of that feature come out "too few examples" (docs/cli.md), not checked.
The audit, property by property, is the table in docs/rulesets/vision.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance._properties import Scenario, Trace
from conformance.rulesets.vision.expected import Board, seen_cards, whole_deck_by_no_count
from conformance.rulesets.vision.strategies import arrival_orders

V, READING = "vision/", "vision/reading/"


def _effect(step: dict[str, Any]) -> list[dict[str, Any]]:
    effect: list[dict[str, Any]] = step["do"].get("resolve", {}).get("effect", [])
    return effect


def _cards(scenario: Scenario) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for side in scenario["setup"].values() if isinstance(side, dict)
            for zone in side.values() if isinstance(zone, list) for c in zone}


# -- 1. 【】 text ------------------------------------------------------------------------

def unnegatable_text(scenario: Scenario, trace: Trace) -> set[str]:
    """A text negation exercises 2.12.3; on a text with a 【】 clause, 12.4 (and 12.4/p1
    when the negation does not say it includes 【】); negate_auto on a 【】 auto clause,
    QA-020."""
    clauses = _cards(scenario)["n1"]["texts"]
    kept = [c for c in clauses if c.get("unnegatable")]
    found: set[str] = set()
    for step in scenario["steps"][:-1]:
        (op, args), = _effect(step)[0].items()
        if op == "negate_text":
            found.add(V + "IR-2.12.3")
            if kept:
                found.add(V + "IR-12.4")
                if not args.get("include_unnegatable"):
                    found.add(V + "IR-12.4/p1")
        elif any(c["kind"] == "auto" for c in kept):
            found.add(V + "QA-020")
    return found


def unnegatable_effect(scenario: Scenario, trace: Trace) -> set[str]:
    """The effect of a 【】 play clause that the engine reported negated (12.4/p2, its
    supplement, QA-102); a clause without 【】, or nothing negating it, exercises none."""
    spell = _cards(scenario)["s1"]
    if spell["texts"][0].get("unnegatable") and trace.find(0, type="negated", what="effect"):
        return {V + "IR-12.4/p2", V + "IR-12.4/supplement", V + "QA-102"}
    return set()


# -- 2. shuffle ----------------------------------------------------------------------------

def shuffle(scenario: Scenario, trace: Trace) -> set[str]:
    """An effect that does not say to shuffle and saw the whole deck naming no count
    (3.2.5, and the shuffle's timing), only part of it (3.2.5.a), the whole as a result of
    "until" or of a count covering it (3.2.5.b); a count above the deck's size (the
    reading on counted reveals)."""
    effect = _effect(scenario["steps"][0])
    (_, args), = effect[0].items()
    deck = scenario["setup"]["p1" if args["player"] == "self" else "p2"]["deck"]
    if any("shuffle" in part for part in effect):
        return set()
    found: set[str] = set()
    seen = seen_cards(args, deck)
    if whole_deck_by_no_count(args, deck):
        found |= {V + "IR-3.2.5", READING + "shuffle-timing"}
        if "until" in args:
            found.add(V + "IR-3.2.5.b")
    elif len(seen) < len(deck):
        found.add(V + "IR-3.2.5.a")
    else:
        found.add(V + "IR-3.2.5.b")   # a count that covered the whole deck
    if args.get("count", 0) > len(deck):
        found.add(READING + "counted-reveal-reveals-what-is-there")
    return found


# -- 3. combat power -----------------------------------------------------------------------

def _modifiers(scenario: Scenario) -> list[dict[str, Any]]:
    """The modifiers in force on t1 over the scenario: m1's standing one, then the steps'."""
    standing = [clause["modifier"] for c in scenario["setup"]["p1"].get("field", [])
                if c["id"] == "m1" for clause in c["texts"]]
    return standing + [_effect(step)[0]["power"] for step in scenario["steps"]
                       if "resolve" in step["do"]]


def power(scenario: Scenario, trace: Trace) -> set[str]:
    """Each modifier kind in force exercises its step of 6.1.10 (.a change, .b swap, .c
    add, .d always, and the always reading); 6.1.10 itself, modifiers of two kinds or a
    variable power; QA-298 two changes; a power counting a pile, the variable reading;
    QA-356 a variable-power t1 entering under m1's modifier."""
    mods = _modifiers(scenario)
    kinds = [m["kind"] for m in mods]
    card = _cards(scenario)["t1"]
    found = {V + "IR-6.1.10." + step for step, kind in
             (("a", "change"), ("b", "swap"), ("c", "add"), ("d", "always")) if kind in kinds}
    if "always" in kinds:
        found.add(READING + "always-sets-the-value")
    if len(set(kinds)) > 1 or "x" in card:
        found.add(V + "IR-6.1.10")
    if kinds.count("change") > 1:
        found.add(V + "QA-298")
    if isinstance(card.get("x"), dict):
        found.add(READING + "variable-counted-when-power-is-computed")
    entered = any("put_onto_field" in step["do"] for step in scenario["steps"])
    if entered and "x" in card:
        found.add(V + "QA-356")
    return found


def modifier_arrival(scenario: Scenario, trace: Trace) -> set[str]:
    """The kinds of the modifiers that arrived in another order (none compared when the
    generated order is the only one of its kinds), as `power` counts them."""
    mods = [{k: v for k, v in _effect(s)[0]["power"].items() if k != "target"}
            for s in scenario["steps"] if "resolve" in s["do"]]
    if not arrival_orders(mods):
        return set()
    return power(scenario, trace)


# -- 4. deathblow ---------------------------------------------------------------------------

def deathblow(scenario: Scenario, trace: Trace) -> set[str]:
    """The step at which the engine put t1 into 決死状態 decides: damage (9.2.2.a, the cause,
    1.10.12.f and the direct-damage reading), a durability cut (.b), an instruction (.c); any
    of them 9.2.2; one not by battle damage QA-363 (the watcher must not draw); a part of
    the same effect after it, the reading that 9.2.2 is checked after each part."""
    found: set[str] = set()
    for i, step in enumerate(scenario["steps"]):
        if not trace.find(i, type="deathblow", card="t1"):
            continue
        do = step["do"]
        op = "battle" if "battle_damage" in do else next(iter(_effect(step)[0]))
        found.add(V + "IR-9.2.2")
        if op in ("battle", "damage"):
            found |= {V + "IR-9.2.2.a", V + "IR-1.10.12.f",
                      READING + "deathblow-cause-is-direct-damage"}
        elif op == "power":
            found.add(V + "IR-9.2.2.b")
        else:
            found.add(V + "IR-9.2.2.c")
        if op != "battle":
            found.add(V + "QA-363")
        if len(_effect(step)) > 1:
            found.add(READING + "deathblow-checked-after-each-instruction")
    return found


# -- 5. names -----------------------------------------------------------------------------

SEED_EXAMPLE = ("符ノ壱“博麗 霊夢”", "博麗神社")


def names(scenario: Scenario, trace: Trace) -> set[str]:
    """A name reference (12.3.1; the seed's own example when it refers to 博麗 霊夢 with
    No.178 or No.143 on a field) or a same-name filter (12.3.2, and the any-name reading
    when some card has 連結 names); a rename of a card with 連結 names, QA-2014-11-27.  Every
    example refers to cards by name (12.3)."""
    cards = _cards(scenario)
    flt = _effect(scenario["steps"][-1])[0]["damage"]["target"]["all"]
    linked = [cid for cid, c in cards.items() if c.get("link_names")]
    found = {V + "IR-12.3"}
    if "name_ref" in flt:
        found.add(V + "IR-12.3.1")
        every = {n for c in cards.values() for n in [c.get("name"), *c.get("link_names", [])]}
        if flt["name_ref"] == "博麗 霊夢" and every & set(SEED_EXAMPLE):
            found.add(V + "ex-12.3.1")
    else:
        found.add(V + "IR-12.3.2")
        if linked:
            found.add(READING + "same-name-any-name-exactly")
    for step in scenario["steps"][:-1]:
        if _effect(step)[0]["change_name"]["target"]["card"] in linked:
            found.add(V + "QA-2014-11-27")
    return found


# -- 6. resolution --------------------------------------------------------------------------

def resolution(scenario: Scenario, trace: Trace) -> set[str]:
    """Walk the effect as the seed applies it, up to the part that fails: a part failing
    with parts after it (12/p2); an "all" part reached that can be applied to some of its
    cards but not all (12/p3), to none (the every-card-failing reading), matching nothing
    (12/p4); a part naming a card off the field or damaging a non-character (the reading on
    what cannot be applied); a short draw or discard (its reading).  Every example applies a
    text of two parts or more from its head (12/p1)."""
    action = scenario["steps"][0]["do"]["resolve"]
    effect, chosen, source = action["effect"], action.get("targets", []), action.get("source")
    board = Board.from_setup(scenario["setup"])
    me = action.get("by", "p1")
    found = {V + "IR-12/p1"}
    for i, part in enumerate(effect):
        (op, args), = part.items()
        if op in ("damage", "return_to_hand"):
            target = args["target"]
            if isinstance(target, dict) and "all" in target:
                matched = [c for c in board.zone if board.matches(c, target["all"], me)]
                can = [board.affects(op, c) for c in matched]
                if not matched:
                    found.add(V + "IR-12/p4")
                elif not any(can):
                    found.add(READING + "all-with-every-card-failing")
                elif not all(can):
                    found.add(V + "IR-12/p3")
            else:
                cids = (list(chosen) if target == "chosen" else [source] if target == "this"
                        else [target["card"]])
                if any(board.zone.get(c) != "field"
                       or (op == "damage" and board.types.get(c) != "character") for c in cids):
                    found.add(READING + "what-cannot-be-applied")
        else:
            pile = (board.deck if op == "draw" else board.hand)[
                me if args["player"] == "self" else ("p2" if me == "p1" else "p1")]
            if len(pile) < args["count"]:
                found.add(READING + "short-draw-discard-does-nothing")
        if not board.apply(part, me, chosen, source):
            if i < len(effect) - 1:
                found.add(V + "IR-12/p2")
            break
    return found


# -- 7. X -------------------------------------------------------------------------------------

def x_cost(scenario: Scenario, trace: Trace) -> set[str]:
    """Every example pays X under at least one cost modifier (QA-269)."""
    return {V + "QA-269"}


# -- every kind at once -------------------------------------------------------------------------

def kind_of(scenario: Scenario) -> str:
    """Which generator of `strategies.any_scenarios` drew ``scenario``, from its cards."""
    cards = _cards(scenario)
    if "n1" in cards:
        return "unnegatable_text"
    if "src" in cards:
        return "resolution"
    if "c0" in cards:
        return "names"
    if cards.get("t1", {}).get("name") == "modified":
        return "power"
    if cards.get("t1", {}).get("name") == "victim":
        return "deathblow"
    if "s1" in cards:
        return "x_cost" if cards["s1"].get("cost") == "X" else "unnegatable_effect"
    return "shuffle"


BY_KIND: dict[str, Callable[[Scenario, Trace], set[str]]] = {
    "unnegatable_text": unnegatable_text, "unnegatable_effect": unnegatable_effect,
    "shuffle": shuffle, "power": power, "deathblow": deathblow, "names": names,
    "resolution": resolution, "x_cost": x_cost}


def any_kind(scenario: Scenario, trace: Trace) -> set[str]:
    """What a scenario of any kind exercised, as the property of its kind counts it."""
    return BY_KIND[kind_of(scenario)](scenario, trace)


def _mentions(value: Any, keys: frozenset[str]) -> bool:
    if isinstance(value, dict):
        return any(k in keys or _mentions(v, keys) for k, v in value.items())
    if isinstance(value, list):
        return any(_mentions(v, keys) for v in value)
    return False


def card_ids(scenario: Scenario, trace: Trace) -> set[str]:
    """Renaming the handles exercises 12.3 where something refers to cards by name."""
    return {V + "IR-12.3"} if _mentions(scenario, frozenset({"name_ref", "same_name_as"})) \
        else set()


def unreferenced(scenario: Scenario, trace: Trace) -> set[str]:
    """Cards added to the 冥界 exercise 12/p4 (an effect acts on what its description names)
    where some part describes its cards with "all"."""
    return {V + "IR-12/p4"} if any(
        isinstance(args.get("target"), dict) and "all" in args["target"]
        for step in scenario["steps"] for part in _effect(step) for args in part.values()
    ) else set()


def split_text(scenario: Scenario, trace: Trace) -> set[str]:
    """As `resolution`: 12/p1 always, 12/p2 when a part fails with parts after it."""
    return resolution(scenario, trace)
