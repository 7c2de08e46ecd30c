"""Partial matching of a step's expectations against what the engine did.

Expectations are partial: a case asserts only what its ruling decides.  Dicts
match when every expected key matches; lists element-wise with equal length;
scalars by equality; ``{unordered: [...]}`` matches a list holding the same
elements as a set: in any order, repeats ignored (for the attributes a
vocabulary marks ``"x-compare": "set"``, e.g. a Vision card's names; the
vocabulary accepts the form nowhere else).  Events are matched by pattern
(every key given equal).
"""

from __future__ import annotations

from typing import Any

from conformance._results import Mismatch

_MISSING = "<missing>"

#: The one key of an expected object that compares a list as a set.
UNORDERED = "unordered"

#: Keys of ``expect`` compared against ``observe()``.
STATE_KEYS = ("cards", "players")


def needs_state(expect: dict[str, Any]) -> bool:
    """Only observe the engine when the step asserts something about state."""
    return not expect.keys().isdisjoint(STATE_KEYS)


def match_step(expect: dict[str, Any], reply: dict[str, Any], state: dict[str, Any] | None,
               where: str) -> list[Mismatch]:
    """Every way in which ``reply``/``state`` differ from ``expect``; empty when they match."""
    out: list[Mismatch] = []
    # a step that expects nothing about the outcome still assumes the action happened
    wanted = expect.get("outcome", "accepted")
    observed = "accepted" if reply["accepted"] else "rejected"
    if observed != wanted:
        detail = observed if reply["accepted"] else f"rejected: {reply.get('reason')}"
        out.append(Mismatch(f"{where}: outcome", wanted, detail))
    for key in STATE_KEYS:
        if key in expect:
            observed = (state or {}).get(key, _MISSING)
            _match(expect[key], observed, f"{where}: {key}", out)
    if "events" in expect:
        _match_events(expect["events"], reply.get("events", []), f"{where}: events", out)
    return out


def _match(expected: Any, observed: Any, path: str, out: list[Mismatch]) -> None:
    if isinstance(expected, dict) and set(expected) == {UNORDERED}:
        if not _same_elements(expected[UNORDERED], observed):
            out.append(Mismatch(path, expected, observed))
    elif isinstance(expected, dict):
        if not isinstance(observed, dict):
            out.append(Mismatch(path, expected, observed))
            return
        for key, value in expected.items():
            _match(value, observed.get(key, _MISSING), f"{path}.{key}", out)
    elif isinstance(expected, list):
        if not isinstance(observed, list) or len(observed) != len(expected):
            out.append(Mismatch(path, expected, observed))
            return
        for i, (e, o) in enumerate(zip(expected, observed, strict=True)):
            _match(e, o, f"{path}[{i}]", out)
    elif observed == _MISSING or not _scalar_equal(expected, observed):
        out.append(Mismatch(path, expected, observed))


def _same_elements(expected: Any, observed: Any) -> bool:
    """The same set: each expected element matches some observed one and each observed
    element is matched by some expected one; order and repeats do not count."""
    if not (isinstance(expected, list) and isinstance(observed, list)):
        return False
    return (all(any(event_matches(e, o) for o in observed) for e in expected)
            and all(any(event_matches(e, o) for e in expected) for o in observed))


def _scalar_equal(expected: Any, observed: Any) -> bool:
    # bool is an int in Python; a case saying `true` must not accept 1.
    if isinstance(expected, bool) or isinstance(observed, bool):
        return type(expected) is type(observed) and expected == observed
    equal: bool = expected == observed   # JSON values: == is a bool
    return equal


def event_matches(pattern: Any, event: Any) -> bool:
    """Whether ``event`` matches ``pattern`` as an expectation does: for an event, every
    key of the pattern is present with a matching value."""
    found: list[Mismatch] = []
    _match(pattern, event, "", found)
    return not found


def _match_events(expect: dict[str, Any], events: list[dict[str, Any]], path: str,
                  out: list[Mismatch]) -> None:
    for i, pattern in enumerate(expect.get("include", [])):
        if not any(event_matches(pattern, e) for e in events):
            out.append(Mismatch(f"{path}.include[{i}]", pattern, events))
    for i, pattern in enumerate(expect.get("exclude", [])):
        hits = [e for e in events if event_matches(pattern, e)]
        if hits:
            out.append(Mismatch(f"{path}.exclude[{i}]", f"no event like {pattern}", hits))
    for i, rule in enumerate(expect.get("count", [])):
        hits = [e for e in events if event_matches(rule["match"], e)]
        if len(hits) != rule["n"]:
            out.append(Mismatch(f"{path}.count[{i}]",
                                f"exactly {rule['n']} event(s) like {rule['match']}", hits))
    position = 0
    for i, pattern in enumerate(expect.get("order", [])):
        while position < len(events) and not event_matches(pattern, events[position]):
            position += 1
        if position == len(events):
            out.append(Mismatch(f"{path}.order[{i}]",
                                f"{pattern} after the previous pattern", events))
            break
        position += 1
