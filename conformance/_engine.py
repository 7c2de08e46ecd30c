"""The engine protocol: the five calls every engine answers, in-process or not (the
subprocess adapter speaks them over JSON Lines), the `Connection` the runner drives, and
the faults.  Everything an engine returns is plain JSON data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from conformance._errors import ConformanceError

if TYPE_CHECKING:
    from conformance._transcript import Transcript

#: The protocol version spoken in-process and over JSON Lines.
PROTOCOL_VERSION = 1


@runtime_checkable
class Engine(Protocol):
    """What an adapter author implements: ``hello`` once, then per case ``start`` and any
    number of ``act`` and ``observe`` calls, ``close`` at the end of the run.  One engine
    object plays one game at a time; ``start`` discards any previous game.
    """

    def hello(self) -> dict[str, Any]:
        """Return ``{"name", "version", "rulesets": [...], "capabilities": {...}}``, and
        optionally ``"vocabulary": {ruleset: version}`` (docs/protocol.md).

        An engine that lists mutants (``capabilities.mutants``) is also asked
        ``hello(mutant=NAME)``: from then on it behaves as that mutant and says so in
        ``capabilities.mutant``.
        """

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        """Set up a fresh game of ``ruleset`` from a canonical setup; raise `Unsupported`
        if the engine cannot build this board."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one canonical action: return ``{"accepted": True, "events": [...]}``, or
        ``{"accepted": False, "reason": "..."}`` when the rules forbid it.  Raise
        `Unsupported` for an action the engine does not model."""

    def observe(self) -> dict[str, Any]:
        """Return the canonical state: ``{"cards": {...}, "players": {...}}``."""

    def close(self) -> None:
        """Release resources.  Called once, also after errors."""


#: One step of a game played in one go: the action, and whether the state after it is
#: wanted.  What it gave: the act answer, and that state (None when not wanted).
Step = tuple[dict[str, Any], bool]
Outcome = tuple[dict[str, Any], "dict[str, Any] | None"]


class Connection:
    """An engine as the runner reaches it, in-process (`conformance._loading`) or a
    subprocess (`conformance._subprocess`): the runner only calls `hello`, `play` and
    `close`.  `play`, the one way a game is played, is `start`, then `act` (and, where a
    step wants it, `observe`) per step, which a connection may do in fewer round trips.

    A connection hands every protocol line it exchanges to ``transcript`` when the runner
    sets one (``--transcript``, and the transcripts of failing items).
    """

    transcript: Transcript | None = None
    #: The mutant asked for in every hello; None: the engine itself.
    mutant: str | None = None

    def hello(self) -> dict[str, Any]:
        raise NotImplementedError

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        raise NotImplementedError

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def observe(self) -> dict[str, Any]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def play(self, ruleset: str, setup: dict[str, Any], steps: Sequence[Step]) -> list[Outcome]:
        """A fresh game of ``ruleset`` and every step played on it, in order.

        The first `Unsupported` or `EngineFault` is raised carrying what was played
        before it (``played``) and the step it stopped at (``step``), so a caller can
        still judge the steps that were answered.
        """
        outcomes: list[Outcome] = []
        started = False
        try:
            self.start(ruleset, setup)
            started = True
            for action, wanted in steps:
                outcomes.append(self._step(action, wanted))
        except (Unsupported, EngineFault) as exc:
            exc.played, exc.step = outcomes, len(outcomes) + 1 if started else None
            raise
        return outcomes

    def _step(self, action: dict[str, Any], wanted: bool) -> Outcome:
        """One step of `play`: the act answer, and the state after it when ``wanted``."""
        reply = self.act(action)
        return reply, self.observe() if wanted else None


class _Stopped(ConformanceError):
    """What a `Connection.play` that stopped early says about where: the outcomes of the
    steps answered before the stop, and the step being played (1-based), None when the
    board was refused."""

    played: list[Outcome]
    step: int | None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.played, self.step = [], None


#: Why an engine skips (docs/protocol.md "Skipped, and why"): its rules lack it, no real
#: game can produce the situation, or its adapter does not translate it yet.
UNSUPPORTED_KINDS = ("engine-gap", "impossible", "not-mapped")


class Unsupported(_Stopped):
    """Raised by an engine for a setup or action it does not model: the case is *skipped*
    with this reason, never failed; ``kind`` (optional, one of `UNSUPPORTED_KINDS`) lets
    reports count skips by why."""

    def __init__(self, reason: str, kind: str | None = None) -> None:
        if kind is not None and kind not in UNSUPPORTED_KINDS:
            raise ValueError(f"Unsupported kind {kind!r}: one of {UNSUPPORTED_KINDS}")
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


class EngineFault(_Stopped):
    """The engine misbehaved: crashed, hung, broke the protocol or raised.  The case in
    progress is *errored* with ``message`` and the engine's (bounded) ``stderr``; the run
    goes on."""

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


def mutant_echo_problem(info: dict[str, Any], mutant: str | None) -> str | None:
    """What is wrong with a hello that does not echo the mutant it was asked for (None
    when nothing is): its results would be scored as the mutant's while it plays unbroken."""
    echoed = info.get("capabilities", {}).get("mutant")
    if mutant is None or echoed == mutant:
        return None
    return (f"was asked to behave as mutant {mutant!r} but its hello says "
            f"capabilities.mutant = {echoed!r}; echo the mutant it was asked for "
            "(docs/protocol.md, 'Mutants')")


def stray_mutant_problem(info: dict[str, Any], mutant: str | None) -> str | None:
    """What is wrong with a hello that says ``capabilities.mutant`` when no mutant was asked
    for (None when nothing is): it says it plays as a broken variant, whose results would
    be certified as the engine's."""
    echoed = info.get("capabilities", {}).get("mutant")
    if mutant is not None or echoed is None:
        return None
    return (f"the hello says capabilities.mutant = {echoed!r:.80} though no mutant was "
            "asked for: it claims to play as a broken variant, whose results are not the "
            "engine's; say capabilities.mutant only when the hello request names a mutant "
            "(docs/protocol.md, 'Mutants')")
