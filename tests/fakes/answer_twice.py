"""Answers --at (default act) twice."""

import _wire


def twice(request, args, state):
    _wire.ok(request, state)
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(twice)
