"""What a run produces: one `Result` per case and per property, as report.json holds it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal, cast

from conformance._types import Basis as Basis
from conformance._types import Examples, ResultDict
from conformance._types import Status as Status

#: Worst first: a rule's status is the worst status of its cases and properties.
STATUS_ORDER: tuple[str, ...] = ("error", "fail", "skip", "pass")

#: The most characters of engine-provided text (a result's message: a skip reason, an
#: error's text; its stderr) a result keeps: 147 skip reasons of ~990 KB each made a
#: 148 MB report.json. Longer text keeps its head and says how much was cut.
MAX_TEXT = 16_000


def bounded(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` if it is at most ``limit`` characters, else its head and a note saying
    how many characters were cut, ``limit`` characters in all (so cutting again, as a
    report read back is, changes nothing)."""
    if len(text) <= limit:
        return text
    keep = limit - 40   # room for the note (under 40 characters up to 10**12 cut)
    return f"{text[:keep]} … ({len(text) - keep:,} characters cut)"


@dataclasses.dataclass
class Mismatch:
    """One difference between what a case expected and what the engine did."""

    path: str          # e.g. "step 1: cards.t1.damage" or "step 2: events.include[0]"
    expected: object   # JSON
    observed: object


@dataclasses.dataclass
class Result:
    """The outcome of one case or one property against one engine."""

    id: str                      # case id or property id
    kind: Literal["case", "property"]
    ruleset: str
    rules: list[str]
    status: Status
    message: str = ""            # one line: why it failed / errored / was skipped
    step: int | None = None      # 1-based step where it stopped, for cases
    mismatches: list[Mismatch] = dataclasses.field(default_factory=list)
    stderr: str = ""             # what the engine wrote on stderr (bounded), for errors
    counterexample: str = ""     # for failed properties: the shrunk scenario as YAML case text
    duration: float = 0.0        # seconds
    rerun: str = ""              # a shell command that reruns just this item
    location: str = ""           # where the item is defined: "cases/vision/x.yaml:1"
    expected_failure: bool = False  # listed as a known failure (on a pass: an unexpected pass)
    basis: Basis = "seed"        # seed rules only | relies on a reading | context only | reference
    examples: Examples | None = None  # a property's scenarios: generated, supported, actions
    #: The vocabulary features it uses (a property: those of the scenarios it generated)
    #: and the minimum vocabulary version it needs (conformance/vocabulary.py).
    features: list[str] = dataclasses.field(default_factory=list)
    needs_vocabulary: int = 1
    #: For a skip: why, as the engine said (`Unsupported.kind`), or None.
    skip_kind: str | None = None
    #: Not run by this run: taken from the previous report by ``--last-failed``
    #: (`conformance._certify.carry_forward`).
    carried: bool = False

    def __post_init__(self) -> None:
        # engine-provided text, bounded here, where every result is built or read back
        self.message = bounded(self.message)
        self.stderr = bounded(self.stderr)

    def to_json(self) -> ResultDict:
        """The result as report.json holds it (`ResultDict`: the same fields)."""
        return cast(ResultDict, dataclasses.asdict(self))   # asdict is untyped

    @classmethod
    def from_json(cls, data: ResultDict) -> Result:
        """The result `to_json` wrote (report.json's, or what a pytest-xdist worker sends)."""
        fields: dict[str, Any] = {**data}
        return cls(**{**fields, "mismatches": [Mismatch(**m) for m in data["mismatches"]]})


def worst(statuses: Sequence[str]) -> str:
    """The worst of some statuses; ``uncovered`` when there are none."""
    for status in STATUS_ORDER:
        if status in statuses:
            return status
    return "uncovered"
