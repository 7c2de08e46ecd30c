"""`SubprocessEngine`: any engine, in any language, behind JSON Lines on stdin/stdout.

One long-lived child process per engine per run (docs/protocol.md), which the
harness must survive whatever it does:

* every read and write has a deadline: stdin and stdout are non-blocking pipes
  watched with poll(2) in the calling thread (no thread hop per message; POSIX
  only, on Windows run the suite under WSL);
* stderr is drained by a thread into a bounded tail, so a flood cannot stall it;
* on any fault (timeout, crash, garbage, wrong seq, oversized line, schema
  mismatch) the process and everything it started is killed (`_lifetime`) and an
  `EngineFault` raised with the stderr tail; the next ``start()`` starts a fresh
  process.  A killed
  process's pipes die with it, so a late answer is never read as the current one.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import math
import os
import re
import select
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from conformance import _lifetime, _protocol
from conformance._engine import (
    PROTOCOL_VERSION,
    Connection,
    EngineCrashed,
    EngineFault,
    EngineReportedError,
    EngineTimeout,
    Outcome,
    ProtocolViolation,
    Step,
    Unsupported,
    mutant_echo_problem,
)
from conformance._errors import UsageError

_POSIX = os.name == "posix"

#: After ``stop``: how long a well-behaved engine gets to exit by itself.
STOP_GRACE = 1.0
#: After SIGKILL: how long we wait for the exit status (normally instant).
KILL_WAIT = 1.0
#: After the exit: how long the stderr thread gets to collect the last bytes.
STDERR_SETTLE = 0.5
#: Consecutive failed handshakes after which start() stops respawning.
MAX_STARTUP_FAILURES = 2

_READ_CHUNK = 65_536
_SHOW = 200  # bytes of a bad line quoted in a message


class SubprocessEngine(Connection):
    """The `Engine` protocol spoken to a child process over JSON Lines.

    ``argv`` is run without a shell (split a command line with `shlex.split`).
    ``timeout`` bounds each reply, ``startup_timeout`` the process start plus
    the ``hello`` reply.  A reply line longer than ``max_reply_bytes`` is a
    protocol violation; ``stderr_limit`` bytes of stderr tail are kept.
    ``memory_limit_mb`` caps the child's address space (POSIX only).
    ``play=False`` never sends ``play``, even to an engine that offers it.
    ``mutant`` is asked for in every hello (mutation analysis, docs/protocol.md).
    """

    def __init__(self, argv: Sequence[str], *, timeout: float = 10.0,
                 startup_timeout: float = 20.0, max_reply_bytes: int = 1_000_000,
                 stderr_limit: int = 64_000, memory_limit_mb: int | None = None,
                 cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None, play: bool = True,
                 mutant: str | None = None) -> None:
        if isinstance(argv, str | bytes) or not argv or not all(isinstance(a, str) for a in argv):
            raise UsageError(
                f"SubprocessEngine needs argv as a non-empty list of strings, got {argv!r:.100}; "
                "split a command line with shlex.split (it is never run through a shell)")
        for label, value in (("timeout", timeout), ("startup_timeout", startup_timeout),
                             ("max_reply_bytes", max_reply_bytes),
                             ("stderr_limit", stderr_limit)):
            if not value > 0:
                raise UsageError(f"SubprocessEngine {label} must be > 0, got {value!r}")
        self._preexec = None if memory_limit_mb is None else _memory_limiter(memory_limit_mb)
        self._argv = list(argv)
        self._timeout = float(timeout)
        self._startup_timeout = float(startup_timeout)
        self._max_reply = int(max_reply_bytes)
        self._stderr_limit = int(stderr_limit)
        self._cwd = cwd
        self._env = dict(env) if env is not None else None
        self._child: _Child | None = None
        self._last_child: _Child | None = None
        self._info: dict[str, Any] | None = None
        self._seq = 0  # never reset: a seq is never reused, even across restarts
        self._last_fault = ""
        self._startup_failures = 0
        self._closed = False
        self._state: dict[str, Any] | None = None  # what the last act said observe would
        self._use_play = play
        self.mutant = mutant

    # -- the Engine protocol ---------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        """Start the process if needed; return what its handshake said."""
        self._ensure_running()
        assert self._info is not None
        return dict(self._info)

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        """Begin a game; (re)starts the process first if an earlier fault killed it."""
        self._ensure_running()
        self._request("start", {"ruleset": ruleset, "setup": setup})

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """One action; the state after it rides along when the engine offers that."""
        return self._act(action, True)

    def _step(self, action: dict[str, Any], wanted: bool) -> Outcome:
        """One request at a time, a step's state rides along with its act only when wanted."""
        reply = self._act(action, wanted)
        return reply, self.observe() if wanted else None

    def _act(self, action: dict[str, Any], want_state: bool) -> dict[str, Any]:
        fields: dict[str, Any] = {"action": action}
        if want_state and self._offers(_protocol.OBSERVE_IN_ACT):
            fields["observe"] = True
        reply = self._request("act", fields)
        self._state = reply.get("state")
        answer: dict[str, Any] = _protocol.normalize("act", reply)
        return answer

    def observe(self) -> dict[str, Any]:
        """The state: the one the last act brought along, else asked for."""
        state, self._state = self._state, None
        if state is not None:
            return state
        observed: dict[str, Any] = self._request("observe", {})
        return observed

    @property
    def batches(self) -> bool:
        """Whether `play` is one round trip: the engine's hello offered ``play``."""
        return self._use_play and self._offers(_protocol.PLAY)

    def play(self, ruleset: str, setup: dict[str, Any],
             steps: Sequence[Step]) -> list[Outcome]:
        """A fresh game and every step: one ``play`` request when the engine offers it.

        A play that was skipped or broke (other than by a timeout, which would
        only cost another) is played again one request at a time, which names
        the step it stopped at; if that goes through, the play itself was the
        fault, and it is raised.
        """
        if not self.batches:
            return super().play(ruleset, setup, steps)
        try:
            return self._play_batched(ruleset, setup, steps)
        except EngineTimeout:
            raise
        except (Unsupported, EngineFault) as broken:
            broken.played = super().play(ruleset, setup, steps)
            raise broken

    def _play_batched(self, ruleset: str, setup: dict[str, Any],
                      steps: Sequence[Step]) -> list[Outcome]:
        """The ``play`` request; its reply checked like every other (reply-play.json),
        and it must hold one act reply per step, with the state where a step asked."""
        self._ensure_running()
        replies = self._request("play", {"ruleset": ruleset, "setup": setup, "steps": [
            {"action": action, "observe": True} if wanted else {"action": action}
            for action, wanted in steps]})["replies"]
        where = f"play (seq {self._seq})"
        if len(replies) != len(steps):
            self._fault(ProtocolViolation,
                        f"answered {where} with {len(replies)} replies to {len(steps)} steps; "
                        "answer one act reply per step, in order")
        outcomes: list[Outcome] = []
        for number, ((_, wanted), reply) in enumerate(zip(steps, replies, strict=True), start=1):
            state = reply.get("state") if wanted else None
            if wanted and state is None:
                self._fault(ProtocolViolation,
                            f"answered {where} without the state of step {number}, which "
                            "asked observe: true; a play reply carries every state it asks for")
            outcomes.append((_protocol.normalize("act", reply), state))
        return outcomes

    def close(self) -> None:
        """Send ``stop``, give the engine `STOP_GRACE` seconds, then kill. Never hangs."""
        self._closed, self._state = True, None   # answers nothing, not even a cached state
        child, self._child = self._child, None
        if child is not None:
            self._last_child = child
            child.stop(self._line("stop", {}))

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- introspection (tests, debugging) -----------------------------------------------

    @property
    def pid(self) -> int | None:
        """The running child's pid; None when no process is running."""
        return self._child.proc.pid if self._child is not None else None

    @property
    def stderr(self) -> str:
        """The bounded stderr tail of the current (or last) process."""
        child = self._child or self._last_child
        return child.stderr.text() if child is not None else ""

    def __repr__(self) -> str:
        return f"SubprocessEngine({self._argv!r}, pid={self.pid})"

    # -- lifecycle ---------------------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._closed:
            raise UsageError(f"{self._label()} was closed; create a new SubprocessEngine")
        if self._child is not None:
            return
        if self._startup_failures >= MAX_STARTUP_FAILURES:
            raise EngineCrashed(f"{self._label()} failed to start {self._startup_failures} "
                                f"times in a row; not retrying. Last failure: {self._last_fault}",
                                stderr=self.stderr)
        self._startup_failures += 1   # until the handshake is through
        try:
            self._child = _Child.spawn(self._argv, self._cwd, self._env, self._preexec,
                                       self._max_reply, self._stderr_limit)
        except OSError as exc:
            self._last_fault = f"could not start {self._command()!r}: {exc}"
            raise EngineCrashed(f"{self._last_fault}; check the command: it is run without a "
                                "shell, so shell syntax (pipes, ~, $VARS) does not work") from exc
        # every fault of the handshake kills the process (`_fault`)
        fields: dict[str, Any] = {"protocol": PROTOCOL_VERSION}
        if self.mutant is not None:
            fields["mutant"] = self.mutant
        info = _protocol.normalize("hello", self._request("hello", fields,
                                                          self._startup_timeout))
        problem = mutant_echo_problem(info, self.mutant)
        if problem is not None:
            self._fault(ProtocolViolation, problem)
        self._info = info
        self._startup_failures = 0

    def _offers(self, capability: str) -> bool:
        return bool(self._info and self._info["capabilities"].get(capability) is True)

    def _line(self, cmd: str, fields: dict[str, Any]) -> bytes:
        """The next request line, with a new seq; pure ASCII: engines need not mind encodings."""
        self._seq += 1
        return _protocol.encode({"seq": self._seq, "cmd": cmd, **fields}, ascii_only=True)

    def _request(self, cmd: str, fields: dict[str, Any], timeout: float | None = None) -> Any:
        """Send one request and return the ``ok`` result of its validated reply."""
        self._state = None   # whatever an act brought along is stale from here
        child = self._child
        if child is None:
            if self._closed:
                raise UsageError(f"{self._label()} was closed; create a new SubprocessEngine")
            why = (f"it was stopped after an earlier fault ({self._last_fault})"
                   if self._last_fault else "no game was started")
            raise EngineCrashed(f"{self._label()} cannot answer {cmd}: {why}; call start() to "
                                "begin a new game", stderr=self.stderr)
        self._check_quiet(child)
        line = self._line(cmd, fields)
        where = f"{cmd} (seq {self._seq})"
        timeout = timeout or self._timeout
        if self.transcript is not None:
            self.transcript.sent(cmd, line)
        if not child.send(line, timeout):
            self._fault(EngineTimeout, f"did not answer {where}: it stopped reading its stdin "
                        f"for {timeout:g} s; check that it reads one request line at a time, or "
                        "raise the timeout (--timeout)")
        reply = self._read_reply(child, cmd, where, timeout)
        if "ok" in reply:
            return reply["ok"]
        if "skipped" in reply:
            raise Unsupported(reply["skipped"]["reason"], reply["skipped"].get("kind"))
        # the process is kept, except after hello: one that cannot say hello is no use
        self._fault(EngineReportedError, f"reported an error on {where}: "
                    f"{reply['error']['message']}", detail=reply["error"].get("traceback", ""),
                    kill=cmd == "hello")

    def _read_reply(self, child: _Child, cmd: str, where: str, timeout: float
                    ) -> dict[str, Any]:
        """The reply line to request ``where``, parsed and checked: anything else faults."""
        kind, data = child.read_line(timeout)
        if kind == "timeout":
            self._fault(EngineTimeout, f"did not answer {where} within {timeout:g} s; check "
                        "that it writes exactly one line per request and flushes stdout after "
                        "it, or raise the timeout (--timeout)")
        if kind in ("eof", "exited"):
            partial = f" after writing part of a line: {_show(data)}" if data else ""
            held = ("; something it started still held its stdout open, and was killed"
                    if kind == "exited" else "")
            self._fault(EngineCrashed,
                        f"{child.exit_status()} instead of answering {where}{partial}{held}")
        if kind == "too-long":
            self._fault(ProtocolViolation, f"answered {where} with a line longer than "
                        f"{self._max_reply} bytes (starts {_show(data)}); keep replies small or "
                        "raise max_reply_bytes (--max-reply-bytes)")
        if self.transcript is not None:
            self.transcript.received(data)
        if data.startswith(codecs.BOM_UTF8):
            self._fault(ProtocolViolation, f"answered {where} with a line that begins with a "
                        f"UTF-8 byte order mark (BOM, bytes EF BB BF): {_show(data)}; write "
                        "replies as UTF-8 without a BOM")
        try:
            message = _decode(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            self._fault(ProtocolViolation, f"answered {where} with bytes that are not UTF-8 "
                        f"({exc.reason} at byte {exc.start}): {_show(data)}; encode replies as "
                        "UTF-8")
        except _Unreadable as exc:
            self._fault(ProtocolViolation, f"answered {where} with {exc}: {_show(data)}; a "
                        "reply is plain JSON: finite numbers, each key once, nested at most "
                        f"{MAX_DEPTH} levels (docs/protocol.md, 'Framing')")
        except ValueError as exc:
            self._fault(ProtocolViolation, f"answered {where} with a line that is not JSON "
                        f"({exc}): {_show(data)}; stdout carries only protocol replies, write "
                        "logs to stderr")
        if not isinstance(message, dict):
            self._fault(ProtocolViolation,
                        f"answered {where} with {_show(data)}, not a JSON object")
        got = message.get("seq")
        if got is not None and (not isinstance(got, int) or isinstance(got, bool)):
            self._fault(ProtocolViolation, f"answered {where} with seq {_show_json(got)}, not "
                        f"an integer: {_show(data)}; echo the request's seq as it came "
                        f"({self._seq})")
        if isinstance(got, int) and not isinstance(got, bool) and got != self._seq:
            self._fault(ProtocolViolation, f"answered seq {got} while the harness waited for "
                        f"{where} (a late, duplicate or misnumbered answer): {_show(data)}; echo "
                        "the request's seq in its reply")
        # a version mismatch first: another version's hello may not fit our schema
        info = message.get("ok") if cmd == "hello" else None
        theirs = info.get("protocol") if isinstance(info, dict) else None
        if isinstance(theirs, int) and theirs != PROTOCOL_VERSION:
            self._fault(ProtocolViolation, f"speaks protocol {theirs} but this suite speaks "
                        f"protocol {PROTOCOL_VERSION}; use a suite release for protocol {theirs} "
                        "or update the engine")
        name = _protocol.reply_schema(cmd, message)
        if not name:
            allowed = "ok, skipped or error" if cmd in _protocol.SKIPPABLE else "ok or error"
            self._fault(ProtocolViolation, f"answered {where} with {_show(data)}; a reply to "
                        f"{cmd} has exactly one of the keys {allowed}")
        why = _protocol.problem(name, message)
        if why:
            self._fault(ProtocolViolation, f"answered {where} with a reply that does not match "
                        f"{name}.json at {why}; the reply was {_show(data)}")
        return message

    def _check_quiet(self, child: _Child) -> None:
        """Between requests the child must be silent: anything it wrote is a fault."""
        kind, data = child.read_line(0.0)
        after = f"after seq {self._seq}"
        if kind in ("eof", "exited"):
            self._fault(EngineCrashed, f"{child.exit_status()} between requests ({after})")
        if kind != "timeout":
            self._fault(ProtocolViolation, f"wrote a line nobody asked for {after} (did it "
                        f"answer twice?): {_show(data)}; write exactly one line per request")

    def _fault(self, cls: type[EngineFault], what: str, *, detail: str = "",
               kill: bool = True) -> NoReturn:
        """Raise ``cls`` saying ``what``; first kill the child (the next start() spawns
        a new one), unless ``kill`` is False (an ``error`` reply: the process is kept)."""
        child = self._child
        assert child is not None   # every fault is found in a running child's answers
        message = f"{self._label()} {what}"
        if kill:
            self._child, self._last_child = None, child
            self._last_fault = what
            child.kill()
            message += ". The process was killed; the next case's start() launches a fresh one"
        stderr = child.stderr.text()
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        if kill and lines:
            message += f". Last stderr line: {lines[-1]!r:.200}"
        if detail:
            stderr = detail + "\n" + stderr
        raise cls(message, stderr=_tail(stderr, self._stderr_limit))

    def _command(self) -> str:
        command = shlex.join(self._argv)
        return command if len(command) <= 80 else command[:77] + "..."

    def _label(self) -> str:
        return f"engine {self._info['name'] if self._info else self._command()!r}"


class _Child:
    """One child process: its stdin and stdout driven by poll(2), stderr by a thread."""

    def __init__(self, proc: subprocess.Popen[bytes], max_reply: int, stderr_limit: int) -> None:
        self.proc = proc
        self.stderr = _Tail(stderr_limit)
        assert proc.stdin is not None and proc.stdout is not None
        self._pipes = (proc.stdin, proc.stdout)
        self._stdin, self._stdout = proc.stdin.fileno(), proc.stdout.fileno()
        os.set_blocking(self._stdin, False)
        os.set_blocking(self._stdout, False)
        # A poll object per direction, one fd each: cheaper per call than a
        # `selectors` selector, and waiting happens twice per request.
        self._readable, self._writable = select.poll(), select.poll()
        self._readable.register(self._stdout, select.POLLIN)
        # its exit wakes a wait too: what it started may hold stdout open after it
        self._exit_fd = _pidfd(proc.pid)
        if self._exit_fd is not None:
            self._readable.register(self._exit_fd, select.POLLIN)
        self._writable.register(self._stdin, select.POLLOUT)
        self._max_reply = max_reply
        self._buffer = bytearray()
        self._eof = False
        self._stderr_thread = threading.Thread(target=self.stderr.drain, args=(proc.stderr,),
                                               daemon=True, name="engine-drain")
        self._stderr_thread.start()
        # If the owner forgets close(), do not leave a process behind.
        self._finalizer = weakref.finalize(self, _lifetime.contain, proc)

    @classmethod
    def spawn(cls, argv: list[str], cwd: Any, env: dict[str, str] | None,
              preexec: Callable[[], None] | None, max_reply: int, stderr_limit: int) -> _Child:
        if not _POSIX:
            raise UsageError("the subprocess adapter needs POSIX pipes (select on a pipe); "
                             "on Windows, run the suite under WSL")
        # Its own process group (a new session), so a kill also reaches what a wrapper
        # (sh, npx, cargo run, a JVM launcher) started; preexec only for memory_limit_mb.
        # Beyond the group, what it starts is contained (`_lifetime`): a marker in its
        # environment, and kernel settings made between fork and exec.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=cwd,
                                env=_lifetime.engine_env(env), start_new_session=True,
                                preexec_fn=_lifetime.preexec(preexec), bufsize=0)
        _lifetime.started(proc.pid)
        return cls(proc, max_reply, stderr_limit)

    def send(self, line: bytes, timeout: float) -> bool:
        """Write one request; False if the child stopped reading for ``timeout`` seconds.

        A child that has exited is not an error here: reading its reply says how it ended.
        """
        deadline = time.monotonic() + timeout
        view = memoryview(line)
        while view:
            try:
                view = view[os.write(self._stdin, view):]
            except BlockingIOError:
                if not _ready(self._writable, deadline):
                    return False
            except OSError:  # EPIPE: gone, or stdin already closed
                return True
        return True

    def read_line(self, timeout: float) -> tuple[str, bytes]:
        """The next stdout line as ``("line", bytes)``, or why there is none.

        ``("eof", partial)`` when stdout closed, ``("exited", partial)`` when the
        process exited while stdout stays open (something it started holds it),
        ``("too-long", start)`` for a line over the limit, ``("timeout", b"")`` when
        nothing came in time.
        """
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n", 0, self._max_reply + 1)
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return "line", line
            if len(self._buffer) > self._max_reply:
                return "too-long", bytes(self._buffer[:_SHOW])
            if self._eof:
                return "eof", bytes(self._buffer)
            # wait, then read: the reply is rarely there yet, and a read that would block raises
            if not _ready(self._readable, deadline):
                return ("exited", bytes(self._buffer)) if self._exited() else ("timeout", b"")
            try:
                chunk = os.read(self._stdout, _READ_CHUNK)
            except BlockingIOError:
                if self._exited():   # what it wrote before exiting was read first
                    return "exited", bytes(self._buffer)
                continue
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    def _exited(self) -> bool:
        return self.proc.poll() is not None

    def exit_status(self) -> str:
        """How the process ended, waiting at most `KILL_WAIT` for it to do so."""
        try:
            code = self.proc.wait(KILL_WAIT)
        except subprocess.TimeoutExpired:
            return "closed its stdout without exiting"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"was killed by {name}"
        return f"exited with code {code}"

    def kill(self) -> None:
        """SIGKILL the process, all it started (`_lifetime.contain`), and collect what
        stderr still holds; bounded."""
        _lifetime.contain(self.proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(KILL_WAIT)
        self._finalizer.detach()  # done: a later kill could hit a reused pid
        if self._exit_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._exit_fd)
            self._exit_fd = None
        self._stderr_thread.join(STDERR_SETTLE)
        for stream in self._pipes:
            with contextlib.suppress(OSError):
                stream.close()

    def stop(self, stop_line: bytes) -> None:
        """Ask politely (``stop``, then EOF on stdin), wait `STOP_GRACE`, then kill."""
        self.send(stop_line, STOP_GRACE)
        with contextlib.suppress(OSError):
            self._pipes[0].close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(STOP_GRACE)
        self.kill()


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (Linux 5.3+), else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _ready(poll: select.poll, deadline: float) -> bool:
    """Whether the polled fd became ready (or hung up) by ``deadline``."""
    # poll takes whole milliseconds: round up, so a wait is never cut short
    return bool(poll.poll(math.ceil(max(deadline - time.monotonic(), 0.0) * 1000)))


