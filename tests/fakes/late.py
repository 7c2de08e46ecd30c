"""Answers actions marked {"slow": true} only after --delay seconds, then keeps serving."""

import time

import _wire


def late(request, args, state):
    if request["action"].get("slow"):
        time.sleep(args.delay)
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(late, options=lambda p: p.add_argument("--delay", type=float, default=2.0))
