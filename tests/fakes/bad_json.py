"""Answers --at (default act) with a line Python's json module would read, wrongly.

--kind says how: ``deep`` (arrays nested deeper than the decoder recurses),
``nested`` (500 levels: readable, but deeper than the suite reads), ``huge-number``
(1e999, read as inf), ``nan`` and ``infinity`` (the literals), ``float-seq`` (the
right seq as 5.0), ``stale-float-seq`` (the previous request's seq, as a float),
``duplicate-key`` (two "accepted" keys, the last one winning in Python) and
``bom`` (a UTF-8 byte order mark before the object).
"""

import json

import _wire


def reply(seq, ok):
    """A reply line with ``ok`` (JSON text) written as is."""
    return f'{{"seq": {seq}, "ok": {ok}}}'


def act(event):
    return f'{{"accepted": true, "events": [{event}]}}'


def deep(levels):
    """An event holding arrays nested ``levels`` deep (events must be objects)."""
    return f'{{"deep": {"[" * levels + "]" * levels}}}'


def misread(request, args, state):
    seq, kind = request["seq"], args.kind
    ok = json.dumps(_wire.answer(request, state))
    lines = {
        "deep": lambda: reply(seq, act(deep(100_000))),
        "nested": lambda: reply(seq, act(deep(500))),
        "huge-number": lambda: reply(seq, act('{"damage": 1e999}')),
        "nan": lambda: reply(seq, act('{"damage": NaN}')),
        "infinity": lambda: reply(seq, act('{"damage": -Infinity}')),
        "float-seq": lambda: reply(f"{seq}.0", ok),
        "stale-float-seq": lambda: reply(f"{seq - 1}.0", ok),
        "duplicate-key": lambda: reply(seq, '{"accepted": false, "reason": "no", '
                                            '"accepted": true}'),
        "bom": lambda: "\ufeff" + reply(seq, ok),
    }
    if kind not in lines:
        raise SystemExit(f"unknown --kind {kind}")
    _wire.send_raw(lines[kind]().encode("utf-8") + b"\n")


if __name__ == "__main__":
    _wire.main(misread, options=lambda p: p.add_argument("--kind", required=True))
