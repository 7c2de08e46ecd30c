"""Its hello name and every start's error message hold a lone surrogate (the JSON
escape \\ud800 alone), which JSON's syntax allows and no Unicode text can carry."""

import _wire


def misbehave(request, args, state):
    if request["cmd"] == "hello":
        ok = _wire.answer(request, state)
        ok["name"] = "s\ud800"
        _wire.send({"seq": request["seq"], "ok": ok})
    else:
        _wire.send({"seq": request["seq"], "error": {"message": "boom \ud800"}})


if __name__ == "__main__":
    _wire.main(misbehave, at="hello,start", rulesets=("vision",))
