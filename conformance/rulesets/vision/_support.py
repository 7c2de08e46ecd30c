"""What every Vision property shares: a few trace readers."""

from __future__ import annotations

from typing import Any

from conformance._properties import Play, Scenario, Trace, record_traits, short
from conformance._properties import run_accepted as _run_accepted
from conformance.rulesets.vision.traits import traits

__all__ = ["card_in_setup", "events", "note_traits", "resolve_effect", "run_accepted", "short"]

# -- helpers --------------------------------------------------------------------------

def note_traits(scenario: Scenario) -> None:
    """Record the traits ``scenario`` uses as Hypothesis events (shown by
    ``--hypothesis-show-statistics``); a no-op outside a Hypothesis test."""
    record_traits(traits(scenario))


def run_accepted(play: Play, scenario: Scenario) -> Trace:
    """The pack API's `run_accepted`, recording which traits it reached."""
    note_traits(scenario)
    return _run_accepted(play, scenario)


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
    effect: list[dict[str, Any]] = step["do"]["resolve"]["effect"]
    return effect
