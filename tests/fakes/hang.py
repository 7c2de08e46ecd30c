"""Never answers --at (default act): loops forever, as a deadlocked engine would."""

import sys

import _wire


def hang(request, args, state):
    print(f"engine: thinking about {request['cmd']} forever", file=sys.stderr, flush=True)
    _wire.hang()


if __name__ == "__main__":
    _wire.main(hang)
