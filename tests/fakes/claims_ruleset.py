"""Claims rulesets echo and mtg, then cannot play mtg: --answer skipped or garbage."""

import _wire


def disown(request, args, state):
    if request["ruleset"] != "mtg":
        _wire.ok(request, state)
    elif args.answer == "skipped":
        _wire.send({"seq": request["seq"], "skipped": {"reason": "mtg is not implemented yet"}})
    else:
        _wire.send({"seq": request["seq"], "ok": "TODO: mtg"})


if __name__ == "__main__":
    _wire.main(disown, at="start", rulesets=("echo", "mtg"),
               options=lambda p: p.add_argument("--answer", choices=["skipped", "garbage"],
                                                default="skipped"))
