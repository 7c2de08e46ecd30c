"""Ignores stop, EOF on stdin and SIGTERM: only a kill ends it."""

import signal

import _wire


def ignore(request, args, state):
    pass


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _wire.main(ignore, at="stop", on_eof=_wire.hang)
