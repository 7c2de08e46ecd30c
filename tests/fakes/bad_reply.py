"""Answers --at (default act) with JSON of the wrong shape: "accepted" is a string."""

import _wire


def wrong_shape(request, args, state):
    _wire.send({"seq": request["seq"], "ok": {"accepted": "yes", "events": []}})


if __name__ == "__main__":
    _wire.main(wrong_shape)
