"""Writes half a reply line (no newline), flushes, and hangs."""

import _wire


def half(request, args, state):
    _wire.send_raw(b'{"seq": %d, "ok": {"accep' % request["seq"])
    _wire.hang()


if __name__ == "__main__":
    _wire.main(half)
