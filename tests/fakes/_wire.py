"""The protocol loop of the fake engines, in plain stdlib.

The fakes stand in for engines written in other languages, so they do not
import `conformance`: they speak the wire format by hand, and each one breaks
it in a single, deliberate way.  A fake is ``main(misbehave)``: requests for
the commands named by ``--at`` (from the ``--after``-th + 1 on) go to
``misbehave(request, args, state)`` instead of the well-behaved answer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any


class State:
    """The echo game: remembers the setup and every action."""

    def __init__(self, rulesets: list[str]) -> None:
        self.rulesets = rulesets
        self.ruleset: str | None = None
        self.setup: dict[str, Any] | None = None
        self.actions: list[dict[str, Any]] = []
        self.seen: Counter[str] = Counter()


def answer(request: dict[str, Any], state: State) -> Any:
    """What a correct engine puts in ``ok``."""
    cmd = request["cmd"]
    if cmd == "hello":
        return {"name": "echo", "version": "1.0", "rulesets": state.rulesets,
                "capabilities": {"pid": os.getpid()}, "protocol": request["protocol"]}
    if cmd == "start":
        state.ruleset, state.setup, state.actions = request["ruleset"], request["setup"], []
        return None
    if cmd == "act":
        state.actions.append(request["action"])
        return {"accepted": True, "events": [{"echo": request["action"]}]}
    if cmd == "observe":
        return {"pid": os.getpid(), "ruleset": state.ruleset, "setup": state.setup,
                "actions": state.actions}
    return None


def send(message: Any) -> None:
    send_raw(json.dumps(message).encode("utf-8") + b"\n")


def send_raw(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def ok(request: dict[str, Any], state: State) -> None:
    send({"seq": request["seq"], "ok": answer(request, state)})


def hang() -> None:
    while True:
        time.sleep(60)


Misbehave = Callable[[dict[str, Any], argparse.Namespace, State], None]


def main(misbehave: Misbehave | None = None, *, at: str = "act",
         options: Callable[..., None] | None = None,
         rulesets: tuple[str, ...] = ("echo", "vision"),
         on_eof: Callable[[], None] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--at", default=at, help="comma-separated commands to misbehave on")
    parser.add_argument("--after", type=int, default=0, help="answer this many correctly first")
    parser.add_argument("--log", help="append every request line to this file")
    if options:
        options(parser)
    args = parser.parse_args()
    misbehave_at = set(args.at.split(","))
    state = State(list(rulesets))
    for raw in sys.stdin.buffer:
        if args.log:
            with open(args.log, "ab") as log:
                log.write(raw)
        request = json.loads(raw)
        cmd = request["cmd"]
        state.seen[cmd] += 1
        if misbehave and cmd in misbehave_at and state.seen[cmd] > args.after:
            misbehave(request, args, state)
            continue
        ok(request, state)
        if cmd == "stop":
            return
    if on_eof:
        on_eof()
