"""A toy ruleset for testing the harness itself, independent of any real game.

Setup ``{start: N}``; action ``{add: K}`` (rejected when K < 0); observation
``{"cards": {}, "players": {"p1": {"count": N}}}``; each add emits
``{"type": "added", "amount": K}``.  Engines here are plugged in through
``--engine python:toy:<factory>`` exactly like third-party engines.

The same ruleset as an installed pack (properties, vocabulary, a reference
engine with mutants) is tests/toy_pack/, a distribution of its own that
tests/rulesets/test_entry_point_packs.py installs with this catalogue in it.
"""

from __future__ import annotations

from time import sleep
from typing import Any

from conformance import Unsupported

RULES_YAML = """\
ruleset: toy
seed: toy.txt
rules:
  - {id: toy/R-1, ref: "1", kind: rule, title: Adding adds, text: "足す", summary: add adds}
  - {id: toy/R-2, ref: "2", kind: rule, title: No negatives, text: "負", summary: no negatives}
  - {id: toy/R-3, ref: "3", kind: rule, title: Nobody covers this, text: "無", summary: uncovered}
"""

CASE_ADD = """\
id: toy/add/two-plus-three
title: two plus three is five
ruleset: toy
rules: [toy/R-1]
source: {seed: toy.txt, ref: "1", quote: "足す"}
setup: {start: 2}
steps:
  - do: {add: 3}
    expect:
      players: {p1: {count: 5}}
      events: {include: [{type: added, amount: 3}]}
"""

CASE_NEGATIVE = """\
id: toy/negative/rejected
title: a negative add is rejected
ruleset: toy
rules: [toy/R-2]
source: {seed: toy.txt, ref: "2", quote: "負"}
setup: {start: 2}
steps:
  - do: {add: -1}
    expect: {outcome: rejected, players: {p1: {count: 2}}}
"""


# a toy reading and the case relying on it: a failure that does not count
READING_RULES = RULES_YAML + """\
  - id: toy/reading/add-zero
    ref: reading
    kind: reading
    title: Adding zero is still an addition
    text: "足す"
    summary: An add of 0 is accepted and emits an added event.
    interprets: [toy/R-1]
    why: The seed says nothing about zero; accepting it is the simplest reading.
"""

CASE_ZERO = """\
id: toy/add/zero
title: adding zero is accepted
ruleset: toy
rules: [toy/R-1, toy/reading/add-zero]
source: {seed: toy.txt, ref: "1", quote: "足す"}
setup: {start: 2}
steps:
  - do: {add: 0}
    expect:
      events: {include: [{type: added, amount: 0}]}
"""


def write_catalogue(root, extra: dict[str, str] | None = None):
    """A valid toy catalogue under ``root`` (a pathlib.Path); returns root."""
    write_ruleset(root / "toy", extra)
    return root


def write_ruleset(folder, extra: dict[str, str] | None = None):
    """The toy ruleset's rules.yaml and cases in ``folder`` itself (a catalogue's
    ``toy/`` folder, or the ``cases/`` folder of the toy pack in tests/toy_pack/)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules.yaml").write_text(RULES_YAML, "utf-8")
    (folder / "add.yaml").write_text(CASE_ADD, "utf-8")
    (folder / "negative.yaml").write_text(CASE_NEGATIVE, "utf-8")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text, "utf-8")
    return folder


class ToyEngine:
    """Plays the toy rules correctly."""

    name = "toy"

    def __init__(self) -> None:
        self.count = 0

    def hello(self) -> dict[str, Any]:
        return {"name": self.name, "version": "1", "rulesets": ["toy"], "capabilities": {}}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if ruleset != "toy":
            raise Unsupported(f"no ruleset {ruleset}")
        self.count = setup["start"]

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if "add" not in action:
            raise Unsupported(f"unknown action {sorted(action)}")
        if action["add"] < 0:
            return {"accepted": False, "reason": "negative"}
        self.count += self.amount(action["add"])
        return {"accepted": True, "events": [{"type": "added", "amount": action["add"]}]}

    def amount(self, k: int) -> int:
        return k

    def observe(self) -> dict[str, Any]:
        return {"cards": {}, "players": {"p1": {"count": self.count}}}

    def close(self) -> None:
        pass


class WrongEngine(ToyEngine):
    """Breaks rule 1: adds one too many.  The message carries hostile text."""

    name = "<script>alert('wrong')</script>"

    def amount(self, k: int) -> int:
        return k + 1


class PokerEngine(ToyEngine):
    """Also claims a ruleset no pack has: the claim is named once, then ignored."""

    def hello(self) -> dict[str, Any]:
        return {**super().hello(), "rulesets": ["toy", "poker"]}


class RaisingEngine(ToyEngine):
    """Raises inside act: an engine bug must become an error result, not a harness crash."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        raise ZeroDivisionError("engine bug")


