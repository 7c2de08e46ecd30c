"""What the adapter reads back from phase.rs: the observation of a case (`observe`, off a
``game.state()`` taken after the last change), the prevention shields in force (phase.rs has
no event for a new one: `shields`) and the vocabulary's events of phase.rs's events
(`events_of`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance import Unsupported

from .mapping import COLOR, MANA_COLOR, PLAYER_KEYS, PLAYERS, SEATS, SHARD, ZONE_OF

if TYPE_CHECKING:
    from .state import GameState


def observe(g: GameState) -> dict[str, Any]:
    st = g.view()["state"]
    objects = st["objects"]
    cards = {}
    players: dict[str, dict[str, Any]] = {}
    for player, seat in SEATS.items():
        p = st["players"][seat]
        pool = {t: 0 for t in MANA_COLOR}
        for unit in p["mana_pool"]["mana"]:
            pool[SHARD[unit["color"]]] += 1
        players[player] = {"life": p["life"], "mana": pool,
                           **{z: [] for z in PLAYER_KEYS - {"life", "mana"}},
                           "shields": []}
    for cid, oid in g.ids.items():
        obj = objects.get(str(oid))
        if obj is None:
            continue
        zone = ZONE_OF.get(obj["zone"], obj["zone"])
        owner = PLAYERS[obj["owner"]]
        cards[cid] = {
            "zone": zone, "owner": owner, "controller": PLAYERS[obj["controller"]],
            "name": g.setup_objects[cid].get("name", ""),
            "types": [t.lower() for t in obj["card_types"]["core_types"]],
            "colors": [COLOR[c] for c in obj["color"]],
            "mana_cost": _mana(obj.get("mana_cost")),
            "power": obj.get("power"), "toughness": obj.get("toughness"),
            "damage": obj.get("damage_marked", 0),
            "keywords": sorted(keyword(k) for k in obj.get("keywords", [])),
            "mana_spent": _spent(obj),
            "ability_of": None, "shields": []}
    for to, shield in shields(g, st):
        holder = players.get(to) or cards.get(to)
        if holder is not None:
            holder["shields"].append(shield)
    for entry_id, as_id in g.stack_ids.items():
        if any(e.get("id") == entry_id for e in st["stack"]):
            src = g.ability_of[as_id]
            cards[as_id] = {"zone": "stack", "owner": cards[src]["controller"],
                            "controller": cards[src]["controller"], "ability_of": src}
    # zone lists in the game's order, each card in its owner's list
    shared = {"battlefield": st["battlefield"], "exile": st["exile"],
              "command": st["command_zone"]}
    for player, seat in SEATS.items():
        lists = dict(shared, **{z: st["players"][seat][z]
                                for z in ("library", "hand", "graveyard")})
        for zone, oids in lists.items():
            players[player][zone] = [
                g.names[o] for o in oids if o in g.names
                and cards.get(g.names[o], {}).get("owner") == player]
    return {"cards": cards, "players": players}


def shields(g: GameState, st: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The prevention shields in force (phase.rs's pending damage replacements), oldest
    first, as (protected player or card id, SHIELD)."""
    found = []
    for rep in st.get("pending_damage_replacements") or []:
        if rep.get("is_consumed"):      # used up: phase.rs keeps it, marked, until cleanup
            continue
        prevention = (rep.get("shield_kind") or {}).get("Prevention")
        if prevention is None:
            continue
        amount = prevention.get("amount")
        remaining = "all" if amount == "All" else (amount or {}).get("Next")
        source, limit = None, None
        flt = rep.get("damage_source_filter") or {}
        for part in flt.get("filters", [flt]):
            if part.get("type") == "SpecificObject":
                source = g.name(part["id"])
            elif part.get("type") == "Typed":
                for prop in part.get("properties", []):
                    if prop.get("type") == "HasColor":
                        limit = {"color": COLOR[prop["color"]]}
                for t in part.get("type_filters", []):
                    if isinstance(t, str):
                        limit = {"type": t.lower()}
        target = rep.get("damage_target_filter") or {}
        if "Player" in target:
            to = PLAYERS[(target["Player"].get("player") or {}).get("data", 0)]
        else:
            to = g.name(next(iter(_ints(target)), None))
        found.append((to, {"source": source, "from": limit, "remaining": remaining}))
    return found


