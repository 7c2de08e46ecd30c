"""Metamorphic Vision properties: two runs of the engine under test, no oracle.

Each property changes a scenario in a way the seed says cannot matter (card
handles, which player is p1, cards nothing refers to, the arrival order of
modifiers of different kinds, one text against its parts one by one) and
demands the same observations up to that change.  They hold under every
reading, so they judge engines on what the rules make symmetric, not on the
catalogue's answers.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance._properties import Play, Scenario, Trace, Violation, invariant
from conformance.rulesets.vision import exercised as X
from conformance.rulesets.vision import strategies as S
from conformance.rulesets.vision._support import events, run_accepted, short

#: Keys whose values are names, never card handles.
NAME_KEYS = frozenset({"name", "link_names", "name_ref", "number"})


def card_ids(scenario: Scenario) -> set[str]:
    return {c["id"] for side in scenario["setup"].values() for zone in side.values()
            if isinstance(zone, list) for c in zone}


def relabel(value: Any, mapping: dict[str, str], key: str | None = None) -> Any:
    """``value`` with every string (and dict key) in ``mapping`` replaced, names left alone."""
    if key in NAME_KEYS:
        return value
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [relabel(v, mapping) for v in value]
    if isinstance(value, dict):
        return {mapping.get(k, k): relabel(v, mapping, k) for k, v in value.items()}
    return value


def comparable(trace: Trace, scenario: Scenario) -> list[dict[str, Any]]:
    """Per step: accepted, the events, the state.  Which card of a shuffled deck
    went where is chance, so those cards lose their ids (a placeholder) and all
    but where they are: a multiset of zones."""
    shuffled = {e.get("player") for e in trace.events() if e.get("type") == "shuffle"}
    mask = {c["id"]: f"<a card of {p}'s shuffled deck>" for p in shuffled
            for c in scenario["setup"].get(p, {}).get("deck", [])}
    steps = []
    for reply, state in zip(trace.replies, trace.states, strict=True):
        cards = dict(state.get("cards", {}))
        hidden = _multiset([{"zone": cards.pop(cid).get("zone")} for cid in mask
                            if cid in cards])
        steps.append({"accepted": reply.get("accepted"),
                      "events": [relabel(e, mask) for e in reply.get("events", [])],
                      "state": {**relabel({**state, "cards": cards}, mask),
                                "shuffled cards": hidden}})
    return steps


def _multiset(evs: list[dict[str, Any]]) -> list[str]:
    """Events in any order: which of two simultaneous things is reported first is not
    what these properties judge."""
    return sorted(json.dumps(e, sort_keys=True, ensure_ascii=False) for e in evs)


def same_runs(first: list[dict[str, Any]], second: list[dict[str, Any]], change: str,
              scenario: Scenario) -> None:
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        a, b = ({**x, "events": _multiset(x["events"])} for x in (a, b))
        for what in ("accepted", "events", "state"):
            if a[what] != b[what]:
                raise Violation(
                    f"{change} changed what step {i + 1} "
                    f"{short(scenario['steps'][i]['do'])} did ({what}): "
                    f"{short(a[what])} against {short(b[what])}")


@invariant("vision/prop/metamorphic-card-ids",
           rules=["vision/IR-12.3"],
           scenarios=S.any_scenarios(),
           exercises=X.card_ids)
def renamed_ids(play: Play, scenario: Scenario) -> None:
    """Renaming every card's id (in reverse sort order) changes nothing but the ids:
    effects refer to cards by name (12.3) and by what they describe, never by the
    handle a case gives them."""
    ids = sorted(card_ids(scenario))
    mapping = {old: f"id{len(ids) - i:02d}" for i, old in enumerate(ids)}
    back = {new: old for old, new in mapping.items()}
    other = relabel(scenario, mapping)
    first = comparable(run_accepted(play, scenario), scenario)
    second = relabel(comparable(run_accepted(play, other), other), back)
    same_runs(first, second, f"renaming the card ids {mapping}", scenario)


SWAP = {"p1": "p2", "p2": "p1"}


@invariant("vision/prop/metamorphic-players",
           rules=["vision/IR-12/p3", "vision/IR-12/p4", "vision/IR-12.3.1"],
           # two of its rules come from resolutions, one from names: two draws in three
           scenarios=st.one_of(S.resolution_scenarios(), S.resolution_scenarios(),
                               S.name_scenarios()),
           exercises=X.any_kind)
def swapped_players(play: Play, scenario: Scenario) -> None:
    """Swapping which player is p1 swaps the players in every observation and
    nothing else, for effects resolved by either player: what "all" and a name
    reference pick is described from the effect's controller (self/opponent) or
    across both fields, never from the active player.  (Playing cards and
    battle, which belong to the active player, are left out.)"""
    other = relabel(scenario, SWAP)
    first = comparable(run_accepted(play, scenario), scenario)
    second = relabel(comparable(run_accepted(play, other), other), SWAP)
    same_runs(first, second, "swapping p1 and p2", scenario)


UNREFERENCED = "nothing refers to this"


def with_unreferenced_cards(scenario: Scenario) -> tuple[Scenario, set[str]]:
    """``scenario`` with a character put at the bottom of each player's 冥界."""
    setup = {p: dict(side) for p, side in scenario["setup"].items()}
    added = set()
    for player in ("p1", "p2"):
        side = setup.setdefault(player, {})
        cid = f"u{player}"
        side["graveyard"] = [*side.get("graveyard", []),
                             {"id": cid, "name": UNREFERENCED, "power": "1/1"}]
        added.add(cid)
    return {"setup": setup, "steps": scenario["steps"]}, added


