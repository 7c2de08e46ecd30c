"""The Zatch metamorphic property: renaming cards and swapping players changes no
outcome (the seed's rules name no card id and favour no seat).
"""

from __future__ import annotations

from typing import Any

from conformance.ruleset import Play, Trace, Violation, invariant
from conformance.rulesets.zatch import expected as ex
from conformance.rulesets.zatch import strategies as gen
from conformance.rulesets.zatch._checks import (
    effect_of,
    note,
    same,
    short,
)

P, Z = "zatch/prop/", "zatch/"


# -- metamorphic: renaming cards and swapping players -----------------------------------------

def _swap(value: Any, ids: set[str]) -> Any:
    if isinstance(value, dict):
        return {_swap(k, ids) if k in ("p1", "p2") or k in ids else k: _swap(v, ids)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, ids) for v in value]
    if value in ("p1", "p2"):
        return ex.opponent(value)
    if isinstance(value, str) and value in ids:
        return "r_" + value
    return value


def _ids(scenario: gen.Scenario) -> set[str]:
    return {card["id"] for player in ("p1", "p2")
            for zone in ("hand", "field", "discard")
            for card in scenario["setup"].get(player, {}).get(zone, [])}


def mixed_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """The mirror exercises what the scenario reached: a jammer the engine accepted right
    after the opponent's effect (jammer •1), a non-battle spell it accepted (nonbattle •2),
    an effect it refused after it accepted a 使えない (使えない •1)."""
    found: set[str] = set()
    steps = scenario["steps"]
    restricted = False
    for i, step in enumerate(steps):
        do = step["do"]
        if "use" not in do:
            continue
        effect = effect_of(scenario, do["use"])
        accepted = trace.replies[i]["accepted"]
        before = steps[i - 1]["do"] if i else {}
        if (effect.get("jammer") and accepted and "use" in before and "target" not in do
                and before["by"] != do["by"]):
            found.add(Z + "jammer.1")
        if effect.get("kind") == "non_battle_spell" and accepted:
            found.add(Z + "nonbattle.2")
        if restricted and not accepted:
            found.add(Z + "cannot.1")
        if accepted and any("cannot_use" in part for part in effect.get("do", [])):
            restricted = True
    return found


@invariant(P + "renaming-and-swapping-players",
           rules=[Z + "jammer.1", Z + "nonbattle.2", Z + "cannot.1"],
           scenarios=gen.MIXED,
           exercises=mixed_exercised)
def renaming(play: Play, scenario: gen.Scenario) -> None:
    """Renaming every card and swapping p1 and p2 changes nothing but the names."""
    note(scenario)
    ids = _ids(scenario)
    first = play.run(scenario)
    mirrored = _swap({**scenario, "setup": {"turn": "p1", **scenario["setup"]}}, ids)
    second = play.run(mirrored)
    for i in range(len(scenario["steps"])):
        if first.replies[i]["accepted"] != second.replies[i]["accepted"]:
            raise Violation(f"step {i + 1} {short(scenario['steps'][i])} was accepted "
                            f"{first.replies[i]['accepted']} but, with players swapped and cards "
                            f"renamed, {second.replies[i]['accepted']}")
        same(second.states[i], _swap(first.states[i], ids), i,
             "swapping players and renaming cards must mirror the state")
