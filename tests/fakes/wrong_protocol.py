"""Answers the handshake with protocol 2, a version this suite does not speak."""

import _wire


def future(request, args, state):
    _wire.send({"seq": request["seq"],
                "ok": {**_wire.answer(request, state), "protocol": request["protocol"] + 1}})


if __name__ == "__main__":
    _wire.main(future, at="hello")
