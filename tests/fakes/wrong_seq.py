"""Answers --at (default act) with a seq that is not the request's."""

import _wire


def misnumber(request, args, state):
    _wire.send({"seq": request["seq"] + 1000, "ok": _wire.answer(request, state)})


if __name__ == "__main__":
    _wire.main(misnumber)
