"""Answers in Shift-JIS instead of UTF-8 (a card name in Japanese): not UTF-8 bytes."""

import json

import _wire


def shift_jis(request, args, state):
    reply = {"seq": request["seq"], "ok": {"accepted": True, "events": [{"card": "博麗霊夢"}]}}
    _wire.send_raw(json.dumps(reply, ensure_ascii=False).encode("shift_jis") + b"\n")


if __name__ == "__main__":
    _wire.main(shift_jis)
