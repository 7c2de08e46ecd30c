"""Catches its own error on --at (default act) and says so in an error reply."""

import _wire

TRACEBACK = """Traceback (most recent call last):
  File "engine.py", line 42, in act
    player = players[action["by"]]
KeyError: 'p3'"""


def report(request, args, state):
    _wire.send({"seq": request["seq"],
                "error": {"message": "KeyError: 'p3'", "traceback": TRACEBACK}})


if __name__ == "__main__":
    _wire.main(report)
