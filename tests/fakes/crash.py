"""Crashes with a traceback (exit code 1) on --at (default act) after --after answers.

``--at start`` crashes at the start of every case; ``--after 1`` crashes on the
second act of a case, in the middle of it.
"""

import sys

import _wire


def crash(request, args, state):
    print(f"engine: handling {request['cmd']} #{state.seen[request['cmd']]}", file=sys.stderr)
    raise RuntimeError("engine bug: the deck is empty")


if __name__ == "__main__":
    _wire.main(crash)
