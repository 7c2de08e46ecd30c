"""``conformance doctor --engine SPEC``: is the engine wired up right?  In seconds.

Bowtie's smoke test for card engines: hello, the claimed rulesets, one tiny game
per ruleset (its catalogue's first case: start, first action, observe) and a clean
stdout, as a checklist with a ``fix:`` line per problem; exit 0 when nothing is
wrong.  A skipped start or action is no problem: a new engine maps nothing yet.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance import _shown
from conformance._catalogue import load_catalogue
from conformance._discovery import ruleset_names
from conformance._engine import (
    PROTOCOL_VERSION,
    AdapterRaised,
    Engine,
    EngineFault,
    EngineTimeout,
    ProtocolViolation,
    Unsupported,
    stray_mutant_problem,
)
from conformance._errors import did_you_mean

OK, SKIP, BAD = "✓", "–", "✗"
WARN = "!"   # not a problem (the exit status ignores it), but likely to become one


@dataclasses.dataclass
class Check:
    mark: str          # OK, SKIP (fine, but worth knowing), WARN or BAD
    what: str
    fix: str = ""
    detail: str = ""   # the engine's own words (stderr tail, traceback), a few lines


@dataclasses.dataclass
class Doctor:
    """The checks run so far, and what they learnt of the engine."""

    spec: str
    checks: list[Check] = dataclasses.field(default_factory=list)
    stdout_dirty: bool = False   # a reply that was not a protocol line

    def add(self, mark: str, what: str, fix: str = "", detail: str = "") -> None:
        self.checks.append(Check(mark, what, fix, detail))

    @property
    def problems(self) -> int:
        return sum(c.mark == BAD for c in self.checks)

    def call(self, what: str, fn: Callable[[], Any]) -> tuple[bool, Any]:
        """``fn()``, a fault recorded as a problem with its fix.  Returns (True, answer)
        when it answered, (False, reason) when it skipped, (False, None) on a fault."""
        began = time.perf_counter()
        try:
            answer = fn()
        except Unsupported as exc:
            self.add(SKIP, f"{what}: skipped ({exc.reason})",
                     detail="fine for a new engine: map it next")
            return False, exc.reason
        except EngineFault as exc:
            self.add(BAD, *self._diagnosis(what, exc))
            return False, None
        self.add(OK, f"{what} ({time.perf_counter() - began:.2f} s)")
        return True, answer

    def _diagnosis(self, what: str, exc: EngineFault) -> tuple[str, str, str]:
        """The checklist line, the fix line and the engine's own words for a fault."""
        # what the runner adds about restarting the engine is no help here
        message = exc.message.split(". The process was killed", 1)[0]
        stderr = "\n".join((exc.stderr or "").strip().splitlines()[-6:])
        if "not JSON" in message or "not UTF-8" in message:
            self.stdout_dirty = True
            return (f"stdout carries a line that is not a protocol reply ({what})",
                    f"{message} (banners and prompts too: console.error in Node, "
                    "print(..., file=sys.stderr) in Python)", stderr)
        if "speaks protocol" in message:
            return (f"the engine speaks another protocol version ({what})",
                    f"{message}: the hello request says \"protocol\": {PROTOCOL_VERSION}; "
                    f"answer with \"protocol\": {PROTOCOL_VERSION} (docs/protocol.md)", stderr)
        fix = message
        if isinstance(exc, EngineTimeout):
            fix += "; answer every request with one line and flush stdout after it"
        elif isinstance(exc, AdapterRaised):
            fix += ": the adapter raised; see the traceback"
        elif isinstance(exc, ProtocolViolation):
            fix += " (docs/protocol.md has every request and reply)"
        return f"{what}: {type(exc).__name__}", fix, stderr


def diagnose(spec: str, *, timeout: float = 10.0, cases_root: Path | None = None) -> Doctor:
    """Run every check against the engine ``spec``; the engine is always closed."""
    from conformance._loading import load_engine

    doctor = Doctor(spec)
    engine = load_engine(spec, timeout=timeout, startup_timeout=timeout)  # cmd: reads both
    try:
        started, hello = doctor.call("starts and answers hello", engine.hello)
        if not started:
            doctor.add(SKIP, "the other checks need a hello", "fix the hello first")
            return doctor
        _check_hello(doctor, hello, engine.mutant)
        for ruleset in _known_claims(doctor, hello):
            _round_trip(doctor, engine, ruleset, cases_root)
        if spec.startswith("cmd:") and not doctor.stdout_dirty:
            doctor.add(OK, "stdout carries only protocol replies")
    finally:
        engine.close()
    return doctor


