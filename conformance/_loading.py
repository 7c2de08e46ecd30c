"""Turn an ``--engine`` spec into an `Engine`.

Specs:
  ``reference``                   the bundled reference engine, in-process
  ``reference:MUTANT``            the reference engine with one rule broken
                                  (``conformance mutants`` lists them)
  ``python:package.module:factory`` call ``factory()`` in-process
  ``cmd:<command line>``          a subprocess speaking JSON Lines (docs/protocol.md);
                                  split with shlex, never run through a shell
"""

from __future__ import annotations

import contextlib
import importlib
import shlex
import traceback
from typing import Any

from conformance import _protocol
from conformance._engine import (
    AdapterRaised,
    Engine,
    EngineFault,
    ProtocolViolation,
    Unsupported,
)
from conformance._errors import UsageError, did_you_mean
from conformance._protocol import json_copy, json_view

SPEC_HELP = (
    "use 'reference', 'reference:MUTANT', 'python:package.module:factory' "
    "or 'cmd:<command line>'"
)


def load_engine(spec: str, *, timeout: float = 10.0, **subprocess_options: Any) -> Engine:
    """The engine named by ``spec``, wrapped so every fault is an `EngineFault`."""
    kind, _, rest = spec.partition(":")
    if kind == "reference":
        factory = _import_factory("reference_engine:create_engine")
        if rest:
            # the mutants are what the reference engine lists in its hello
            plain = InProcessEngine(factory, kind)
            names = [m["name"] for m in mutants_of(plain.hello(), kind)]
            plain.close()
            if rest not in names:
                guess = did_you_mean(rest, names) or f"none of the {len(names)} is close"
                raise UsageError(f"--engine {spec!r}: no mutant {rest!r}; {guess} "
                                 "(`conformance mutants` lists them all)")
        return InProcessEngine(lambda: factory(mutant=rest or None), spec)
    if kind == "python":
        if not rest:
            raise UsageError(f"--engine {spec!r}: no factory named; {SPEC_HELP}")
        return InProcessEngine(_import_factory(rest), spec)
    if kind == "cmd":
        argv = shlex.split(rest)
        if not argv:
            raise UsageError(f"--engine {spec!r}: empty command; {SPEC_HELP}")
        from conformance._subprocess import SubprocessEngine

        return SubprocessEngine(argv, timeout=timeout, **subprocess_options)
    raise UsageError(f"--engine {spec!r}: unknown kind {kind!r}; {SPEC_HELP}")


def mutants_of(hello: dict[str, Any], spec: str) -> list[dict[str, Any]]:
    """The ``mutants`` capability of a hello reply (docs/protocol.md): one
    ``{"name", "ruleset", "rules", "description"}`` per mutant the engine offers.
    Its shape is checked with the rest of the hello (reply-hello.json)."""
    mutants = hello.get("capabilities", {}).get("mutants")
    if mutants is None:
        raise UsageError(f"engine {spec!r} lists no mutants (no capabilities.mutants in its "
                         "hello; docs/protocol.md, 'Mutants')")
    return list(mutants)


def _import_factory(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    if not attr:
        raise UsageError(f"{target!r}: name the factory after a colon, e.g. mypkg.engine:create")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"cannot import {module_name!r}: {exc}; is it installed?") from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise UsageError(f"module {module_name!r} has no {attr!r}") from None


class InProcessEngine:
    """Wraps a Python engine so its exceptions and garbage become `EngineFault`s.

    The engine is created lazily and re-created after it raised, which is the
    in-process counterpart of restarting a crashed subprocess.
    """

    def __init__(self, factory: Any, spec: str) -> None:
        self._factory = factory
        self._spec = spec
        self._engine: Any = None

    #: One call, one answer: there is no ``play`` that would save anything in-process.
    batches = False

    def _get(self) -> Any:
        if self._engine is None:
            self._engine = self._call(self._factory)
        return self._engine

    def _call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)``, an exception it raises turned into `AdapterRaised`."""
        try:
            return fn(*args)
        except (Unsupported, EngineFault):
            raise
        except Exception as exc:  # an engine bug is a result, not a harness crash
            self._engine = None
            raise AdapterRaised(
                f"{type(exc).__name__}: {exc}", stderr=traceback.format_exc(limit=8)
            ) from exc

    # JSON round trips on the way in and out (`_protocol.json_copy`): the engine
    # sees exactly what a subprocess would (and cannot change the catalogue), and
    # the runner compares exactly what a subprocess would have answered.

    def _answer(self, cmd: str, fn: Any, *args: Any, keep: bool = True) -> Any:
        """``fn(*args)`` as it would come over the wire, checked; ``keep=False``
        when the caller is done with it before the engine's next call (`glance`)."""
        answer = self._call(fn, *args)
        try:
            copied = json_copy(answer) if keep else json_view(answer)
        except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: a cycle
            raise ProtocolViolation(
                f"{fn.__name__}() answered something that is not JSON data: {exc}; "
                "return dicts, lists, str, int, bool, None") from exc
        return _protocol.check_answer(cmd, copied)

    def hello(self) -> dict[str, Any]:
        return self._answer("hello", self._get().hello)

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self._call(self._get().start, ruleset, json_copy(setup))

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._answer("act", self._get().act, json_copy(action))

    #: The state is copied only when asked for, so there is nothing to leave out.
    act_without_state = act

    def observe(self) -> dict[str, Any]:
        return self._answer("observe", self._get().observe)

    def glance(self) -> dict[str, Any]:
        """`observe`, for a caller that reads the state before the engine's next call
        and copies whatever it keeps (`Runner.run_case`): the engine's own answer,
        checked, when it is plain JSON data already.  The state is most of what a
        case run copies, and is only read once."""
        return self._answer("observe", self._get().observe, keep=False)

    def close(self) -> None:
        if self._engine is not None:
            # closing a broken engine must not fail the run
            with contextlib.suppress(Exception):
                self._engine.close()
            self._engine = None