def without(steps: list[dict[str, Any]], added: set[str]) -> list[dict[str, Any]]:
    for step in steps:
        state = step["state"]
        for cid in added:
            state.get("cards", {}).pop(cid, None)
        for side in state.get("players", {}).values():
            side["graveyard"] = [c for c in side.get("graveyard", []) if c not in added]
    return steps


@invariant("vision/prop/metamorphic-unreferenced-cards",
           rules=["vision/IR-12/p4"],
           scenarios=S.any_scenarios(),
           exercises=X.unreferenced)
def unreferenced_cards(play: Play, scenario: Scenario) -> None:
    """Cards in the 冥界 that no effect, filter or trigger describes change nothing:
    an effect acts on what its 〔 〕 description names (12/p4), and nothing in
    these scenarios names the 冥界."""
    other, added = with_unreferenced_cards(scenario)
    first = comparable(run_accepted(play, scenario), scenario)
    second = without(comparable(run_accepted(play, other), other), added)
    same_runs(first, second, f"adding {sorted(added)} to the 冥界", scenario)


def _power_mods(scenario: Scenario) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    entry = [s for s in scenario["steps"] if "put_onto_field" in s["do"]]
    mods = [s["do"]["resolve"]["effect"][0]["power"] for s in scenario["steps"]
            if "resolve" in s["do"]]
    return entry, [{k: v for k, v in m.items() if k != "target"} for m in mods]


@invariant("vision/prop/metamorphic-modifier-arrival",
           rules=["vision/IR-6.1.10", "vision/IR-6.1.10.a", "vision/IR-6.1.10.b",
                  "vision/IR-6.1.10.c", "vision/IR-6.1.10.d"],
           scenarios=S.power_scenarios(),
           exercises=X.modifier_arrival)
def modifier_arrival(play: Play, scenario: Scenario) -> None:
    """The same modifiers arriving in another order, each kind's own modifiers
    kept in their order, give the same combat power: 6.1.10 processes them by
    kind (change, swap, add, always), not by arrival.  Only orders in which no
    intermediate power puts the card into 決死状態 are compared (the generator
    keeps durability above 0 in each, `strategies.stays_alive`): a card whose
    durability reached 0 part way was destroyed then (9.2.2.b) and keeps no
    power to compare."""
    entry, mods = _power_mods(scenario)
    final = run_accepted(play, scenario).card("t1")
    want = (final.get("attack"), final.get("durability"))
    for order in S.arrival_orders(mods):
        other = {"setup": scenario["setup"], "steps": entry + [S.power_step(m) for m in order]}
        got = run_accepted(play, other).card("t1")
        if (got.get("attack"), got.get("durability")) != want:
            raise Violation(
                f"modifiers {mods} gave t1 {want[0]}/{want[1]}, but the same arriving as "
                f"{order} gave {got.get('attack')}/{got.get('durability')}: the order of "
                "modifiers of different kinds must not matter (6.1.10)")


def _no_self_return(scenario: Scenario) -> bool:
    effect = scenario["steps"][0]["do"]["resolve"]["effect"]
    return not any(ins.get("return_to_hand", {}).get("target") == "this" for ins in effect)


@invariant("vision/prop/metamorphic-split-text",
           rules=["vision/IR-12/p1", "vision/IR-12/p2"],
           scenarios=S.resolution_scenarios().filter(_no_self_return),
           exercises=X.split_text)
def split_text(play: Play, scenario: Scenario) -> None:
    """A text resolved as one effect ends as its parts resolved one by one, in
    order, up to and including the first part that is not applied: the text is
    applied from its head (12/p1) and nothing after a failed part is (12/p2)."""
    spec = scenario["steps"][0]["do"]["resolve"]
    whole = run_accepted(play, scenario)
    parts = {"setup": scenario["setup"],
             "steps": [{"do": {"resolve": {**spec, "effect": [part]}}}
                       for part in spec["effect"]]}
    split = run_accepted(play, parts)
    stop = next((i for i in range(len(parts["steps"]))
                 if events(split, i, "resolved", completed=False)), len(parts["steps"]) - 1)
    want, got = split.states[stop], whole.final
    if want != got:
        raise Violation(
            f"the text {short(spec['effect'])} as one effect should end as its parts one "
            f"by one up to part {stop + 1}: {short(want)} against {short(got)}")


METAMORPHIC_PROPERTIES = [renamed_ids, swapped_players, unreferenced_cards, modifier_arrival,
                          split_text]
