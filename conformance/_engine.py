"""The engine protocol: the five calls every engine answers, in-process or not.

An engine under test is any object with these methods.  The subprocess adapter
(`_subprocess.py`) implements the same protocol over JSON Lines, so the runner
never knows which kind it drives.  Everything an engine returns is plain JSON
data (dicts, lists, str, int, bool, None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from conformance._errors import ConformanceError

#: The protocol version spoken in-process and over JSON Lines.
PROTOCOL_VERSION = 1


@runtime_checkable
class Engine(Protocol):
    """What an adapter author implements.

    The runner calls ``hello`` once, then for every case ``start`` followed by
    any number of ``act`` and ``observe`` calls, and ``close`` at the end of the
    run.  One engine object plays one game at a time; ``start`` discards any
    previous game.
    """

    def hello(self) -> dict[str, Any]:
        """Return ``{"name", "version", "rulesets": [...], "capabilities": {...}}``, and
        optionally ``"vocabulary": {ruleset: version}`` (docs/protocol.md)."""

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        """Set up a fresh game of ``ruleset`` from a canonical setup.

        Raise `Unsupported` if the engine cannot build this board.
        """

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one canonical action.

        Return ``{"accepted": True, "events": [...]}`` or
        ``{"accepted": False, "reason": "..."}`` when the rules forbid it.
        Raise `Unsupported` for an action the engine does not model.
        """

    def observe(self) -> dict[str, Any]:
        """Return the canonical state: ``{"cards": {...}, "players": {...}}``."""

    def close(self) -> None:
        """Release resources.  Called once, also after errors."""


#: One step of a game played in one go: the action, and whether the state after it is
#: wanted.  What it gave: the act answer, and that state (None when not wanted).
Step = tuple[dict[str, Any], bool]
Outcome = tuple[dict[str, Any], "dict[str, Any] | None"]


def play(engine: Engine, ruleset: str, setup: dict[str, Any],
         steps: Sequence[Step]) -> list[Outcome]:
    """A fresh game of ``ruleset`` and every step played on it, in order.

    One round trip on an engine that ``batches`` (a subprocess whose hello
    offers the ``play`` capability, docs/protocol.md), otherwise ``start``,
    then ``act`` and, where wanted, ``observe`` per step.  Either way the
    first `Unsupported` or `EngineFault` is raised.
    """
    if getattr(engine, "batches", False):
        outcomes: list[Outcome] = engine.play(ruleset, setup, steps)  # type: ignore[attr-defined]
        return outcomes
    return play_stepwise(engine, ruleset, setup, steps)


def play_stepwise(engine: Engine, ruleset: str, setup: dict[str, Any],
                  steps: Sequence[Step]) -> list[Outcome]:
    """`play` one request at a time (what every engine answers)."""
    engine.start(ruleset, setup)
    # an engine that would bring the state along with every act (the subprocess
    # adapter) is told which steps do not want it
    blind = getattr(engine, "act_without_state", engine.act)
    outcomes: list[Outcome] = []
    for action, wanted in steps:
        reply = (engine.act if wanted else blind)(action)
        outcomes.append((reply, engine.observe() if wanted else None))
    return outcomes


class Unsupported(ConformanceError):
    """Raised by an engine for a setup or action it does not model.

    The case is recorded as *skipped* with this reason, never as failed.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EngineFault(ConformanceError):
    """The engine misbehaved: crashed, hung, broke the protocol or raised.

    The case in progress is recorded as *errored* with ``message`` and the
    engine's captured ``stderr`` (bounded); the run goes on.
    """

    def __init__(self, message: str, *, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr

    def describe(self) -> str:
        """The one line a result shows: what kind of fault, and its message."""
        return f"{type(self).__name__}: {self.message}"


class EngineCrashed(EngineFault):
    """The engine process exited or the in-process engine raised."""


class AdapterRaised(EngineCrashed):
    """An in-process adapter raised an exception of its own (a bug in it or its engine):
    shown as that exception, ``NameError: ...``, not as a crash of a process."""

    def describe(self) -> str:
        return f"{self.message} (raised by the in-process adapter)"


class EngineTimeout(EngineFault):
    """The engine did not answer within the per-reply timeout."""


class ProtocolViolation(EngineFault):
    """The engine answered something that is not a valid protocol reply."""


class EngineReportedError(EngineFault):
    """The engine caught an error itself and said so (an explicit error reply)."""
