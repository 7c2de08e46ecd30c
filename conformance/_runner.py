"""The one runner: cases and properties against one engine, as a stream of results.

Whatever the engine does, the runner records a `Result` and goes on; only a
KeyboardInterrupt leaves `Runner.results`.  An engine that fails its handshake
gets every item as an *error*: one that never ran must not look like one that
skipped everything.  A stop request (`request_stop`, from the CLI's SIGINT/SIGTERM
handler) is checked between items, so an interrupt that an engine swallowed (a
subprocess killed by the same Ctrl-C looks like a crash) still stops the run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import functools
import math
import os
import shlex
import threading
import time
import traceback
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import hypothesis
import yaml
from hypothesis import HealthCheck, Phase
from hypothesis.errors import Unsatisfiable

from conformance import _vocabulary_gate
from conformance._catalogue import Case, Catalogue, Rule
from conformance._discovery import properties_for
from conformance._engine import Connection, EngineFault, Unsupported
from conformance._matching import match_step, needs_state
from conformance._properties import NothingSupported, Play, Property, Violation, exercised
from conformance._results import Mismatch, Result
from conformance._settings import Profile
from conformance._transcript import Transcript, TranscriptSink
from conformance._types import Filters
from conformance._verdict import basis

#: stderr kept per result; the tail is what explains a crash.
STDERR_KEEP = 8_000
#: The expectation a counterexample gets when the property could not derive
#: one: the case schema rejects this key, so `conformance validate` fails until
#: a person writes the expectation the seed demands.
PLACEHOLDER_KEY = "write_from_seed"
PLACEHOLDER = {PLACEHOLDER_KEY: "replace this with what the seed says must happen at this "
                                "step (never with what an engine did)"}

_STOP = threading.Event()


def request_stop() -> None:
    """Ask every running `Runner` to stop at the next item or property example."""
    _STOP.set()


def clear_stop() -> None:
    _STOP.clear()


def check_stop() -> None:
    """Raise KeyboardInterrupt when a stop was requested (even if an engine swallowed it)."""
    if _STOP.is_set():
        raise KeyboardInterrupt


@dataclasses.dataclass
class Selection:
    """Which cases and properties to run.  Patterns are fnmatch globs."""

    rulesets: list[str] | None = None
    select: list[str] = dataclasses.field(default_factory=list)   # ids
    rules: list[str] = dataclasses.field(default_factory=list)    # rule ids
    properties: bool = True
    cases: bool = True
    shard: tuple[int, int] | None = None   # (i, n): only the i-th of n shards, 1-based

    def wants(self, item_id: str, ruleset: str, rules: tuple[str, ...]) -> bool:
        if self.rulesets and ruleset not in self.rulesets:
            return False
        if self.shard is not None and shard_of(item_id, self.shard[1]) != self.shard[0]:
            return False
        if self.select and not any(fnmatch.fnmatchcase(item_id, p) for p in self.select):
            return False
        return not self.rules or any(
            fnmatch.fnmatchcase(r, p) for r in rules for p in self.rules)

    def to_json(self) -> Filters:
        """What the report records; ``rulesets`` only when ``--ruleset`` was given."""
        return {"select": list(self.select), "rules": list(self.rules),
                "rulesets": list(self.rulesets or []), "cases": self.cases,
                "properties": self.properties}


def shard_of(item_id: str, shards: int) -> int:
    """The shard (1..shards) an item belongs to: a hash of its id, so the split is the
    same on every machine and run, the shards' union is the whole run, and adding an
    item to the catalogue moves no other item to another shard."""
    return zlib.crc32(item_id.encode("utf-8")) % shards + 1


def rerun_command(engine_spec: str, item_id: str, cases_root: Path | None, cwd: str,
                  seed: int, profile: str | None = None) -> str:
    """A copy-paste shell command that reruns exactly one case or property from ``cwd``,
    with the run's ``--profile`` (its timeouts and example counts; the default one
    depends on CI being set); a property's carries the run's ``--seed`` too, so it
    generates the same examples."""
    head, tail = _rerun_around(engine_spec, cases_root, cwd)
    return (f"{head} {shlex.quote(item_id)}{tail}"
            + (f" --profile {shlex.quote(profile)}" if profile else "")
            + (f" --seed {seed}" if seed else ""))


# Resolving paths walks the file system: do it once per folder, not once per
# result (three resolve() calls per result were a quarter of a case's cost).
@functools.cache
def _rerun_around(engine_spec: str, cases_root: Path | None, cwd: str) -> tuple[str, str]:
    """What a rerun command holds before and after the item id (the same for every item):
    ``--cases`` exactly when the run had it (the installed catalogue otherwise)."""
    head = shlex.join(["conformance", "run", "--engine", engine_spec, "--select"])
    if cases_root is None:
        return head, ""
    return head, " " + shlex.join(["--cases", str(cases_root)])


@functools.cache
def _shown_path(path: str, cwd: str) -> str:
    with contextlib.suppress(ValueError):
        return str(Path(path).resolve().relative_to(cwd))
    return path


#: Items in a row ending in a timeout after which the engine is taken to be hung.
HUNG_AFTER = 3


#: The engine fields of a report whose engine never said hello (its handshake failed,
#: or the run was interrupted during it).
NO_HELLO: dict[str, Any] = {"name": "", "version": "", "rulesets": [], "capabilities": {}}


class Runner:
    def __init__(self, catalogue: Catalogue, engine: Connection, engine_spec: str,
                 profile: Profile, selection: Selection | None = None,
                 reference: Callable[[], Connection] | None = None,
                 properties: list[Property] | None = None,
                 transcripts: TranscriptSink | None = None) -> None:
        self.catalogue = catalogue
        self._properties = properties
        self.engine = engine
        self.engine_spec = engine_spec
        self.profile = profile
        self.selection = selection or Selection()
        self.reference = reference
        self.engine_info: dict[str, Any] = {}
        self.problems: list[dict[str, str]] = []
        self.handshake_error = ""
        # where the run started: paths and rerun commands are shown relative to it
        # (asking the OS once per result was a measurable part of a case's cost)
        self._cwd = os.getcwd()
        self._timeouts = 0   # items in a row that ended in a timeout
        # each item's protocol exchange, kept from the hello on (conformance/_transcript.py)
        self.transcripts = transcripts
        if transcripts is not None:
            engine.transcript = Transcript()

    def on(self, engine: Connection) -> Runner:
        """The same run on another engine (each ``--jobs`` worker starts its own)."""
        return Runner(self.catalogue, engine, self.engine_spec, self.profile, self.selection,
                      reference=self.reference, properties=self._properties,
                      transcripts=self.transcripts)

    # -- what will run -------------------------------------------------------------
    def claims(self, ruleset: str) -> bool:
        """Whether the engine's hello claims ``ruleset``; before a hello, or when it
        failed, every ruleset (nothing is known, and every item is an error)."""
        if not self.engine_info or self.handshake_error:
            return True
        return ruleset in self.engine_info.get("rulesets", [])

    def _selected(self) -> list[Case | Property]:
        cases = [c for c in self.catalogue.cases
                 if self.selection.cases and self.selection.wants(c.id, c.ruleset, c.rules)]
        if not self.selection.properties:
            return [*cases]
        found = self._properties
        if found is None:
            found = [p for rs in self.catalogue.rulesets for p in properties_for(rs)]
        return [*cases, *(p for p in found if self.selection.wants(p.id, p.ruleset, p.rules))]

    def deselected(self) -> dict[str, int]:
        """The selected items of rulesets the engine does not claim, counted per ruleset:
        they are not run, and counted apart (pytest's "deselected"), never as skips."""
        out: dict[str, int] = {}
        for item in self._selected():
            if not self.claims(item.ruleset):
                out[item.ruleset] = out.get(item.ruleset, 0) + 1
        return out

    def cases(self) -> list[Case]:
        return [c for c in self._selected() if isinstance(c, Case) and self.claims(c.ruleset)]

    def properties(self) -> list[Property]:
        return [p for p in self._selected()
                if isinstance(p, Property) and self.claims(p.ruleset)]

    def items(self) -> list[Case | Property]:
        """What `results` runs, in report order: the cases, then the properties."""
        return [*self.cases(), *self.properties()]

    # -- running -----------------------------------------------------------------
    def handshake(self) -> dict[str, Any]:
        """Ask the engine who it is; a failing handshake is recorded, not raised."""
        try:
            self.engine_info = self.engine.hello()
        except (EngineFault, Unsupported) as exc:
            message = exc.message if isinstance(exc, EngineFault) else exc.reason
            self.handshake_error = f"{type(exc).__name__}: {message}"
            self.problems.append({"kind": "handshake", "message":
                                  f"the engine could not start: {self.handshake_error}"})
            self.engine_info = dict(NO_HELLO)
        return self.engine_info

    def results(self, skip: Callable[[Case | Property], bool] | None = None,
                deadline: float | None = None) -> Iterator[Result]:
        """Every item's result, in order, within the profile's run timeout (or by
        ``deadline``, monotonic, when the run's clock started earlier); ``skip``
        leaves out the items it is true for (asked just before each would run)."""
        if not self.engine_info:
            self.handshake()
        if deadline is None:
            deadline = time.monotonic() + self.profile.run_timeout
        for item in self.items():
            check_stop()
            if skip is None or not skip(item):
                yield self.run_item(item, deadline)
        check_stop()  # an interrupt the engine turned into a crash is still an interrupt

    def run_item(self, item: Case | Property, deadline: float = math.inf) -> Result:
        """One case or property, unless the run's time (``deadline``, monotonic) is up
        or the engine is hung (`HUNG_AFTER` timeouts in a row: waiting out the rest
        one timeout each would take the whole run)."""
        if time.monotonic() > deadline:
            return self.not_run(item, f"not run: the run timeout "
                                       f"({self.profile.run_timeout:.0f} s) was reached")
        if self._timeouts >= HUNG_AFTER:
            return self.not_run(item, f"not run: the engine is hung ({HUNG_AFTER} items in a "
                                       "row ended in EngineTimeout); fix the hang, or raise "
                                       "--timeout")
        log = self.engine.transcript if self.transcripts is not None else None
        if log is not None:
            log.begin()
        try:
            result = self.run_case(item) if isinstance(item, Case) else self.run_property(item)
        except Exception as exc:   # a bug of the harness or a pack: this item's, not the run's
            result = self._crashed(item, exc)
        if log is not None and self.transcripts is not None:
            self.transcripts.keep(result, log.end())
        timed_out = result.status == "error" and result.message.startswith("EngineTimeout")
        self._timeouts = self._timeouts + 1 if timed_out else 0
        return result

    def _result(self, item: Case | Property, **fields: Any) -> Result:
        kind: Literal["case", "property"] = "case" if isinstance(item, Case) else "property"
        fields.setdefault("location", _location(item, self._cwd))
        used, wanted = _vocabulary_gate.describe(item)   # a property's run passes its own
        fields.setdefault("features", used)
        fields.setdefault("needs_vocabulary", wanted.version)
        return Result(id=item.id, kind=kind, ruleset=item.ruleset, rules=list(item.rules),
                      rerun=rerun_command(self.engine_spec, item.id, self.catalogue.root,
                                          self._cwd, 0 if kind == "case" else self.profile.seed,
                                          self.profile.name),
                      basis=basis(item.rules, self.catalogue.rules, item.compares_reference),
                      **fields)

    def _crashed(self, item: Case | Property, exc: Exception) -> Result:
        """The *error* of an item whose running raised what no engine fault is (a bug of
        the suite or of a pack's property code), with the traceback as its stderr."""
        message = f"the suite could not run this item: {type(exc).__name__}: {exc}"
        stderr = traceback.format_exc()[-STDERR_KEEP:]
        try:
            return self._result(item, status="error", message=message, stderr=stderr)
        except Exception:   # describing the item is what failed: the bare result
            return Result(id=item.id, kind="case" if isinstance(item, Case) else "property",
                          ruleset=item.ruleset, rules=list(item.rules), status="error",
                          message=message, stderr=stderr)

    def not_run(self, item: Case | Property, message: str) -> Result:
        return self._result(item, status="error", message=message)

    def _refused(self, item: Case | Property) -> Result | None:
        """The result of an item that cannot be played: the handshake failed, the
        engine does not claim its ruleset, or it needs newer vocabulary; else None."""
        if self.handshake_error:
            return self.not_run(item, f"not run: the engine could not start: "
                                       f"{self.handshake_error}")
        if item.ruleset not in self.engine_info.get("rulesets", []):
            return self._result(item, status="skip",
                                message=f"engine does not claim ruleset {item.ruleset!r}")
        why, kind = _vocabulary_gate.gate(item, self.engine_info)   # newer words, harness actions
        if why:
            return self._result(item, status="skip", message=why, skip_kind=kind)
        return None

    def run_case(self, case: Case) -> Result:
        if (refused := self._refused(case)) is not None:
            return refused
        began = time.perf_counter()
        # the state is asked for only after the steps that assert something about it
        steps = [(step["do"], needs_state(step.get("expect", {}))) for step in case.steps]
        stopped: Unsupported | EngineFault | None = None
        try:
            outcomes = self.engine.play(case.ruleset, case.setup, steps)
        except (Unsupported, EngineFault) as exc:
            # the steps answered before the stop are judged first: a wrong answer
            # there is a failure whatever came after it
            outcomes, stopped = exc.played, exc
        # every step is judged: the result names the first that failed and lists the
        # mismatches of all of them (each path says its step)
        mismatches: list[Mismatch] = []
        first_failed: int | None = None
        for step_no, (step, (reply, state)) in enumerate(zip(case.steps, outcomes, strict=False),
                                                       start=1):
            found = match_step(step.get("expect", {}), reply, state, f"step {step_no}")
            if found and first_failed is None:
                first_failed = step_no
            mismatches += found
        took = time.perf_counter() - began
        if first_failed is not None:
            return self._result(case, status="fail", step=first_failed, mismatches=mismatches,
                                message=_first_line(mismatches), duration=took,
                                location=_location(case, self._cwd, first_failed))
        if stopped is not None:
            return self._result(case, **_stopped(stopped), step=stopped.step, duration=took)
        return self._result(case, status="pass", duration=took)

    def run_property(self, prop: Property) -> Result:
        if (refused := self._refused(prop)) is not None:
            return refused
        began = time.perf_counter()
        play = Play(self.engine, prop.ruleset, self.reference)
        # only scenarios in the vocabulary version the engine speaks
        spoken = _vocabulary_gate.speaks(self.engine_info, prop.ruleset)
        within = _vocabulary_gate.Within(prop, spoken,
                                         _vocabulary_gate.takes_synthetic(self.engine_info))
        try:
            run = self._run_sampled if prop.exhaustive is None else self._run_exhaustive
            fields = run(prop, play, within)
            return self._result(prop, duration=time.perf_counter() - began, **fields)
        finally:
            play.close()

    def _run_sampled(self, prop: Property, play: Play,
                     within: _vocabulary_gate.Within) -> dict[str, Any]:
        """Hypothesis' sample of scenarios, seeded per property, shrunk on a violation."""
        failing: list[tuple[dict[str, Any], Violation]] = []
        faults: list[EngineFault] = []
        unsupported: list[Unsupported] = []   # the first one's reason and kind are reported
        tally = {"generated": 0, "supported": 0}
        reached = dict.fromkeys(prop.rules, 0)   # supported examples per rule exercised

        # each property's own seed, from the run's and its id: editing one property's
        # code changes no other property's examples
        @hypothesis.seed(zlib.crc32(f"{self.profile.seed}:{prop.id}".encode()))
        @hypothesis.settings(
            max_examples=self.profile.max_examples, derandomize=False, database=None,
            deadline=None, print_blob=False, suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
            phases=[Phase.explicit, Phase.generate, Phase.shrink])
        @hypothesis.given(within.scenarios)
        def check(scenario: dict[str, Any]) -> None:
            if faults:
                return  # the engine broke: do not hammer it while Hypothesis shrinks
            tally["generated"] += 1
            play.begin_example()
            try:
                prop.check(play, scenario)
            except Violation as exc:
                failing.append((scenario, exc))
                raise
            except Unsupported as exc:
                unsupported.append(exc)
                hypothesis.reject()
            except EngineFault as exc:
                faults.append(exc)
                raise
            tally["supported"] += 1
            for rule in exercised(prop, scenario, play.traces):
                reached[rule] += 1

        def done(**fields: Any) -> dict[str, Any]:
            return {"examples": {**tally, "actions": play.actions, "exercised": reached,
                                 "min_exercised": self.profile.min_exercised},
                    **within.fields(), **fields}

        try:
            check()
        except NothingSupported as exc:   # the skip Hypothesis giving up would give, sooner
            return done(**_stopped(exc.first))
        except Violation:
            scenario, violation = failing[-1]
            return done(**self._violated(prop, play, scenario, violation, violation.message))
        except Unsatisfiable:
            if within.refused and not unsupported:   # every scenario needed other words
                harness = within.refused == _vocabulary_gate.NEEDS_HARNESS
                return done(status="skip", message=within.refused,
                            skip_kind=_vocabulary_gate.SYNTHETIC if harness else None)
            if not unsupported:
                return done(status="skip", message="unsupported: no scenario could be generated")
            return done(**_stopped(unsupported[0]))
        except Exception as exc:  # EngineFault, or Hypothesis' Flaky after one
            if faults:
                return done(**_stopped(faults[0]))
            if failing:   # the engine broke the rule once, then not on the re-run (Flaky)
                scenario, violation = failing[-1]
                return done(**self._violated(
                    prop, play, scenario, violation,
                    f"{violation.message} (the engine did not repeat this on the same "
                    f"scenario: it is not deterministic; {type(exc).__name__})"))
            return done(status="error",
                        message=f"property could not run: {type(exc).__name__}: {exc}")
        supported, generated = tally["supported"], tally["generated"]
        if supported < min(self.profile.min_supported, generated) or (
                unsupported and supported < self.profile.min_supported):
            # Hypothesis's filter_too_much, for engines: a pass on a handful of
            # scenarios says little (a small space, all of it supported, is fine)
            why = f": {unsupported[0].reason}" if unsupported else ""
            return done(status="skip", skip_kind=unsupported[0].kind if unsupported else None,
                        message=f"too few supported scenarios ({supported} of {generated}; "
                                f"the {self.profile.name} profile needs "
                                f"{self.profile.min_supported}){why}")
        if unsupported:
            return done(status="pass", message=f"{supported} of {generated} scenarios "
                                               f"supported; unsupported: {unsupported[0].reason}")
        return done(status="pass")

    def _run_exhaustive(self, prop: Property, play: Play,
                        within: _vocabulary_gate.Within) -> dict[str, Any]:
        """Every scenario of a small scope (in the engine's vocabulary version), in order;
        the first violation is the result."""
        count = 0
        reached = dict.fromkeys(prop.rules, 0)
        try:
            for count, (label, scenario) in enumerate(within.exhaustive(), start=1):
                play.begin_example()
                try:
                    prop.check(play, scenario)
                    for rule in exercised(prop, scenario, play.traces):
                        reached[rule] += 1
                except Violation as violation:
                    message = (f"{label}: {violation.message} (scenario {count} of the "
                               "exhaustive walk)")
                    return {**self._violated(prop, play, scenario, violation, message),
                            **within.fields()}
        except (Unsupported, EngineFault) as exc:
            return _stopped(exc)
        return {"status": "pass", "message": f"exhaustive: all {count} scenarios checked",
                # a walk checks every scenario of its scope: one that exercises a rule
                # is enough
                "examples": {"generated": count, "supported": count, "actions": play.actions,
                             "exercised": reached, "min_exercised": 1},
                **within.fields()}

    def _violated(self, prop: Property, play: Play, scenario: dict[str, Any],
                  violation: Violation, message: str) -> dict[str, Any]:
        """A failed property's fields: the violation and its counterexample case.

        With transcripts on, the counterexample is played once more, alone, so its
        transcript is that one scenario rather than every example tried.
        The violation is the result whatever happens after it: the re-play or the
        counterexample raising (a bug of the pack's code, an engine that breaks
        differently the second time) only adds a line to the message.
        """
        log = self.engine.transcript if self.transcripts is not None else None
        if log is not None:
            log.restart()
            actions = play.actions   # the report counts the examples' actions, not this
            try:
                prop.check(play, scenario)
            except (Violation, Unsupported, EngineFault):
                pass
            except Exception as exc:  # NothingSupported is a BaseException: not caught
                message += (f" [its transcript is incomplete: re-playing the scenario raised "
                            f"{type(exc).__name__}: {exc}]")
            play.actions = actions
        fields: dict[str, Any] = {"status": "fail", "message": message,
                                  "mismatches": violation.mismatches}
        try:
            rule = self.catalogue.rules.get(prop.rules[0]) if prop.rules else None
            fields["counterexample"] = counterexample_yaml(prop, scenario, violation, rule)
        except Exception as exc:
            fields["message"] += (f" [no counterexample case: building it raised "
                                  f"{type(exc).__name__}: {exc}]")
        return fields


def _location(item: Case | Property, cwd: str, step: int | None = None) -> str:
    """Where to read the item: the case file and line (of ``step`` when given and
    known), or the property's module."""
    if isinstance(item, Case):
        lines = item.step_lines
        line = lines[step - 1] if step and step <= len(lines) and lines[step - 1] else item.line
        return f"{_shown_path(item.path, cwd)}:{line}"
    return f"{item.check.__module__}.{item.check.__qualname__}"


def _stopped(exc: Unsupported | EngineFault) -> dict[str, Any]:
    """The result fields of an item the engine stopped: a skip when unsupported, else
    an error."""
    if isinstance(exc, Unsupported):
        return {"status": "skip", "message": f"unsupported: {exc.reason}", "skip_kind": exc.kind}
    return {"status": "error", "message": exc.describe(), "stderr": exc.stderr[-STDERR_KEEP:]}


def _first_line(mismatches: list[Mismatch]) -> str:
    m = mismatches[0]
    more = f" (+{len(mismatches) - 1} more)" if len(mismatches) > 1 else ""
    return f"{m.path}: expected {m.expected!r:.120}, observed {m.observed!r:.120}{more}"


def counterexample_yaml(prop: Property, scenario: dict[str, Any], violation: Violation,
                        rule: Rule | None = None) -> str:
    """The shrunk scenario as a catalogue case, ready to review and add.

    Its source quotes the first rule the property checks, for a reviewer to keep
    or replace.  Without a derived expectation (a reference comparison has none:
    the reference engine's answer is not the seed's), the last step gets
    `PLACEHOLDER`, which fails validation until a person writes it.
    """
    derived = {} if prop.compares_reference else violation.expect
    steps = [{"do": step["do"], **({"expect": derived[i]} if i in derived else {})}
             for i, step in enumerate(scenario["steps"])]
    if not derived and steps:
        steps[-1]["expect"] = dict(PLACEHOLDER)
    slug = prop.id.split("/", 1)[1].replace("/", "-")
    case = {
        "id": f"{prop.ruleset}/counterexample/{slug}",
        "title": f"Counterexample to {prop.title}",
        "ruleset": prop.ruleset,
        "rules": list(prop.rules),
        "source": ({"seed": rule.seed, "ref": rule.ref, "quote": rule.text} if rule else
                   {"seed": "(see the rule index)", "ref": ", ".join(prop.rules),
                    "quote": f"(generated by property {prop.id}; quote the rule here)"}),
        "notes": f"Shrunk by Hypothesis from property {prop.id}: {violation.message}. "
                 "Review the expectation against the seed before adding it to the catalogue.",
        "setup": scenario["setup"],
        "steps": steps,
    }
    return yaml.safe_dump(case, allow_unicode=True, sort_keys=False)
