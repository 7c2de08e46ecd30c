"""Small-scope exhaustive mode for jammer chains (jammer •2, •5).

Sampling can miss the one ordering that matters, so this walks every chain
up to depth 4: each effect kind below, used by either player from the field
or the hand, followed by 1-4 alternating jammers each free or costing 1 MP.
Every chain is checked with the same seed arithmetic as the
``zatch/prop/jammer-chain-revives`` property.

    python -m conformance.rulesets.zatch.exhaustive --engine reference [--depth 4]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Iterator
from typing import Any

from conformance.ruleset import Play, Violation, invariant
from conformance.rulesets.zatch.properties import chain_exercised, check_chain
from conformance.rulesets.zatch.strategies import PLAYERS, chain_scenario

DAMAGE = [{"damage": {"player": "opponent", "amount": 2}}]

#: The effect kinds the chains start from (name -> EFFECT, and whether it may sit on the field).
EFFECTS: dict[str, tuple[dict[str, Any], bool]] = {
    "declared": ({"do": DAMAGE}, True),
    "mp-cost": ({"cost": {"mp": 1}, "do": [{"mp": {"player": "self", "amount": 2}}]}, True),
    "discard-self": ({"cost": {"discard_self": True}, "do": DAMAGE}, True),
    "event-card": ({"do": DAMAGE}, False),
    "stay": ({"stay": {"until": "end_of_turn"},
              "do": [{"cannot_use": {"player": "opponent", "what": "on_field"}}]}, False),
    "standby": ({"standby": {"when": "end_of_turn"}, "do": DAMAGE}, False),
    "usable-anyway": ({"usable_anyway": "cannot_use", "do": DAMAGE}, True),
}


def chains(max_depth: int = 4) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, scenario) for every chain up to ``max_depth`` jammers."""
    for name, (effect, fits_field) in EFFECTS.items():
        for user, on_field in itertools.product(PLAYERS, (True, False)):
            if (on_field and not fits_field) or (not on_field and name == "discard-self"):
                continue
            for depth in range(1, max_depth + 1):
                for costs in itertools.product((0, 1), repeat=depth):
                    label = f"{name}/{user}/{'field' if on_field else 'hand'}/{costs}"
                    yield label, chain_scenario(effect, user, on_field, list(costs))


@invariant("zatch/prop/jammer-chains-exhaustive", rules=["zatch/jammer.5", "zatch/jammer.2"],
           exhaustive=chains, exercises=chain_exercised)
def jammer_chains_exhaustive(play: Play, scenario: dict[str, Any]) -> None:
    """Every jammer chain up to depth 4 (600 chains) stands as jammer •2 and •5 say: the
    exhaustive mode as a certification item, its count in the report."""
    check_chain(play, scenario)


def run(play: Play, max_depth: int = 4) -> tuple[int, list[str]]:
    """Check every chain; returns (how many, the failures as 'label: message')."""
    count, failures = 0, []
    for label, scenario in chains(max_depth):
        count += 1
        try:
            check_chain(play, scenario)
        except Violation as exc:
            failures.append(f"{label}: {exc.message}")
    return count, failures


def main(argv: list[str] | None = None) -> int:
    from conformance._loading import load_engine

    parser = argparse.ArgumentParser(prog="python -m conformance.rulesets.zatch.exhaustive")
    parser.add_argument("--engine", default="reference")
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args(argv)
    engine = load_engine(args.engine)
    began = time.perf_counter()
    try:
        count, failures = run(Play(engine, "zatch"), args.depth)
    finally:
        engine.close()
    for line in failures[:20]:
        print("FAIL", line)
    print(f"{count} jammer chains (depth <= {args.depth}), {len(failures)} failed, "
          f"{time.perf_counter() - began:.2f}s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
