"""Prints a start-up banner on stdout before it reads a request: the commonest mistake."""

import sys

import _wire

if __name__ == "__main__":
    sys.stdout.write("MyEngine 2.1 (c) 2024 -- ready\n")
    sys.stdout.flush()
    _wire.main(rulesets=("vision",))
