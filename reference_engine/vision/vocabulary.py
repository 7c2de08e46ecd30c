"""Reading the Vision vocabulary (docs/rulesets/vision.md) into model objects.

Anything the vocabulary does not name raises `Unsupported` with the offending
key and where it was found, so a case outside the model is skipped, never
silently misread.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine.vision.model import PLAYERS, ZONES, Card, Clause, Part

PLAYER_KEYS = frozenset({"nodes", "deck", "hand", "field", "graveyard"})
CARD_KEYS = frozenset({"id", "number", "name", "type", "cost", "power", "x", "link_names",
                       "damage", "immune", "texts"})
CLAUSE_KEYS = frozenset({"kind", "unnegatable", "when", "effect", "modifier", "applies_to",
                         "gain"})
CARD_TYPES = frozenset({"character", "spell", "command"})
CLAUSE_KINDS = frozenset({"play", "auto", "continuous"})
IMMUNITIES = frozenset({"destroy", "damage", "return", "deathblow", "deathblow_state"})
FILTER_KEYS = frozenset({"zone", "controller", "type", "name_ref", "same_name_as",
                         "durability_max", "not"})
MODIFIER_KINDS = ("change", "swap", "add", "always")
MODIFIER_KEYS = frozenset({"target", "kind", "attack", "durability", "x"})
TRIGGER_EVENTS = frozenset({"enters_field", "targeted", "would_deathblow",
                            "deathblow_by_battle", "deathblow_by_opponent_effect",
                            "battle_damage_dealt"})
WHO = frozenset({"self", "opponent"})

#: operation -> (required argument keys, optional argument keys)
OPERATIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "damage": (frozenset({"target", "amount"}), frozenset()),
    "destroy": (frozenset({"target"}), frozenset()),
    "deathblow": (frozenset({"target"}), frozenset()),
    "return_to_hand": (frozenset({"target"}), frozenset()),
    "draw": (frozenset({"count"}), frozenset({"player"})),
    "discard": (frozenset({"count"}), frozenset({"player"})),
    "reveal": (frozenset(), frozenset({"player", "count", "all", "until"})),
    "look": (frozenset(), frozenset({"player", "count", "all", "until"})),
    "shuffle": (frozenset(), frozenset({"player"})),
    "power": (frozenset({"target", "kind"}), MODIFIER_KEYS),
    "change_name": (frozenset({"target", "name"}), frozenset()),
    "negate_text": (frozenset({"target"}), frozenset({"include_unnegatable"})),
    "negate_auto": (frozenset({"target"}), frozenset({"include_unnegatable"})),
    "negate_effect": (frozenset(), frozenset()),
}


def reject_unknown(keys: Any, allowed: frozenset[str], where: str) -> None:
    extra = sorted(str(k) for k in keys if k not in allowed)
    if extra:
        raise Unsupported(f"{where}: unknown key(s) {extra}; the vocabulary allows "
                          f"{sorted(allowed)}")


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise Unsupported(message)


def _int(value: Any, where: str, *, allow_x: bool = False) -> int | str:
    if allow_x and value == "X":
        return "X"
    wanted = 'an integer or "X"' if allow_x else "an integer"
    _need(isinstance(value, int) and not isinstance(value, bool),
          f"{where}: expected {wanted}, got {value!r}")
    return value


# -- setup --------------------------------------------------------------------------

def read_setup(setup: Any) -> tuple[dict[str, int], list[Card]]:
    """Nodes per player and every card, in setup order, zones filled in."""
    _need(isinstance(setup, dict), f"setup must be an object, got {setup!r:.80}")
    reject_unknown(setup, frozenset(PLAYERS), "setup")
    nodes: dict[str, int] = {}
    cards: list[Card] = []
    seen: set[str] = set()
    for player in PLAYERS:
        data = setup.get(player) or {}
        _need(isinstance(data, dict), f"setup.{player} must be an object")
        reject_unknown(data, PLAYER_KEYS, f"setup.{player}")
        nodes[player] = int(_int(data.get("nodes", 0), f"setup.{player}.nodes"))
        for zone in ZONES:
            entries = data.get(zone) or []
            _need(isinstance(entries, list), f"setup.{player}.{zone} must be a list")
            for i, entry in enumerate(entries):
                card = read_card(entry, player, zone, f"setup.{player}.{zone}[{i}]")
                _need(card.id not in seen, f"card id {card.id!r} is used twice")
                seen.add(card.id)
                cards.append(card)
    return nodes, cards


def _power(value: Any, where: str) -> tuple[int | str, int | str]:
    _need(isinstance(value, str) and value.count("/") == 1,
          f"{where}.power: expected \"attack/durability\", got {value!r}")
    sides: list[int | str] = []
    for side in value.split("/"):
        side = side.strip()
        if side == "X":
            sides.append("X")
        else:
            _need(side.lstrip("-").isdigit(), f"{where}.power: bad value {value!r}")
            sides.append(int(side))
    return sides[0], sides[1]


def read_x(value: Any, where: str) -> Any:
    """What an X counts: an integer, ``cost`` or ``{count: ZONE, player: WHO}``."""
    if value is None or value == "cost":
        return value
    if isinstance(value, dict):
        reject_unknown(value, frozenset({"count", "player"}), where)
        _need(value.get("count") in ZONES, f"{where}.count must be one of {list(ZONES)}")
        _need(value.get("player", "self") in WHO, f"{where}.player must be self or opponent")
        return {"count": value["count"], "player": value.get("player", "self")}
    return _int(value, where)


def read_card(data: Any, owner: str, zone: str, where: str) -> Card:
    _need(isinstance(data, dict) and "id" in data, f"{where}: a CARD needs an id")
    reject_unknown(data, CARD_KEYS, where)
    card_type = data.get("type", "character")
    _need(card_type in CARD_TYPES, f"{where}.type must be one of {sorted(CARD_TYPES)}")
    power = data.get("power")
    if power is None and card_type != "character":
        power = "0/0"
    immune = data.get("immune") or []
    _need(isinstance(immune, list) and set(immune) <= IMMUNITIES,
          f"{where}.immune must list some of {sorted(IMMUNITIES)}")
    links = data.get("link_names") or []
    _need(isinstance(links, list), f"{where}.link_names must be a list")
    name = str(data.get("name", ""))
    texts = data.get("texts") or []
    _need(isinstance(texts, list), f"{where}.texts must be a list of CLAUSEs")
    card = Card(
        id=str(data["id"]),
        owner=owner,
        type=card_type,
        cost=_int(data.get("cost", 0), f"{where}.cost", allow_x=True),
        power=_power(power, where) if power is not None else None,
        x=read_x(data.get("x"), f"{where}.x"),
        immune=frozenset(immune),
        texts=[read_clause(t, f"{where}.texts[{i}]") for i, t in enumerate(texts)],
        printed_name=name,
        printed_links=[str(n) for n in links],
        number=data.get("number"),
        zone=zone,
        name=name,
        link_names=[str(n) for n in links],
        damage=int(_int(data.get("damage", 0), f"{where}.damage")),
    )
    return card


def read_clause(data: Any, where: str) -> Clause:
    _need(isinstance(data, dict), f"{where}: a CLAUSE must be an object")
    reject_unknown(data, CLAUSE_KEYS, where)
    kind = data.get("kind")
    _need(kind in CLAUSE_KINDS, f"{where}.kind must be one of {sorted(CLAUSE_KINDS)}")
    when = data.get("when")
    if kind == "auto":
        when = read_trigger(when, f"{where}.when")
    else:
        _need(when is None, f"{where}.when is only for auto clauses")
    modifier = data.get("modifier")
    if modifier is not None:
        _need(kind == "continuous", f"{where}.modifier is only for continuous clauses")
        modifier = read_clause_modifier(modifier, f"{where}.modifier")
    applies_to = data.get("applies_to")
    if applies_to is not None:
        read_selector(applies_to, f"{where}.applies_to")
    gain = data.get("gain") or []
    _need(isinstance(gain, list), f"{where}.gain must be a list of CLAUSEs")
    return Clause(
        kind=kind,
        unnegatable=bool(data.get("unnegatable", False)),
        when=when,
        parts=read_effect(data.get("effect") or [], f"{where}.effect"),
        modifier=modifier,
        applies_to=applies_to,
        gain=[read_clause(g, f"{where}.gain[{i}]") for i, g in enumerate(gain)],
    )


def read_clause_modifier(data: Any, where: str) -> dict[str, Any]:
    _need(isinstance(data, dict), f"{where} must be an object")
    if "cost" in data:
        reject_unknown(data, frozenset({"cost"}), where)
        return {"cost": _int(data["cost"], f"{where}.cost")}
    return read_modifier(data, where, need_target=False)


def read_modifier(data: Any, where: str, *, need_target: bool = True) -> dict[str, Any]:
    _need(isinstance(data, dict), f"{where}: a MODIFIER must be an object")
    reject_unknown(data, MODIFIER_KEYS, where)
    _need(data.get("kind") in MODIFIER_KINDS,
          f"{where}.kind must be one of {list(MODIFIER_KINDS)}")
    if need_target:
        _need("target" in data, f"{where} needs a target")
    if "target" in data:
        read_selector(data["target"], f"{where}.target")
    out = {"kind": data["kind"], "target": data.get("target"),
           "x": read_x(data.get("x"), f"{where}.x")}
    for side in ("attack", "durability"):
        out[side] = (_int(data[side], f"{where}.{side}", allow_x=True)
                     if side in data else None)
    return out


def read_trigger(data: Any, where: str) -> dict[str, Any]:
    _need(isinstance(data, dict), f"{where}: an auto clause needs a TRIGGER object")
    reject_unknown(data, frozenset({"event", "filter"}), where)
    _need(data.get("event") in TRIGGER_EVENTS,
          f"{where}.event must be one of {sorted(TRIGGER_EVENTS)}")
    flt = data.get("filter")
    if flt is not None:
        read_filter(flt, f"{where}.filter")
    return {"event": data["event"], "filter": flt}


def read_filter(data: Any, where: str) -> dict[str, Any]:
    _need(isinstance(data, dict), f"{where}: a FILTER must be an object")
    reject_unknown(data, FILTER_KEYS, where)
    if "zone" in data:
        _need(data["zone"] in ZONES, f"{where}.zone must be one of {list(ZONES)}")
    if "controller" in data:
        _need(data["controller"] in {"self", "opponent", "any"},
              f"{where}.controller must be self, opponent or any")
    if "durability_max" in data:
        _int(data["durability_max"], f"{where}.durability_max")
    return data


def read_selector(data: Any, where: str) -> Any:
    if data in ("chosen", "this"):
        return data
    if isinstance(data, dict) and set(data) == {"card"}:
        return data
    if isinstance(data, dict) and set(data) == {"all"}:
        read_filter(data["all"] or {}, f"{where}.all")
        return data
    raise Unsupported(f"{where}: a SELECTOR is chosen, this, {{card: ID}} or {{all: FILTER}}; "
                      f"got {data!r:.80}")


# -- effect language ------------------------------------------------------------------

def read_effect(data: Any, where: str) -> list[Part]:
    """A list of INSTRUCTIONs as normalised (operation, arguments) parts."""
    _need(isinstance(data, list), f"{where}: an effect is a list of INSTRUCTIONs")
    return [read_instruction(item, f"{where}[{i}]") for i, item in enumerate(data)]


def read_instruction(data: Any, where: str) -> Part:
    _need(isinstance(data, dict) and len(data) == 1,
          f"{where}: an INSTRUCTION is an object with exactly one key, got {data!r:.80}")
    (op, args), = data.items()
    if op not in OPERATIONS:
        raise Unsupported(f"{where}: unknown operation {op!r}; known: {sorted(OPERATIONS)}")
    args = {} if args is None else args
    _need(isinstance(args, dict), f"{where}.{op}: arguments must be an object")
    required, optional = OPERATIONS[op]
    reject_unknown(args, required | optional, f"{where}.{op}")
    missing = sorted(required - set(args))
    _need(not missing, f"{where}.{op}: missing {missing}")
    if op == "power":
        return op, read_modifier(args, f"{where}.power")
    args = dict(args)
    if "target" in args:
        read_selector(args["target"], f"{where}.{op}.target")
    if op in ("draw", "discard", "reveal", "look", "shuffle"):
        args.setdefault("player", "self")
        _need(args["player"] in WHO, f"{where}.{op}.player must be self or opponent")
    if "count" in args:
        _int(args["count"], f"{where}.{op}.count", allow_x=True)
    if "amount" in args:
        _int(args["amount"], f"{where}.{op}.amount", allow_x=True)
    if op in ("reveal", "look"):
        forms = [k for k in ("count", "all", "until") if k in args]
        _need(len(forms) == 1, f"{where}.{op}: give exactly one of count, all, until")
        if "all" in args:
            _need(args["all"] is True, f"{where}.{op}.all must be true")
        if "until" in args:
            read_filter(args["until"], f"{where}.{op}.until")
    if op == "change_name":
        args["name"] = str(args["name"])
    return op, args
