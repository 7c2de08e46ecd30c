"""Which traits a Vision scenario has: short labels of what it exercises.

Traits are this pack's own coverage labels, finer than the vocabulary's
features (conformance/vocabulary.py: the schema elements an item uses, which
decide the vocabulary version it needs) and never written into a report.

A property is only as strong as what its strategy generates.  Every property
records these traits with Hypothesis ``event()`` (see `_support.run_accepted`),
so ``--hypothesis-show-statistics`` shows how often each was generated, and
tests/rulesets/test_vision_generators.py fails when a trait the property's rules
concern is never generated at the default profile.

Trait names are short strings: ``instr:<op>``, ``sel:<kind>`` (``card``,
``chosen-1``, ``chosen-many``, ``this``, ``all-0``, ``all-1``, ``all-many``),
``zone:<zone>``, ``<zone>:<player>``, ``action:<kind>``, ``clause:<kind>``,
``trigger:<event>``, ``power:<kind>`` and ``power:<kind>-repeated``,
``reveal:<form>``, ``fail:first|middle|last|none``, and a few single ones
(``link-names``, ``renamed``, ``negation:repeated``,
``modifiers:continuous+instruction``, ``modifier:cost:<player>``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.rulesets.vision.expected import Board, resolve

PLAYERS = ("p1", "p2")
ZONES = ("deck", "hand", "field", "graveyard")
ACTIONS = ("play", "put_onto_field", "resolve", "battle_damage", "draw")


def traits(scenario: dict[str, Any]) -> set[str]:
    """The traits ``scenario`` uses (see the module docstring)."""
    found: set[str] = set()
    setup = scenario["setup"]
    board = Board.from_setup(setup)
    cards = {}
    for player in PLAYERS:
        for zone in ZONES:
            for card in setup.get(player, {}).get(zone, []):
                cards[card["id"]] = card
                found |= {f"zone:{zone}", f"{zone}:{player}"}
                _card(card, player, found)
    kinds: Counter[str] = Counter()
    negated: Counter[str] = Counter()
    for step in scenario["steps"]:
        do = step["do"]
        kind = next((k for k in ACTIONS if k in do), "?")
        found.add(f"action:{kind}")
        if kind == "resolve":
            spec = do["resolve"]
            effect, targets = spec.get("effect", []), spec.get("targets", [])
            me = spec.get("by", "p1")
        elif kind == "play":
            card = cards.get(do["play"], {})
            effect = [i for c in card.get("texts", []) if c["kind"] == "play"
                      for i in c.get("effect", [])]
            targets, me = do.get("targets", []), do.get("by", "p1")
        else:
            continue
        for instruction in effect:
            _instruction(instruction, targets, board, me, found, kinds, negated)
        if kind == "resolve" and len(scenario["steps"]) == 1:
            _failure(effect, setup, me, targets, spec.get("source"), found)
    found |= {f"power:{k}-repeated" for k, n in kinds.items() if n > 1}
    if any(n > 1 for n in negated.values()):
        found.add("negation:repeated")
    if "modifier:continuous-power" in found and "instr:power" in found:
        found.add("modifiers:continuous+instruction")
    return found


def _card(card: dict[str, Any], player: str, found: set[str]) -> None:
    if card.get("link_names"):
        found.add("link-names")
    if "x" in card:
        found.add("power:x")
    for clause in [*card.get("texts", []), *[g for c in card.get("texts", [])
                                              for g in c.get("gain", [])]]:
        found.add(f"clause:{clause['kind']}")
        found |= {f"instr:{op}" for instruction in clause.get("effect", [])
                  for op in instruction}
        if clause.get("unnegatable"):
            found.add("clause:unnegatable")
        if clause.get("when"):
            found.add(f"trigger:{clause['when']['event']}")
        modifier = clause.get("modifier")
        if modifier and "cost" in modifier:
            found.add(f"modifier:cost:{player}")
        elif modifier:
            found |= {"modifier:continuous-power", f"power:{modifier['kind']}"}


def _instruction(instruction: dict[str, Any], targets: list[str], board: Board, me: str,
                 found: set[str], kinds: Counter[str], negated: Counter[str]) -> None:
    (op, args), = instruction.items()
    found.add(f"instr:{op}")
    target = args.get("target")
    if target == "chosen":
        found.add("sel:chosen-1" if len(targets) == 1 else "sel:chosen-many")
    elif target == "this":
        found.add("sel:this")
    elif isinstance(target, dict) and "card" in target:
        found.add("sel:card")
        if op in ("negate_text", "negate_auto"):
            negated[target["card"]] += 1
    elif isinstance(target, dict) and "all" in target:
        flt = target["all"] or {}
        for key in ("name_ref", "same_name_as"):
            if key in flt:
                found.add(f"filter:{key}")
        matched = sum(board.matches(c, flt, me) for c in board.zone)
        found.add(f"sel:all-{min(matched, 2)}".replace("all-2", "all-many"))
    if op == "power":
        kinds[args["kind"]] += 1
        found.add(f"power:{args['kind']}")
        if args["kind"] == "add" and min(args.get("attack", 0), args.get("durability", 0)) < 0:
            found.add("power:negative-add")
    if op in ("reveal", "look"):
        found.add(f"reveal:{next(k for k in ('count', 'all', 'until') if k in args)}")
        found.add(f"deck-of:{args['player']}")
    if op == "change_name":
        found.add("renamed")
    if op == "negate_text" and args.get("include_unnegatable"):
        found.add("negate:including-unnegatable")


def _failure(effect: list[dict[str, Any]], setup: dict[str, Any], me: str,
             targets: list[str], source: str | None, found: set[str]) -> None:
    """Where the seed says a one-effect scenario stops: first, middle or last part."""
    try:
        failed = resolve(Board.from_setup(setup), effect, me, targets, source)
    except (ValueError, KeyError, TypeError):
        return  # an instruction the resolution model does not cover
    if failed is None:
        found.add("fail:none")
    else:
        found.add("fail:first" if failed == 0 else
                  "fail:last" if failed == len(effect) - 1 else "fail:middle")
