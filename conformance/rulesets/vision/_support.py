"""What every Vision property shares: a few trace readers."""

from __future__ import annotations

from typing import Any

from conformance._properties import Scenario, Trace, run_accepted, short

__all__ = ["card_in_setup", "events", "resolve_effect", "run_accepted", "short"]

# -- helpers --------------------------------------------------------------------------

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
