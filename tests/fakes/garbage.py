"""Prints a log line on stdout before its answer: the commonest engine-author mistake."""

import _wire


def chatty(request, args, state):
    _wire.send_raw(b"Loading card database... done (4127 cards)\n")
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(chatty)