class _Tail:
    """The last ``limit`` bytes written to a stream, safe to read from any thread."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.dropped = 0
        self._data = bytearray()
        self._lock = threading.Lock()

    def text(self) -> str:
        with self._lock:
            data, dropped = bytes(self._data), self.dropped
        text = data.decode("utf-8", errors="replace")
        if not dropped:
            return text
        note = f"[... {dropped} earlier bytes of stderr dropped ...]\n"
        return note + _tail(text, max(self.limit - len(note), 0))

    def drain(self, stream: Any) -> None:
        """Stderr thread: read everything, keep the tail, so the child never blocks on it."""
        try:
            while chunk := stream.read(_READ_CHUNK):  # unbuffered: one read(2), what is there
                with self._lock:
                    self._data += chunk
                    excess = len(self._data) - self.limit
                    if excess > 0:
                        del self._data[:excess]
                        self.dropped += excess
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()


def _memory_limiter(megabytes: int) -> Callable[[], None]:
    """A preexec_fn capping the child's address space (RLIMIT_AS).

    `resource` is imported here, in the parent: the function runs between fork
    and exec, where importing (taking the import lock) could deadlock.
    """
    if not _POSIX:
        raise UsageError("memory_limit_mb needs a POSIX system (resource.setrlimit); "
                         "leave it unset on Windows")
    if megabytes <= 0:
        raise UsageError(f"memory_limit_mb must be > 0, got {megabytes!r}")
    import resource

    limit = megabytes * 1024 * 1024
    return functools.partial(resource.setrlimit, resource.RLIMIT_AS, (limit, limit))


#: How deep a reply may nest objects and arrays (`_protocol.MAX_DEPTH`).
MAX_DEPTH = _protocol.MAX_DEPTH


class _Unreadable(ValueError):
    """A reply Python's json module would read, but not as the engine meant (a number
    out of range, NaN, a key twice, nesting too deep); the message says what."""


def _reject_constant(name: str) -> NoReturn:
    raise _Unreadable(f"{name}, which JSON does not have")


def _finite(text: str) -> float:
    """A JSON number as a float; one out of range (``1e999``, read as inf) is refused:
    the report could not be written with it."""
    number = float(text)
    if not math.isfinite(number):
        raise _Unreadable(f"the number {text[:40]}, which is out of range for a float")
    return number


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys all differ: with a key twice, the engine meant one of two
    answers and Python would silently take the last."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Unreadable(f"an object that has the key {key!r:.60} twice")
            seen.add(key)
    return obj


#: Built once: json.loads with any option builds a new decoder on every call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite,
                            object_pairs_hook=_unique_keys)


def _decode(text: str) -> Any:
    """A reply line as JSON data, or `_Unreadable` (a `ValueError`) saying what is wrong
    with it beyond its syntax, or another `ValueError` for its syntax."""
    deep = f"a reply nested deeper than {MAX_DEPTH} levels"
    try:
        message = _DECODER.decode(text)
    except RecursionError:
        raise _Unreadable(deep) from None
    # brackets inside strings count too: the walk only runs when nesting is possible
    if text.count("[") + text.count("{") > MAX_DEPTH and _protocol.deeper_than(message):
        raise _Unreadable(deep)
    if _SURROGATE.search(text):   # JSON allows "\ud800" alone; no text can carry it
        try:
            json.dumps(message, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _Unreadable("a lone surrogate (a \\ud800-\\udfff escape not in a "
                              "pair), which is not Unicode text") from None
    return message


#: A ``\\uD800``-``\\uDFFF`` escape in a reply line: the slow check only runs then.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _show_json(value: Any) -> str:
    """A JSON value as the engine wrote it, cut short, for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _show(data: bytes) -> str:
    """A bad line, quoted and cut short, for a message."""
    shown = repr(data[:_SHOW].rstrip(b"\r\n"))
    return shown + ("..." if len(data) > _SHOW else "")


def _tail(text: str, limit: int) -> str:
    """The last ``limit`` characters: the end of a log is what explains a crash."""
    return text[-limit:] if limit > 0 else ""
