"""Metamorphic relations: renaming objects, swapping the players' seats (in scenarios where
being the active player does not matter) and adding an unrelated permanent change nothing
but the names.  The engine is compared with itself; no oracle and no reference engine."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from conformance.ruleset import Play, Trace, Violation, invariant
from conformance.rulesets.mtg import expected
from conformance.rulesets.mtg import strategies as S
from conformance.rulesets.mtg.properties import (
    become_exercised,
    partial_exercised,
    shields_exercised,
)

Scenario = dict[str, Any]
BYSTANDER = "bystander"


def deep_map(node: Any, rename: Callable[[str], str]) -> Any:
    """``node`` with every string (dict keys included) passed through ``rename``."""
    if isinstance(node, str):
        return rename(node)
    if isinstance(node, dict):
        return {deep_map(k, rename): deep_map(v, rename) for k, v in node.items()}
    if isinstance(node, list):
        return [deep_map(v, rename) for v in node]
    return node


def renaming(scenario: Scenario, relation: str) -> Callable[[str], str]:
    if relation == "rename":
        ids = set(expected.objects(scenario["setup"]))
        return lambda s: f"z{s}" if s in ids else s
    if relation == "swap_players":
        return lambda s: {"p1": "p2", "p2": "p1"}.get(s, s)
    return lambda s: s


def transformed(scenario: Scenario, relation: str) -> Scenario:
    rename = renaming(scenario, relation)
    other = {"setup": deep_map(scenario["setup"], rename),
             "steps": [{"do": deep_map(s["do"], rename)} for s in scenario["steps"]]}
    if relation == "add_bystander":
        other = copy.deepcopy(other)
        side = other["setup"].setdefault("p2", {})
        side["battlefield"] = [*side.get("battlefield", []),
                               {"id": BYSTANDER, "name": "bystander", "types": ["enchantment"]}]
    return other


def without_bystander(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: without_bystander(v) for k, v in node.items() if k != BYSTANDER}
    if isinstance(node, list):
        return [without_bystander(v) for v in node if v != BYSTANDER]
    return node


def exercised(scenario: Scenario, trace: Trace) -> set[str]:
    """The rules the scenario of another property exercised, as that property counts
    them: a shield scenario holding a shield when damage is dealt (609.7), an instruction
    asking for more than there is (609.3), a card of a become effect's type outside the
    battlefield (609.2)."""
    effect: list[dict[str, Any]] = next((s["do"]["apply"]["effect"] for s in scenario["steps"]
                                          if "apply" in s["do"]), [])
    if any("shield" in part for part in effect):
        return shields_exercised(scenario, trace)
    if any(op in part for part in effect for op in ("discard", "move_top")):
        return partial_exercised(scenario, trace)
    if len(scenario["steps"]) == 1 and effect and "become" in effect[0]:
        return become_exercised(scenario, trace)
    return set()


@invariant("mtg/prop/metamorphic-renaming-swapping-adding",
           rules=["mtg/CR-609.7", "mtg/CR-609.3", "mtg/CR-609.2"],
           scenarios=S.metamorphic_scenarios(), exercises=exercised)
def metamorphic(play: Play, scenario: Scenario) -> None:
    """Renaming objects, swapping the players, or adding an unrelated permanent gives the
    same outcome, state and events under the new names."""
    relation = S.relation_of(scenario)
    rename = renaming(scenario, relation)
    first = play.run(scenario)
    second = play.run(transformed(scenario, relation))
    for i in range(len(scenario["steps"])):
        want = {"accepted": first.replies[i]["accepted"],
                "events": deep_map(first.replies[i].get("events", []), rename),
                "state": deep_map(first.states[i], rename)}
        got = without_bystander({"accepted": second.replies[i]["accepted"],
                                 "events": second.replies[i].get("events", []),
                                 "state": second.states[i]})
        for key in want:
            if want[key] != got[key]:
                raise Violation(f"step {i + 1} under the relation '{relation}' changed the "
                                f"{key}: expected {str(want[key])[:200]}, observed "
                                f"{str(got[key])[:200]}")
