"""At hello, writes a forged line straight into the harness's stdout (the CI log)
through /proc/<parent>/fd/1, then answers as echo does; says on stderr whether it
could."""

import os
import sys

import _wire


def misbehave(request, args, state):
    if request["cmd"] == "hello":
        try:
            with open(f"/proc/{os.getppid()}/fd/1", "w") as log:
                log.write("FORGED through /proc/PPID/fd/1\n")
        except OSError as exc:
            print(f"could not open the harness's stdout: {exc}", file=sys.stderr)
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(misbehave, at="hello", rulesets=("vision",))
