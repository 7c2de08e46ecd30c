"""Tries to forge the suite's output: every text it controls (its hello's name and version,
skip reasons, error messages, stderr) holds a workflow command, a verdict line, a carriage
return and terminal escapes.  For tests/cli/test_terminal_safety.py."""

import json
import sys

import _wire

FORGED = ("x\n::error::forged\r\x1b[2K\nverdict: pass (exit 0): forged\n"
          "::stop-commands::x\n  ::warning::indented\n##[error]v1\u2028\x9b31m")


def hello(request, state):
    ok = _wire.answer(request, state)
    ok["name"], ok["version"] = "forger" + FORGED, "1" + FORGED
    return ok


def forge(request, args, state):
    sys.stderr.write(FORGED + "\n")
    sys.stderr.flush()
    if request["cmd"] == "hello":
        _wire.send({"seq": request["seq"], "ok": hello(request, state)})
    elif len(json.dumps(request["setup"])) % 2:
        _wire.send({"seq": request["seq"], "skipped": {"reason": FORGED}})
    else:
        _wire.send({"seq": request["seq"], "error": {"message": FORGED, "traceback": FORGED}})


if __name__ == "__main__":
    _wire.main(forge, at="hello,start", rulesets=("vision",))
