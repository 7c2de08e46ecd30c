"""What every Vision property shares: a few trace readers."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import event
from hypothesis.control import currently_in_test_context

from conformance._properties import Play, Scenario, Trace, Violation
from conformance.rulesets.vision.features import features

# -- helpers --------------------------------------------------------------------------

def short(action: dict[str, Any]) -> str:
    return json.dumps(action, ensure_ascii=False)[:160]


def note_features(scenario: Scenario) -> None:
    """Record the vocabulary features ``scenario`` uses as Hypothesis events (shown by
    ``--hypothesis-show-statistics``); a no-op outside a Hypothesis test."""
    if currently_in_test_context():
        for feature in sorted(features(scenario)):
            event(feature)


def run_accepted(play: Play, scenario: Scenario) -> Trace:
    """Run the scenario; every step is valid vocabulary, so every step must be accepted."""
    note_features(scenario)
    trace = play.run(scenario)
    for i, reply in enumerate(trace.replies):
        if not reply["accepted"]:
            raise Violation(
                f"step {i + 1} {short(scenario['steps'][i]['do'])} was rejected "
                f"({reply.get('reason')!r}), but it is a legal action on this board",
                expect={i: {"outcome": "accepted"}})
    return trace


def events(trace: Trace, step: int, kind: str, **fields: Any) -> list[dict[str, Any]]:
    return trace.find(step, type=kind, **fields)


def card_in_setup(scenario: Scenario, cid: str) -> tuple[str, dict[str, Any]]:
    for player in ("p1", "p2"):
        for zone in ("deck", "hand", "field", "graveyard"):
            for card in scenario["setup"].get(player, {}).get(zone, []):
                if card["id"] == cid:
                    return player, card
    raise KeyError(cid)


def resolve_effect(step: dict[str, Any]) -> list[dict[str, Any]]:
    return step["do"]["resolve"]["effect"]
