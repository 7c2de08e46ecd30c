"""Answers with one valid but enormous line (--bytes, default 2 MB)."""

import json

import _wire


def huge(request, args, state):
    event = {"log": "x" * args.bytes}
    reply = {"seq": request["seq"], "ok": {"accepted": True, "events": [event]}}
    _wire.send_raw(json.dumps(reply).encode() + b"\n")


if __name__ == "__main__":
    _wire.main(huge, options=lambda p: p.add_argument("--bytes", type=int, default=2_000_000))
