"""The JSON Lines protocol as data, and its server side for any Python engine.

The schemas in ``conformance/schemas/protocol/`` are the contract (docs/protocol.md
is its prose); this module says which one applies to a message, checks it, and
runs `serve`, the server loop by which a Python engine needs no protocol code.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from typing import Any, BinaryIO

from conformance import _schemas
from conformance._engine import PROTOCOL_VERSION, Engine, ProtocolViolation, Unsupported

#: Every command, in the order a session uses them (``play`` is start plus acts).
COMMANDS = ("hello", "start", "act", "observe", "play", "stop")

#: Commands an engine may answer with ``skipped`` (hello and stop may not).
SKIPPABLE = frozenset({"start", "act", "observe", "play"})

#: The optional hello capabilities that save round trips: the state after an ``act``
#: in its reply, and ``play``, a whole game (start and every act) in one request.
OBSERVE_IN_ACT = "observe_in_act"
PLAY = "play"

_SCHEMA_DIR = ("schemas", "protocol")


#: The compiled check of each protocol schema by name, looked up once per message
#: without `_schemas.check`'s argument hashing: it runs twice on every round trip.
_CHECKS: dict[tuple[str, str | None], _schemas.Check] = {}


def problem(name: str, message: Any, entry: str | None = None) -> str | None:
    """Why ``message`` does not match schema ``name`` (or its ``$defs/<entry>``), in one
    line; None if it does.  The compiled check answers; the full validator only words
    a failure.
    """
    check = _CHECKS.get((name, entry))
    if check is None:
        check = _CHECKS[name, entry] = _schemas.check(*_SCHEMA_DIR, f"{name}.json",
                                                      entry=entry)
    if check(message):
        return None
    error = _schemas.best_error(message, *_SCHEMA_DIR, f"{name}.json", entry=entry)
    return None if error is None else f"{error.json_path}: {error.message:.300}"


def check_answer(cmd: str, answer: Any) -> Any:
    """An engine's answer to ``cmd``, checked against the ``ok`` part of its reply schema
    (``$defs/answer``), as a subprocess's reply is; a violation raises `ProtocolViolation`
    naming the schema.  The answer comes back `normalize`d.
    """
    checked = answer
    if cmd == "hello" and isinstance(answer, dict):
        checked = {"protocol": PROTOCOL_VERSION, **answer}  # in-process engines need not say
    why = problem(f"reply-{cmd}", checked, "answer")
    if why:
        raise ProtocolViolation(
            f"{cmd}() answered {answer!r:.120}, which does not match reply-{cmd}.json at "
            f"{why}; see docs/protocol.md for the shape of the answer")
    return normalize(cmd, checked)


def normalize(cmd: str, answer: Any) -> Any:
    """A valid answer in the one shape the runner reads: act replies always carry
    ``events`` and ``reason``, hello replies ``capabilities``."""
    if cmd == "act":
        return {"accepted": answer["accepted"], "events": answer.get("events", []),
                "reason": answer.get("reason")}
    if cmd == "hello":
        info = {"name": answer["name"], "version": answer["version"],
                "rulesets": answer["rulesets"], "capabilities": answer.get("capabilities", {})}
        if "vocabulary" in answer:   # the vocabulary version per ruleset it speaks
            info["vocabulary"] = answer["vocabulary"]
        return info
    return answer


def request_schema(message: Any) -> str:
    """The schema a request must match (``request-<cmd>``); unknown commands -> ``""``."""
    cmd = message.get("cmd") if isinstance(message, dict) else None
    return f"request-{cmd}" if cmd in COMMANDS else ""


def reply_schema(cmd: str, reply: Any) -> str:
    """The schema a reply to ``cmd`` must match, chosen by its one outcome key; ``""``
    when it has none (none of ok/skipped/error, or a ``skipped`` that ``cmd`` may not be)."""
    if not isinstance(reply, dict):
        return ""
    outcomes = [key for key in ("ok", "skipped", "error") if key in reply]
    if len(outcomes) != 1 or (outcomes[0] == "skipped" and cmd not in SKIPPABLE):
        return ""
    return f"reply-{cmd}" if outcomes[0] == "ok" else f"reply-{outcomes[0]}"


def encode(message: dict[str, Any], *, ascii_only: bool = False) -> bytes:
    """One protocol line: compact JSON, UTF-8, a single trailing newline (JSON escapes
    every control character inside strings).  NaN and Infinity raise ValueError, a
    structure that contains itself RecursionError: keeping the table of containers
    to say "circular" sooner would cost a quarter of the encoding.
    """
    text = (_ASCII if ascii_only else _UTF8).encode(message)
    return text.encode("utf-8") + b"\n"


# Built once: json.dumps with any option builds a new encoder on every call.
_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False,
                          check_circular=False)
_UTF8 = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                         check_circular=False)


_decode = json.JSONDecoder().decode

#: How deep an answer may nest objects and arrays: far deeper than any state, and
#: shallow enough that nothing after the parse (schema checks, matching, report
#: writing, all recursive) runs out of stack on it.
MAX_DEPTH = 100


def deeper_than(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests objects and arrays more than ``limit`` deep (no recursion)."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = [child for container in level
                 for child in (container.values() if isinstance(container, dict) else container)
                 if isinstance(child, dict | list)]
    return False


def json_copy(value: Any) -> Any:
    """What a value becomes on the wire and back (raises as the JSON encoder does).

    Also a snapshot: it shares no container with ``value``, so an engine that
    later changes what it answered changes nothing here.
    """
    return _decode(_UTF8.encode(value))   # NaN raises, as the wire refuses it


# -- the server side -----------------------------------------------------------------


def serve(engine: Engine, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Answer protocol requests from ``stdin`` on ``stdout`` until ``stop`` or EOF.

    Never dies on a bad request: each one gets an ``error`` reply and the loop
    goes on.  `Unsupported` becomes a ``skipped`` reply, any other exception
    an ``error`` reply with its traceback.  While the engine runs, ``print``
    goes to stderr, because stdout carries nothing but replies.
    """
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    try:
        with contextlib.redirect_stdout(sys.stderr):
            for line in stdin:
                reply, stop = handle(engine, line)
                stdout.write(_encode_reply(reply))
                stdout.flush()
                if stop:
                    return
    finally:
        with contextlib.suppress(Exception):
            engine.close()


