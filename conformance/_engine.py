"""The engine protocol: the five calls every engine answers, in-process or not.

An engine under test is any object with these methods.  The subprocess adapter
(`_subprocess.py`) implements the same protocol over JSON Lines, so the runner
never knows which kind it drives.  Everything an engine returns is plain JSON
data (dicts, lists, str, int, bool, None).
"""

from __future__ import annotations

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
        """Return ``{"name", "version", "rulesets": [...], "capabilities": {...}}``."""

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


class EngineCrashed(EngineFault):
    """The engine process exited or the in-process engine raised."""


class EngineTimeout(EngineFault):
    """The engine did not answer within the per-reply timeout."""


class ProtocolViolation(EngineFault):
    """The engine answered something that is not a valid protocol reply."""


class EngineReportedError(EngineFault):
    """The engine caught an error itself and said so (an explicit error reply)."""


def check_act_reply(reply: Any) -> dict[str, Any]:
    """Validate the shape of an ``act`` answer; raise `ProtocolViolation` if wrong.

    In-process engines return Python objects, so this is the one place both
    adapters share to reject garbage before the runner compares anything.
    """
    if not isinstance(reply, dict) or not isinstance(reply.get("accepted"), bool):
        raise ProtocolViolation(
            f"act() must return {{'accepted': bool, ...}}, got {reply!r:.200}; "
            "return {'accepted': True, 'events': [...]} or {'accepted': False, 'reason': '...'}"
        )
    events = reply.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ProtocolViolation(
            f"act() 'events' must be a list of objects, got {events!r:.200}"
        )
    return {"accepted": reply["accepted"], "events": events, "reason": reply.get("reason")}


def check_observation(state: Any) -> dict[str, Any]:
    """Validate the shape of an ``observe`` answer; raise `ProtocolViolation` if wrong."""
    if not isinstance(state, dict):
        raise ProtocolViolation(
            f"observe() must return an object like {{'cards': {{}}, 'players': {{}}}}, "
            f"got {state!r:.200}"
        )
    return state


def check_hello(info: Any) -> dict[str, Any]:
    """Validate the shape of a ``hello`` answer; raise `ProtocolViolation` if wrong."""
    if (
        not isinstance(info, dict)
        or not isinstance(info.get("name"), str)
        or not isinstance(info.get("rulesets"), list)
    ):
        raise ProtocolViolation(
            f"hello() must return {{'name': str, 'version': str, 'rulesets': [...]}}, "
            f"got {info!r:.200}"
        )
    return {
        "name": info["name"],
        "version": str(info.get("version", "")),
        "rulesets": [str(r) for r in info["rulesets"]],
        "capabilities": info.get("capabilities") or {},
    }