def events_of(g: GameState, raw: list[dict[str, Any]], ability: str | None = None
            ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in raw:
        kind, d = e["type"], e.get("data") or {}
        if kind == "DamageDealt":
            out.append({"type": "damage", "source": g.name(d["source_id"]),
                        "to": recipient(g, d["target"]), "amount": d["amount"],
                        "combat": d.get("is_combat", False)})
        elif kind == "DamagePrevented":
            out.append({"type": "prevented", "source": g.name(d.get("source_id")),
                        "to": recipient(g, d.get("target")),
                        "amount": d.get("amount")})
        elif kind == "SpellCast":
            out.append({"type": "cast", "card": g.name(d["object_id"]),
                        "player": PLAYERS[d["controller"]]})
        elif kind == "ZoneChanged":
            out.append({"type": "moved", "card": g.name(d["object_id"]),
                        "from": ZONE_OF.get(d["from"], d["from"]),
                        "to": ZONE_OF.get(d["to"], d["to"])})
        elif kind == "StackResolved":
            out.append({"type": "resolved", "card": g.name(d["object_id"])})
        elif kind == "Discarded" or kind == "CardDiscarded":
            out.append({"type": "discard", "card": g.name(d.get("object_id")),
                        "player": PLAYERS[d.get("player_id", 0)]})
        elif kind == "AbilityActivated" and d.get("kind") != "Mana":
            out.append({"type": "activated", "card": g.name(d["source_id"]),
                        "ability": ability, "player": PLAYERS[d["player_id"]]})
    for e in out:            # `cast` says where from: the `moved` before it
        if e["type"] == "cast":
            moved = [m for m in out if m["type"] == "moved" and m["card"] == e["card"]
                     and m["to"] == "stack"]
            e["from"] = moved[0]["from"] if moved else None
    return out


def recipient(g: GameState, target: Any) -> Any:
    if isinstance(target, dict) and "Player" in target:
        return PLAYERS[target["Player"]]
    if isinstance(target, dict) and "Object" in target:
        return g.name(target["Object"])
    return target


def _mana(cost: Any) -> dict[str, int]:
    """phase.rs's ``{type: Cost, shards, generic}`` as vocabulary mana (no zero entries)."""
    if not isinstance(cost, dict) or cost.get("type") != "Cost":
        return {}
    found: dict[str, int] = {"generic": cost["generic"]} if cost.get("generic") else {}
    for shard in cost.get("shards", []):
        t = SHARD.get(shard)
        if t is None:
            raise Unsupported(f"phase.rs mana shard {shard!r} has no vocabulary type",
                              kind="not-mapped")
        found[t] = found.get(t, 0) + 1
    return found


def _spent(obj: dict[str, Any]) -> dict[str, int]:
    """The mana spent to cast an object, by type: phase.rs records the coloured mana
    (``colors_spent_to_cast``) and the amount of all of it (``mana_spent_to_cast_amount``);
    the rest of the amount is colourless (CR 106.1b: mana is one of the five colours or
    colourless)."""
    spent = {SHARD[c.capitalize()]: n for c, n in
             (obj.get("colors_spent_to_cast") or {}).items() if n}
    colourless = (obj.get("mana_spent_to_cast_amount") or 0) - sum(spent.values())
    if colourless > 0:
        spent["C"] = colourless
    return spent


def _ints(node: Any) -> set[int]:
    if isinstance(node, bool):
        return set()
    if isinstance(node, int):
        return {node}
    if isinstance(node, dict):
        return set().union(*(_ints(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_ints(v) for v in node)) if node else set()
    return set()


def keyword(k: Any) -> str:
    name = k if isinstance(k, str) else next(iter(k))
    return str(name).lower()