def handle(engine: Engine, line: bytes | str) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether the loop should stop."""
    try:
        request = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        return _error(None, f"request is not JSON: {exc}"), False
    seq = request.get("seq") if isinstance(request, dict) else None
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        seq = None
    name = request_schema(request)
    if not name:
        return _error(seq, f"unknown request {request!r:.120}; expected cmd in {COMMANDS}"), False
    why = problem(name, request)
    if why:
        return _error(seq, f"malformed {request['cmd']} request: {why}"), False
    cmd = request["cmd"]
    try:
        return {"seq": seq, "ok": _dispatch(engine, request)}, cmd == "stop"
    except Unsupported as exc:
        if cmd in SKIPPABLE:
            skipped = {"reason": exc.reason or "unsupported"}
            if exc.kind is not None:
                skipped["kind"] = exc.kind
            return {"seq": seq, "skipped": skipped}, False
        return _error(seq, f"{cmd} cannot be skipped: {exc.reason}"), False
    except Exception as exc:  # an engine bug is an answer, not the end of the server
        return _error(seq, f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=12)), False


def _dispatch(engine: Engine, request: dict[str, Any]) -> Any:
    cmd = request["cmd"]
    if cmd == "hello":
        if request["protocol"] != PROTOCOL_VERSION:
            raise ValueError(f"protocol mismatch: the harness speaks protocol "
                             f"{request['protocol']}, this server speaks {PROTOCOL_VERSION}; "
                             "upgrade the older side")
        # only an engine that lists mutants is asked for one, so `hello(mutant=...)`
        # is not part of the `Engine` protocol
        hello: Any = engine.hello
        mutant = request.get("mutant")
        return served_hello(check_answer("hello", hello(mutant=mutant) if mutant else hello()))
    if cmd == "start":
        engine.start(request["ruleset"], request["setup"])
        return None
    if cmd == "act":
        reply = check_answer("act", engine.act(request["action"]))
        if request.get("observe"):
            # A failing observe must not turn the act into an error or a skip:
            # without `state` the harness asks observe itself and hears why.
            with contextlib.suppress(Exception):
                reply["state"] = check_answer("observe", engine.observe())
        return reply
    if cmd == "observe":
        return check_answer("observe", engine.observe())
    if cmd == "play":
        # The calls the harness would make one request at a time; any Unsupported or
        # exception ends the whole play (the harness then replays it stepwise, where the
        # act and observe branches word what broke).  Each answer is encoded as it comes:
        # a snapshot however the engine reuses what it answered, and no copy.
        engine.start(request["ruleset"], request["setup"])
        pieces = []
        for step in request["steps"]:
            answer = engine.act(step["action"])
            if step.get("observe") and isinstance(answer, dict):
                answer = {**answer, "state": engine.observe()}
            pieces.append(_UTF8.encode(answer))
        return _Encoded('{"replies":[' + ",".join(pieces) + "]}")
    return None  # stop: close() runs in serve's finally, after the reply is out


def served_hello(info: dict[str, Any]) -> dict[str, Any]:
    """The ``ok`` of the hello reply `serve` writes for an engine whose own hello said
    ``info``: with the protocol version and the capabilities `serve` adds.  An
    in-process transcript uses it too, so it replays through `serve` line for line."""
    capabilities = {OBSERVE_IN_ACT: True, PLAY: True, **info["capabilities"]}
    return {**info, "capabilities": capabilities, "protocol": PROTOCOL_VERSION}


class _Encoded(str):
    """An ``ok`` value already encoded as JSON text (a play's replies)."""


def _encode_reply(reply: dict[str, Any]) -> bytes:
    ok = reply.get("ok")
    if isinstance(ok, _Encoded):
        return f'{{"seq":{reply["seq"]},"ok":{ok}}}\n'.encode()
    try:
        return encode(reply)
    except (TypeError, ValueError, RecursionError) as exc:  # JSON cannot carry it
        return encode(_error(reply.get("seq"), f"the engine's answer is not JSON data: {exc}"))


def _error(seq: int | None, message: str, detail: str = "") -> dict[str, Any]:
    error: dict[str, Any] = {"message": message}
    if detail:
        error["traceback"] = detail
    return {"seq": seq, "error": error}
