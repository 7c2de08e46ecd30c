"""Turn an ``--engine`` spec into a `Connection`: the registry of connection kinds.

The kinds (``NAME[:MUTANT]``, an engine registered in ``card_conformance.engines``;
``python:package.module:factory``; ``cmd:<command line>``, never run through a shell)
are docs/cli.md's "Engine specs".  Any kind can be asked for a mutant (``mutant=``, the
CLI's ``--mutant``): the hello request carries its name and the engine echoes it
(docs/protocol.md, "Mutants").
"""

from __future__ import annotations

import contextlib
import importlib
import shlex
import traceback
from collections.abc import Callable
from typing import Any

from conformance import _protocol
from conformance._discovery import engine_names, engine_target
from conformance._engine import (
    PROTOCOL_VERSION,
    AdapterRaised,
    Connection,
    EngineFault,
    ProtocolViolation,
    Unsupported,
    mutant_echo_problem,
)
from conformance._errors import UsageError, did_you_mean
from conformance._protocol import json_copy
from conformance._shown import shown
from conformance._types import MutantSpec

SPEC_HELP = ("use NAME[:MUTANT] for a registered engine, 'python:package.module:factory' "
             "or 'cmd:<command line>'")


def load_engine(spec: str, *, timeout: float = 10.0, mutant: str | None = None,
                **subprocess_options: Any) -> Connection:
    """The engine named by ``spec`` (as ``mutant``, when given), wrapped so every fault
    is an `EngineFault`.  A mutant is checked against the engine's listing first, so a
    typo is a usage error naming the closest names, not a run of errors."""
    make, named = _kind(spec, timeout, subprocess_options)
    if named is not None:
        if mutant is not None and mutant != named:
            raise UsageError(f"--engine {spec!r} names mutant {named!r} and --mutant names "
                             f"{mutant!r}; name one")
        mutant = named
    if mutant is not None:
        names = [m["name"] for m in list_mutants(make(None), spec)]
        if mutant not in names:
            guess = did_you_mean(mutant, names) or f"none of the {len(names)} is close"
            lister = spec.partition(":")[0] if named else spec
            raise UsageError(f"--engine {spec!r}: no mutant {mutant!r}; {guess} "
                             f"(`conformance mutants --engine {lister}` lists them all)")
    return make(mutant)


def connect(spec: str, mutant: str | None = None, *, timeout: float = 10.0,
            **subprocess_options: Any) -> Connection:
    """`load_engine` for a mutant already known to be listed (mutation analysis)."""
    make, named = _kind(spec, timeout, subprocess_options)
    return make(mutant if mutant is not None else named)


def _kind(spec: str, timeout: float, options: dict[str, Any]
          ) -> tuple[Callable[[str | None], Connection], str | None]:
    """How to connect to ``spec`` (given a mutant or None), and the mutant it names."""
    kind, _, rest = spec.partition(":")
    if kind == "python":
        if not rest:
            raise UsageError(f"--engine {spec!r}: no factory named; {SPEC_HELP}")
        factory = _import_factory(rest)
        return lambda mutant: InProcessEngine(factory, spec, mutant), None
    if kind == "cmd":
        argv = shlex.split(rest)
        if not argv:
            raise UsageError(f"--engine {spec!r}: empty command; {SPEC_HELP}")
        from conformance._subprocess import SubprocessEngine

        return lambda mutant: SubprocessEngine(argv, timeout=timeout, mutant=mutant,
                                               **options), None
    if kind in engine_names():
        factory = _import_factory(engine_target(kind))
        return lambda mutant: InProcessEngine(factory, kind, mutant), rest or None
    known = ", ".join(engine_names()) or "none"
    guess = did_you_mean(kind, [*engine_names(), "python", "cmd"])
    raise UsageError(f"--engine {spec!r}: unknown kind {kind!r} (neither python:, cmd: nor "
                     f"a registered engine){'; ' + guess if guess else ''}; {SPEC_HELP} "
                     f"(registered engines: {known})")


def list_mutants(engine: Connection, spec: str) -> list[MutantSpec]:
    """The mutants ``engine`` lists in its hello (closed after asking): one ``{"name",
    "ruleset", "rules", "description"}`` each, checked with the rest of the hello
    (reply-hello.json)."""
    try:
        mutants = engine.hello().get("capabilities", {}).get("mutants")
    finally:
        engine.close()
    if mutants is None:
        raise UsageError(f"engine {spec!r} lists no mutants (no capabilities.mutants in its "
                         "hello), so there is nothing for --mutation to run; an engine offers "
                         "mutants as docs/protocol.md, 'Mutants', describes")
    return list(mutants)


