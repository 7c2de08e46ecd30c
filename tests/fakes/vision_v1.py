"""An engine that speaks Vision vocabulary 1 only: today's reference engine behind a
strict gate (for the engine of commit 3a663b9 itself, see vision_3a663b9.py).

Its hello declares ``"vocabulary": {"vision": 1}``, and every setup and action
goes through `conformance.vocabulary.check` first, so a word of a later version
that reached it would be ``unsupported``: a run where nothing is unsupported
shows the harness never sent one.  ``create_latest`` is the same engine
declaring nothing (taken to speak the latest version); ``create_undeclared`` an
engine written against version 1 that forgot to declare it: it refuses every
action with a word of a later version, so those items fail.
"""

from __future__ import annotations

from typing import Any

from conformance import vocabulary
from reference_engine import create_engine


class VisionV1:
    def __init__(self, declare: bool = True) -> None:
        self.inner = create_engine()
        self.declare = declare

    def hello(self) -> dict[str, Any]:
        info = {**self.inner.hello(), "name": "vision-v1", "rulesets": ["vision"]}
        info.get("capabilities", {}).pop("mutants", None)
        if self.declare:
            info["vocabulary"] = {"vision": 1}
        return info

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if self.declare:
            vocabulary.check(ruleset, 1, setup, entry="setup")
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.declare:
            vocabulary.check("vision", 1, action, entry="action")
        return self.inner.act(action)

    def observe(self) -> dict[str, Any]:
        return self.inner.observe()

    def close(self) -> None:
        self.inner.close()


def create() -> VisionV1:
    return VisionV1()


def create_latest() -> VisionV1:
    return VisionV1(declare=False)


class UndeclaredV1(VisionV1):
    def __init__(self) -> None:
        super().__init__(declare=False)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        try:
            vocabulary.check("vision", 1, action, entry="action")
        except Exception as exc:   # a word it was never taught
            return {"accepted": False, "reason": f"unknown action: {exc}"}
        return self.inner.act(action)

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        try:   # a setup word it does not know: it plays an empty board
            vocabulary.check(ruleset, 1, setup, entry="setup")
        except Exception:
            setup = {}
        self.inner.start(ruleset, setup)


def create_undeclared() -> UndeclaredV1:
    return UndeclaredV1()