class ExitingEngine(ToyEngine):
    """Calls ``sys.exit(0)`` inside act: an in-process engine ending the suite's process
    green, unless its SystemExit is an error like any other exception."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        import sys

        sys.exit(0)


class ExitingHelloEngine(ToyEngine):
    """Calls ``sys.exit(0)`` in its handshake: an engine that never started."""

    def hello(self) -> dict[str, Any]:
        import sys

        sys.exit(0)


class GarbageEngine(ToyEngine):
    """Answers act with something that is not a reply."""

    def act(self, action: dict[str, Any]) -> Any:
        return ["not", "a", "reply"]


class SkippingEngine(ToyEngine):
    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        raise Unsupported("boards with a start value are not modelled")


class MutatingEngine(ToyEngine):
    """Scribbles on the setup it is given: must not leak into the catalogue."""

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        super().start(ruleset, setup)
        setup["start"] = 999


class SlowEngine(ToyEngine):
    """Takes its time on every action, so a test can interrupt a run mid-way (a test
    running it in-process may replace `sleep`, this module's, with a fake clock's)."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        sleep(1.0)
        return super().act(action)


class DyingEngine(ToyEngine):
    """Kills the process it runs in on the 2 + 3 case: a worker of ``--jobs`` dying."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("add") == 3:
            import os

            os._exit(3)
        return super().act(action)


class UpToEngine(ToyEngine):
    """Maps ``add`` only up to ``limit``: an engine on its way (`up_to_13`, `up_to_1`)."""

    limit = 0

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("add", 0) > self.limit:
            raise Unsupported(f"adding more than {self.limit} is not mapped yet")
        return super().act(action)


class UpTo13(UpToEngine):
    limit = 13


class UpTo1(UpToEngine):
    limit = 1


class FirstEightEngine(ToyEngine):
    """Builds the first eight boards it is given and no more: a property that ran on
    eight scenarios of many."""

    def __init__(self) -> None:
        super().__init__()
        self.boards = 0

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if self.boards >= 8:
            raise Unsupported("only eight boards are modelled")
        self.boards += 1
        super().start(ruleset, setup)


def counting_catalogue(root, n: int = 13):
    """A toy catalogue of ``n`` seed rules, rule R-k checked by one case adding k."""
    folder = root / "toy"
    folder.mkdir(parents=True, exist_ok=True)
    rules = "\n".join(f'  - {{id: toy/R-{k}, ref: "{k}", kind: rule, title: Add {k}, '
                      f'text: "足す", summary: add {k}}}' for k in range(1, n + 1))
    (folder / "rules.yaml").write_text(f"ruleset: toy\nseed: toy.txt\nrules:\n{rules}\n",
                                       "utf-8")
    for k in range(1, n + 1):
        (folder / f"add-{k}.yaml").write_text(
            f"id: toy/add/{k}\ntitle: adding {k}\nruleset: toy\nrules: [toy/R-{k}]\n"
            f'source: {{seed: toy.txt, ref: "{k}", quote: "足す"}}\nsetup: {{start: 0}}\n'
            f"steps:\n  - do: {{add: {k}}}\n    expect:\n      players: {{p1: {{count: {k}}}}}\n",
            "utf-8")
    return root


class UnstartableMutants(ToyEngine):
    """Plays the toy rules correctly and lists a mutant, but fails every hello that asks
    for one: a mutation run in which no mutant could start."""

    def hello(self, mutant: str | None = None) -> dict[str, Any]:
        if mutant is not None:
            raise RuntimeError(f"mutant {mutant} was never built")
        info = super().hello()
        info["capabilities"]["mutants"] = [{"name": "adds-one-more", "ruleset": "toy",
                                             "rules": ["toy/R-1"],
                                             "description": "adds one too many"}]
        return info


class SlowMutants(ToyEngine):
    """Lists ``count`` mutants, each adding one too many and slowly (0.5 s an action):
    a mutation phase longer than a short --run-timeout."""

    listed = 6

    def __init__(self) -> None:
        super().__init__()
        self.mutant: str | None = None

    def hello(self, mutant: str | None = None) -> dict[str, Any]:
        self.mutant = mutant
        info = super().hello()
        info["capabilities"]["mutants"] = [
            {"name": f"slow-{i}", "ruleset": "toy", "rules": ["toy/R-1"],
             "description": "adds one too many, slowly"} for i in range(self.listed)]
        if mutant is not None:
            info["capabilities"]["mutant"] = mutant
        return info

    def amount(self, k: int) -> int:
        if self.mutant is None:
            return k
        sleep(0.5)
        return k + 1


class TooManyMutants(SlowMutants):
    """Lists 1001 mutants: one more than a hello may (docs/protocol.md, 'Mutants')."""

    listed = 1001


class HugeSkipEngine(ToyEngine):
    """Skips every case with a reason of a million characters."""

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        raise Unsupported("not modelled " + "x" * 1_000_000)


class HugeErrorEngine(ToyEngine):
    """Raises with a message of a million characters, and writes as much on stderr."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        import sys

        sys.stderr.write("e" * 1_000_000)
        raise RuntimeError("broken " + "y" * 1_000_000)