def _import_factory(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    if not attr:
        raise UsageError(f"{target!r}: name the factory after a colon, e.g. mypkg.engine:create")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"cannot import {module_name!r}: {shown(exc, 300)}; "
                         "is it installed?") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:   # SystemExit too: its sys.exit(0) must not end the run green
        what = (f"called sys.exit({shown(repr(exc.code), 80)})" if isinstance(exc, SystemExit)
                else f"raised {type(exc).__name__}: {shown(exc, 300)}")
        raise UsageError(f"importing {module_name!r} {what}; make `import {module_name}` "
                         "succeed: an engine's module must not exit or raise while it is "
                         "imported") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise UsageError(f"module {module_name!r} has no {attr!r}") from None


class InProcessEngine(Connection):
    """Wraps a Python engine so its exceptions and garbage become `EngineFault`s.

    The engine is created lazily and re-created after it raised, which is the
    in-process counterpart of restarting a crashed subprocess.  With a
    ``mutant``, each new engine object is asked ``hello(mutant=NAME)`` first.
    """

    def __init__(self, factory: Any, spec: str, mutant: str | None = None) -> None:
        self._factory = factory
        self._spec = spec
        self.mutant = mutant
        self._engine: Any = None
        self._info: dict[str, Any] | None = None

    def _get(self) -> Any:
        if self._engine is None:
            engine = self._call(self._factory)
            if self.mutant is not None:
                self._info = self._answer("hello", engine.hello, mutant=self.mutant)
                problem = mutant_echo_problem(self._info, self.mutant)
                if problem is not None:
                    raise ProtocolViolation(f"engine {self._spec!r} {problem}")
            self._engine = engine
        return self._engine

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args)``, an exception it raises turned into `AdapterRaised`."""
        try:
            return fn(*args, **kwargs)
        except (Unsupported, EngineFault):
            raise
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an engine bug is a result, not a harness crash;
            self._engine = None       # SystemExit too: its sys.exit(0) must not end us green
            raise AdapterRaised(f"{type(exc).__name__}: {exc}",
                                stderr=traceback.format_exc(limit=8)) from exc

    def _answer(self, cmd: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args)`` as it would come over the wire, checked.  With the JSON round
        trips of what goes in (`start`, `act`), the engine sees exactly what a subprocess
        would (and cannot change the catalogue), the runner what it would have answered."""
        answer = self._call(fn, *args, **kwargs)
        try:
            copied = json_copy(answer)
        except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: a cycle
            raise ProtocolViolation(
                f"{fn.__name__}() answered something that is not JSON data: {exc}; "
                "return dicts, lists, str, int, bool, None") from exc
        if _protocol.deeper_than(copied):   # the report could not be written with it
            raise ProtocolViolation(
                f"{fn.__name__}() answered something nested deeper than "
                f"{_protocol.MAX_DEPTH} levels; keep answers shallower (docs/protocol.md, "
                "'Framing')")
        return _protocol.check_answer(cmd, copied)

    def hello(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"protocol": PROTOCOL_VERSION}
        if self.mutant is not None:
            fields["mutant"] = self.mutant
        info: dict[str, Any] = self._logged("hello", fields, self._hello)
        return info

    def _hello(self) -> Any:
        engine = self._get()   # a mutant is asked its hello there
        return dict(self._info) if self._info is not None else self._answer("hello", engine.hello)

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self._logged("start", {"ruleset": ruleset, "setup": setup},
                     lambda: self._call(self._get().start, ruleset, json_copy(setup)))

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self._logged(
            "act", {"action": action},
            lambda: self._answer("act", self._get().act, json_copy(action)))
        return answer

    def observe(self) -> dict[str, Any]:
        state: dict[str, Any] = self._logged(
            "observe", {}, lambda: self._answer("observe", self._get().observe))
        return state

    def _logged(self, cmd: str, fields: dict[str, Any], call: Callable[[], Any]) -> Any:
        """``call()``; with a transcript, also the request and reply lines a `serve`-based
        engine would have read and written for it (so the transcript replays through
        one line for line; an error's traceback, which serve adds, aside)."""
        log = self.transcript
        if log is None:
            return call()
        seq = log.next_seq()
        log.sent(cmd, _protocol.encode({"seq": seq, "cmd": cmd, **fields}, ascii_only=True))
        try:
            answer = call()
        except Unsupported as exc:
            skipped = {"reason": exc.reason or "unsupported"}
            if exc.kind is not None:   # as serve() writes it
                skipped["kind"] = exc.kind
            log.received(_protocol.encode({"seq": seq, "skipped": skipped}))
            raise
        except EngineFault as exc:
            log.received(_protocol.encode({"seq": seq, "error": {"message": exc.message}}))
            raise
        shown = _protocol.served_hello(answer) if cmd == "hello" else answer
        log.received(_protocol.encode({"seq": seq, "ok": shown}))
        return answer

    def close(self) -> None:
        if self._engine is not None:
            # closing a broken engine must not fail the run
            with contextlib.suppress(Exception):
                self._engine.close()
            self._engine = None
