"""Starts a helper process that shares its pipes, reports the helper's pid, then hangs.

Stands in for wrappers (sh, npx, cargo run): killing only the direct child
would leave the helper alive, holding stdout open.
"""

import subprocess
import sys

import _wire


def spawn_and_hang(request, args, state):
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    print(f"helper pid {helper.pid}", file=sys.stderr, flush=True)
    _wire.hang()


if __name__ == "__main__":
    _wire.main(spawn_and_hang)
