"""The toy reference-engine pack: the executable model of the toy rules, and two mutants.

Registered in ``card_conformance.reference_engines``, so ``--engine reference``
plays toy boards and ``--mutation`` runs its mutants, with no line of the
suite or of the bundled reference engine naming it.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine import Mutant

RULESET = "toy"

MUTANTS = [
    Mutant("toy-adds-one-more", RULESET, ["toy/R-1"],
           "every add adds one more than it says", {"extra": 1}),
    Mutant("toy-accepts-negatives", RULESET, ["toy/R-2"],
           "a negative add is accepted (and subtracts)", {"negatives": True}),
]


class Game:
    def __init__(self, setup: dict[str, Any], mutant: Mutant | None) -> None:
        patch = dict(mutant.patch) if mutant is not None else {}
        self.extra = patch.get("extra", 0)
        self.negatives = patch.get("negatives", False)
        self.count = setup["start"]

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if "add" not in action:
            raise Unsupported(f"the toy engine knows no action {sorted(action)}")
        if action["add"] < 0 and not self.negatives:
            return {"accepted": False, "events": [], "reason": "negative"}
        self.count += action["add"] + self.extra
        return {"accepted": True, "events": [{"type": "added", "amount": action["add"]}]}

    def observe(self) -> dict[str, Any]:
        return {"cards": {}, "players": {"p1": {"count": self.count}}}


def new_game(setup: dict[str, Any], mutant: Mutant | None) -> Game:
    return Game(setup, mutant)
