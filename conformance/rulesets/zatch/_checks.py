"""What the Zatch properties share: reading a trace, comparing states the way the
seed decides them (`same`), and replaying the state before a step (`prelude`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

from conformance.ruleset import Trace, Violation, record_traits
from conformance.rulesets.zatch import expected as ex
from conformance.rulesets.zatch import strategies as gen

State = dict[str, Any]


# -- shared readers ------------------------------------------------------------------------

def _by(do: dict[str, Any]) -> str:
    by: str = do.get("by") or next(iter(do.values()))["by"]
    return by


def note(scenario: gen.Scenario) -> None:
    """Record the vocabulary this example reached (the generator-coverage counts)."""
    record_traits(gen.traits(scenario))


def short(step: dict[str, Any]) -> str:
    return json.dumps(step["do"], ensure_ascii=False)[:120]


def accepted(trace: Trace, scenario: gen.Scenario, i: int, want: bool = True,
             because: str = "") -> None:
    """Step ``i`` must be accepted (``want``) or rejected; ``because`` names the fact of the
    seed, a reading or the vocabulary that decided it, for the failure message."""
    got = trace.replies[i]["accepted"]
    if got != want:
        verb = "accepted" if got else f"rejected ({trace.replies[i].get('reason')!r})"
        raise Violation(f"step {i + 1} {short(scenario['steps'][i])} was {verb}; the rules "
                        f"{'allow' if want else 'forbid'} it here"
                        + (f": {because}" if because else ""),
                        expect={i: {"outcome": "accepted" if want else "rejected"}})


def replayable(violation: Violation, rejected: Iterable[int]) -> Violation:
    """``violation``, its ``expect`` completed with the steps the seed refuses.

    A catalogue case's step without an ``outcome`` demands that the action is accepted,
    and a counterexample replays every step of the scenario, those after the violating
    one too; so it replays faithfully only when each step the seed refuses says
    ``outcome: rejected``.  A violation without ``expect`` is left alone: its
    counterexample gets the placeholder.  The violation is completed in place, so
    Hypothesis still sees it raised where the property found it.
    """
    if violation.expect:
        expect: dict[int, dict[str, Any]] = {i: {"outcome": "rejected"} for i in rejected}
        for i, block in violation.expect.items():
            expect[i] = {**expect.get(i, {}), **block}
        violation.expect = dict(sorted(expect.items()))
    return violation


@contextlib.contextmanager
def outcomes(rejected: Iterable[int]) -> Iterator[None]:
    """Complete any `Violation` raised inside with the steps the seed refuses (indices
    into the scenario's steps, from the property's oracle, never from an engine)."""
    refused = list(rejected)
    try:
        yield
    except Violation as exc:
        replayable(exc, refused)
        raise


def same(observed: State, want: State, i: int, why: str, seed: bool = False,
         unplaced: set[str] | None = None) -> None:
    """``observed`` must equal ``want`` (piles compared as sets).  ``seed``: ``want`` is the
    seed's own answer (from the setup through `expected`, no observation of an engine), so
    the violation carries it as the expectation of step ``i`` (`seed_block`).  ``unplaced``:
    cards whose place only a reading decides (`placed_by_reading`), left out of both."""
    hidden = unplaced or set()
    got = ex.canonical(ex.unplaced(observed, hidden))
    exp = ex.canonical(ex.unplaced(want, hidden))
    wrong = [(kind, name, key, value) for kind in ("cards", "players")
             for name, fields in exp[kind].items() for key, value in fields.items()
             if got[kind].get(name, {}).get(key) != value]
    if wrong:
        diffs = [f"{kind}.{name}.{key}: expected {value!r}, observed "
                 f"{got[kind].get(name, {}).get(key)!r}" for kind, name, key, value in wrong]
        block = seed_block(want, wrong, piles=not hidden) if seed else {}
        raise Violation(f"after step {i + 1}, {why}: " + "; ".join(diffs[:4]),
                        expect={i: block} if block else None)


PILES = ("hand", "field", "discard")


def seed_block(want: State, wrong: list[tuple[str, str, str, Any]],
               piles: bool = True) -> dict[str, Any]:
    """The ``expect`` block of the fields that differ, with the seed's values.  A pile is
    stated as a set (``{unordered: [...]}``, the only form the vocabulary accepts): the
    seed orders no pile.  Without ``piles`` (some card's place is a reading's, so no pile's
    whole content is the seed's) the piles are left out; the cards' zones stay."""
    block: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, name, key, value in wrong:
        if kind == "players" and key in PILES:
            if not piles:
                continue
            value = {"unordered": list(value)}
        block.setdefault(kind, {}).setdefault(name, {})[key] = value
    return block


def unchanged(trace: Trace, scenario: gen.Scenario, i: int) -> None:
    """A rejected action changes nothing."""
    if i > 0:
        same(trace.states[i], trace.states[i - 1], i, "a rejected action changed the state")


def effect_of(scenario: gen.Scenario, cid: str) -> dict[str, Any]:
    effect: dict[str, Any] = ex.card_of(scenario["setup"], cid)[2].get("effect", {})
    return effect


def can_negate(jammer: dict[str, Any], effect: dict[str, Any]) -> bool:
    """nonbattle •6: only a jammer that negates non-battle spells negates one, and such a
    jammer negates nothing else (docs/rulesets/zatch.md, `negates`)."""
    spell = effect.get("kind") == "non_battle_spell"
    return spell == (jammer.get("negates") == "non_battle_spells")


def by_reading(scenario: gen.Scenario, i: int) -> set[str]:
    """The cards used from a hand up to step ``i`` whose place is a reading's, not the
    seed's (`expected.placed_by_reading`): a seed-basis comparison after step ``i`` skips
    only where they are."""
    return ex.placed_by_reading(scenario["setup"], scenario["steps"][:i + 1])


def prelude(scenario: gen.Scenario, upto: int) -> State:
    """The seed's state after the steps before ``upto``: passes, and uses nobody answers."""
    state = ex.start(scenario["setup"])
    for step in scenario["steps"][:upto]:
        if "use" in step["do"]:
            cid, by = step["do"]["use"], step["do"]["by"]
            state = ex.use(state, cid, by, effect_of(scenario, cid))
    return state
