"""Writes --mb megabytes (default 4) of log to stderr before each answer to --at.

A harness that does not drain stderr deadlocks here: the child blocks on a
full stderr pipe and never answers.  ``--then crash`` crashes after the flood.
"""

import sys

import _wire

LINE = b"debug: resolving effect stack, nothing interesting yet\n"


def flood(request, args, state):
    total = int(args.mb * 1_000_000)
    block = LINE * 1000
    written = 0
    while written < total:
        sys.stderr.buffer.write(block)
        written += len(block)
    sys.stderr.buffer.write(b"the last line of the flood\n")
    sys.stderr.buffer.flush()
    if args.then == "crash":
        raise RuntimeError("engine bug after the flood")
    _wire.ok(request, state)


def options(parser):
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--then", choices=["answer", "crash"], default="answer")


if __name__ == "__main__":
    _wire.main(flood, options=options)
