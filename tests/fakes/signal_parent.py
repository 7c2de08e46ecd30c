"""Answers correctly; at its first act sends the signals named in $SIGS (e.g.
SIGHUP,SIGUSR1) to its parent, the harness."""

import os
import signal
import time

import _wire

SIGS = [getattr(signal, s) for s in os.environ["SIGS"].split(",")]


def misbehave(request, args, state):
    if not state.seen.get("done"):
        state.seen["done"] = 1
        for sig in SIGS:
            os.kill(os.getppid(), sig)
            time.sleep(0.05)
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(misbehave, at="act", rulesets=("vision",))
