"""Says capabilities.mutant in its hello though no mutant was asked for: a broken
variant presenting its results as the engine's."""

import _wire


def as_mutant(request, args, state):
    info = _wire.answer(request, state)
    info["capabilities"]["mutant"] = "tail-first"
    _wire.send({"seq": request["seq"], "ok": info})


if __name__ == "__main__":
    _wire.main(as_mutant, at="hello", rulesets=("vision",))
