"""The differential property: a bug finder that compares the engine with the reference engine.

It is never a verdict (``compares_reference=True``): the reference engine's
answers are one engine's, not the seed's.  Its failures are reported in their
own section, "differs from the reference engine", with every difference.

It compares only what the rules fix, so that an engine that follows the seed
and makes other choices where the seed is silent shows no difference:

- whether each action was accepted;
- the events of each step as a multiset: the order of events is left to the
  cases and properties of the rules that fix an order (3.2.5 shuffle before
  the next deck operation), since many orders are not fixed by the seed;
- every observed attribute of cards on the field, those the vocabulary marks
  ``"x-compare": "set"`` (``names``) as sets: order and repeats ignored;
- only the zone and owner of cards elsewhere: the seed does not say what a
  card in the hand, deck or 冥界 "has" (power, damage, names after a modifier
  ended);
- players' nodes and deck size, and the cards in each zone as a set;
- names without empty strings (a card with no name may be ``[]`` or ``['']``);
- nothing about which card of a shuffled deck ended where: once a deck was
  shuffled its cards are compared as an anonymous multiset.
"""

from __future__ import annotations

import json
from typing import Any

from conformance import vocabulary
from conformance._properties import Play, Scenario, Trace, Violation, invariant
from conformance._results import Mismatch
from conformance.rulesets.vision import exercised as X
from conformance.rulesets.vision import strategies as S
from conformance.rulesets.vision._support import short

#: Zone lists of a player compared as sets (the order within a zone is not fixed).
_ZONES = ("hand", "field", "graveyard")
#: What is compared for a card that is not on the field.
_OFF_FIELD = ("zone", "owner")
#: Shown for a key one engine has and the other does not.
ABSENT = "(absent)"


def _deck_cards(scenario: Scenario) -> dict[str, str]:
    return {c["id"]: p for p in ("p1", "p2")
            for c in scenario["setup"].get(p, {}).get("deck", [])}


def _card(card: Any) -> Any:
    """What the rules fix about one observed card."""
    if not isinstance(card, dict):
        return card
    if card.get("zone", "field") != "field":
        return {k: card[k] for k in _OFF_FIELD if k in card}
    card = dict(card)
    if isinstance(card.get("names"), list):
        card["names"] = [n for n in card["names"] if n != ""]
    for key in vocabulary.set_valued("vision")["card_state"]:
        if isinstance(card.get(key), list):
            card[key] = as_set(card[key])
    return card


def as_set(values: list[Any]) -> list[Any]:
    """A list compared as a set: one of each element, in a fixed order."""
    return sorted({_key(v): v for v in values}.values(), key=_key)


def _player(player: Any) -> Any:
    if not isinstance(player, dict):
        return player
    player = dict(player)
    for zone in _ZONES:
        if isinstance(player.get(zone), list):
            player[zone] = sorted(player[zone], key=_key)
    for key in vocabulary.set_valued("vision")["player_state"]:
        if isinstance(player.get(key), list):
            player[key] = as_set(player[key])
    return player


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def normalised(trace: Trace, scenario: Scenario) -> list[Any]:
    """The trace reduced to what the rules fix (module docstring), one dict per step."""
    decks = _deck_cards(scenario)
    shuffled: set[str] = set()

    def mask(value: Any) -> Any:
        if isinstance(value, str) and decks.get(value) in shuffled:
            return f"<card of {decks[value]}'s shuffled deck>"
        if isinstance(value, list):
            return [mask(v) for v in value]
        if isinstance(value, dict):
            return {k: mask(v) for k, v in value.items()}
        return value

    out: list[Any] = []
    for reply, state in zip(trace.replies, trace.states, strict=True):
        events = []
        for event in reply.get("events", []):
            events.append(mask(event))
            if event.get("type") == "shuffle":
                shuffled.add(event.get("player"))
        cards = state.get("cards", {})
        kept = {cid: _card(mask(c)) for cid, c in cards.items() if decks.get(cid) not in shuffled}
        hidden = sorted(_key(_card(mask(c))) for cid, c in cards.items()
                        if decks.get(cid) in shuffled)
        players = {p: _player(mask(v)) for p, v in state.get("players", {}).items()}
        out.append({"accepted": reply["accepted"], "events": sorted(events, key=_key),
                    "cards": kept, "shuffled cards": hidden, "players": players})
    return out


def differences(engine: Any, reference: Any, path: str = "") -> list[Mismatch]:
    """Every place the two values differ: ``Mismatch(path, reference, engine)``."""
    if isinstance(engine, dict) and isinstance(reference, dict):
        found = []
        for key in sorted(set(engine) | set(reference), key=str):
            found += differences(engine.get(key, ABSENT), reference.get(key, ABSENT),
                                 f"{path}.{key}")
        return found
    if (isinstance(engine, list) and isinstance(reference, list)
            and len(engine) == len(reference)):
        return [m for i, (a, b) in enumerate(zip(engine, reference, strict=True))
                for m in differences(a, b, f"{path}[{i}]")]
    if engine != reference or type(engine) is not type(reference):
        return [Mismatch(path.lstrip("."), reference, engine)]
    return []


@invariant("vision/prop/differential",
           rules=["vision/IR-12/p1", "vision/IR-12/p2", "vision/IR-12.3.1",
                  "vision/IR-12.4", "vision/IR-6.1.10", "vision/IR-9.2.2",
                  "vision/IR-3.2.5", "vision/QA-269"],
           scenarios=S.any_scenarios(), compares_reference=True,
           exercises=X.any_kind)
def differential(play: Play, scenario: Scenario) -> None:
    """The engine agrees with the reference engine on what the rules fix (see the
    module docstring) for every step of the same scenario."""
    mine = normalised(play.run(scenario), scenario)
    theirs = normalised(play.reference.run(scenario), scenario)
    found = []
    for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        step = f"step {i + 1} {short(scenario['steps'][i]['do'])}"
        found += [Mismatch(f"{step}: {m.path}", m.expected, m.observed)
                  for m in differences(a, b)]
    if found:
        raise Violation(f"{len(found)} difference(s) from the reference engine; the first at "
                        f"{found[0].path}", mismatches=found)