def _check_hello(doctor: Doctor, hello: dict[str, Any], mutant: str | None = None) -> None:
    doctor.add(OK, f"hello matches the protocol (reply-hello.json, protocol "
                   f"{PROTOCOL_VERSION}): {hello['name']} {hello['version']}")
    stray = stray_mutant_problem(hello, mutant)
    if stray is not None:
        what, _, fix = stray.partition(": ")
        doctor.add(BAD, what, fix)
    vocabulary = hello.get("vocabulary")
    if vocabulary is not None:   # optional (issue 26): shown, not judged here
        doctor.add(OK, f"declared vocabulary: {json.dumps(vocabulary, ensure_ascii=False)}")
        return
    # optional, but without it the engine is taken to speak the latest version: items
    # using words added since the engine was written fail instead of being skipped
    from conformance import _vocabulary_gate
    from conformance.vocabulary import history

    installed = ruleset_names()
    claimed = [r for r in hello.get("rulesets", ()) if r in installed]
    latest = {r: history(r).latest for r in claimed}
    named = ", ".join(_vocabulary_gate.version_name(r, v) for r, v in latest.items())
    doctor.add(WARN, "the hello declares no vocabulary version: taken to speak the latest ("
               + (named or "none")
               + ")",
               f"{_vocabulary_gate.DECLARE_IT}: \"vocabulary\": "
               + json.dumps({r: v for r, v in latest.items()}) + " (the versions it was "
               "written against; docs/protocol.md)")


def _known_claims(doctor: Doctor, hello: dict[str, Any]) -> list[str]:
    """The claimed rulesets that are installed; a problem for each that is not."""
    installed = ruleset_names()
    claimed = list(hello["rulesets"])
    if not claimed:
        doctor.add(BAD, "claims no ruleset", f"list the rulesets you model in the hello's "
                   f"\"rulesets\" (installed: {', '.join(installed)})")
        return []
    known = [r for r in claimed if r in installed]
    for name in claimed:
        if name not in installed:
            guess = did_you_mean(name, installed)
            doctor.add(BAD, f"claims ruleset {name!r}, which is not installed",
                       f"claim one of {', '.join(installed)}{'; ' + guess if guess else ''}")
    if known:
        doctor.add(OK, f"claims {', '.join(known)} (installed)")
    return known


def _round_trip(doctor: Doctor, engine: Engine, ruleset: str, cases_root: Path | None) -> None:
    """start, the first action and observe, on the first case of ``ruleset``."""
    cases = load_catalogue(cases_root, [ruleset]).cases
    case = next((c for c in cases if c.ruleset == ruleset), None)
    if case is None:
        doctor.add(SKIP, f"{ruleset}: the catalogue has no case to play")
        return
    action = next((s["do"] for s in case.steps if "do" in s), None)
    started, _ = doctor.call(f"{ruleset}: start (setup of {case.id})",
                             lambda: engine.start(ruleset, case.setup))
    if not started:
        return
    if action is not None:
        shown = json.dumps(action, ensure_ascii=False)
        acted, why = doctor.call(f"{ruleset}: act {shown[:50]}{'…' if len(shown) > 50 else ''}",
                                 lambda: engine.act(action))
        if not acted and why is None:
            return   # after a fault, observe only repeats it
    doctor.call(f"{ruleset}: observe", engine.observe)


def report(doctor: Doctor) -> str:
    """The checklist as printed."""
    lines = [f"conformance doctor: {doctor.spec}"]
    for check in doctor.checks:   # the engine's words are in all three: shown safely
        lines.append(f"  {check.mark} {_shown.shown(check.what, 2000)}")
        if check.fix:
            lines.append(f"      fix: {_shown.shown(check.fix, 2000)}")
        lines += [f"      | {line}" for line in _shown.shown_lines(check.detail, 60, 200)]
    problems = doctor.problems
    lines.append(f"{problems} problem(s): fix them, then run doctor again" if problems else
                 f"no problems: certify it (conformance certify --engine "
                 f"{shlex.quote(doctor.spec)} --out out/)")
    return "\n".join(lines) + "\n"
