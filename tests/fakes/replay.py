"""Answers hello properly, then answers `act` with the raw bytes of a file: a fuzzing stand-in.

    python replay.py --bytes FILE [--at act]

``{seq}`` in the file is replaced by the request's seq, so a fuzzer can build
replies that are well numbered but wrong in every other way.
"""

import _wire


def options(parser):
    parser.add_argument("--bytes", required=True)


def replay(request, args, state):
    with open(args.bytes, "rb") as handle:
        data = handle.read()
    _wire.send_raw(data.replace(b"{seq}", str(request["seq"]).encode()))


if __name__ == "__main__":
    _wire.main(replay, options=options)
