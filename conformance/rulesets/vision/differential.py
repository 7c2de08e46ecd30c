"""The differential property: the engine under test against the reference engine."""

from __future__ import annotations

import json
from typing import Any

from conformance._properties import Play, Scenario, Trace, Violation, invariant
from conformance.rulesets.vision import strategies as S
from conformance.rulesets.vision._support import short


def _deck_cards(scenario: Scenario) -> dict[str, str]:
    return {c["id"]: p for p in ("p1", "p2")
            for c in scenario["setup"].get(p, {}).get("deck", [])}


def normalised(trace: Trace, scenario: Scenario) -> list[Any]:
    """The trace with what a shuffle makes random hidden: once a player's deck was
    shuffled, which of its cards went where is not comparable between engines."""
    decks = _deck_cards(scenario)
    shuffled: set[str] = set()

    def mask(value: Any) -> Any:
        if isinstance(value, str) and decks.get(value) in shuffled:
            return f"<card of {decks[value]}'s shuffled deck>"
        if isinstance(value, list):
            return [mask(v) for v in value]
        if isinstance(value, dict):
            return {k: mask(v) for k, v in value.items()}
        return value

    out: list[Any] = []
    for reply, state in zip(trace.replies, trace.states, strict=True):
        evs = []
        for event in reply.get("events", []):
            evs.append(mask(event))
            if event.get("type") == "shuffle":
                shuffled.add(event.get("player"))
        cards = state.get("cards", {})
        kept = {cid: mask(c) for cid, c in cards.items() if decks.get(cid) not in shuffled}
        hidden = sorted(json.dumps(mask(c), sort_keys=True) for cid, c in cards.items()
                        if decks.get(cid) in shuffled)
        out.append({"accepted": reply["accepted"], "events": evs,
                    "cards": kept, "shuffled cards": hidden,
                    "players": mask(state.get("players", {}))})
    return out


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: only one engine has it ({a.get(key, b.get(key))!r:.80})"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a != b or type(a) is not type(b):
        return f"{path}: engine {a!r:.160}, reference {b!r:.160}"
    return None


@invariant("vision/prop/differential",
           rules=["vision/IR-12/p1", "vision/IR-12/p2", "vision/IR-12.3.1",
                  "vision/IR-12.4", "vision/IR-6.1.10", "vision/IR-9.2.2",
                  "vision/IR-3.2.5", "vision/QA-269"],
           scenarios=S.any_scenarios())
def differential(play: Play, scenario: Scenario) -> None:
    """The engine agrees with the reference engine on every reply, event and
    observation of the same scenario (cards hidden by a shuffle compared as a set)."""
    mine = normalised(play.run(scenario), scenario)
    theirs = normalised(play.reference.run(scenario), scenario)
    for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        found = first_difference(a, b)
        if found:
            raise Violation(f"step {i + 1} {short(scenario['steps'][i]['do'])} differs from "
                            f"the reference engine at {found.lstrip('.')}")
