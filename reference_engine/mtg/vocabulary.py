"""Reading the MTG vocabulary (docs/rulesets/mtg.md) into model objects.

The catalogue checks cases against the JSON Schema; this module checks what
the engine itself relies on and raises `Unsupported` for anything else, so a
board outside the model is skipped, never silently misread.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine.mtg.model import MANA_TYPES, PLAYERS, ZONES, Obj

PLAYER_KEYS = frozenset({"life", "mana", *ZONES}) - {"stack"}
OBJECT_KEYS = frozenset({"id", "name", "oracle_name", "types", "colors", "mana_cost", "power",
                         "toughness", "abilities", "face_down", "damage", "controller"})
PHASES = frozenset({"main", "combat"})


def reject_unknown(keys: Any, allowed: frozenset[str], where: str) -> None:
    extra = sorted(str(k) for k in keys if k not in allowed)
    if extra:
        raise Unsupported(f"{where}: unknown key(s) {extra}; the vocabulary allows "
                          f"{sorted(allowed)}")


def need(cond: bool, message: str) -> None:
    if not cond:
        raise Unsupported(message)


def mana(value: Any, where: str, extra: frozenset[str] = frozenset()) -> dict[str, int]:
    need(isinstance(value, dict), f"{where}: expected mana by type, got {value!r:.60}")
    reject_unknown(value, frozenset(MANA_TYPES) | extra, where)
    need(all(isinstance(n, int) and n >= 0 for n in value.values()),
         f"{where}: amounts are integers >= 0")
    return dict(value)


def read_object(raw: Any, owner: str, zone: str, where: str) -> Obj:
    need(isinstance(raw, dict) and "id" in raw, f"{where}: an object needs an id")
    reject_unknown(raw, OBJECT_KEYS, where)
    controller = raw.get("controller", owner)
    need(controller in PLAYERS, f"{where}/controller: p1 or p2")
    return Obj(id=str(raw["id"]), owner=owner, name=raw.get("name", ""),
               oracle_name=raw.get("oracle_name"), types=tuple(raw.get("types", ())),
               colors=tuple(raw.get("colors", ())),
               mana_cost=mana(raw.get("mana_cost", {}), f"{where}/mana_cost",
                              frozenset({"generic"})),
               power=raw.get("power"), toughness=raw.get("toughness"),
               abilities=list(raw.get("abilities", [])), face_down=bool(raw.get("face_down")),
               zone=zone, controller=controller if zone == "battlefield" else owner,
               damage=int(raw.get("damage", 0)))


def read_setup(setup: Any) -> tuple[str, str, dict[str, int], dict[str, dict[str, int]],
                                    list[Obj]]:
    """(phase, active player, life, mana pools, objects in setup order)."""
    need(isinstance(setup, dict), f"setup must be an object, got {setup!r:.80}")
    reject_unknown(setup, frozenset({*PLAYERS, "phase", "active"}), "setup")
    phase = setup.get("phase", "main")
    need(phase in PHASES, f"setup/phase: one of {sorted(PHASES)}")
    active = setup.get("active", "p1")
    need(active in PLAYERS, f"setup/active: one of {list(PLAYERS)}")
    life: dict[str, int] = {}
    pools: dict[str, dict[str, int]] = {}
    objects: list[Obj] = []
    seen: set[str] = set()
    for player in PLAYERS:
        side = setup.get(player) or {}
        reject_unknown(side, PLAYER_KEYS, f"setup/{player}")
        life[player] = int(side.get("life", 20))
        pools[player] = {t: 0 for t in MANA_TYPES} | mana(side.get("mana", {}),
                                                          f"setup/{player}/mana")
        for zone in ZONES:
            for i, raw in enumerate(side.get(zone, [])):
                obj = read_object(raw, player, zone, f"setup/{player}/{zone}/{i}")
                need(obj.id not in seen and obj.id not in PLAYERS,
                     f"setup/{player}/{zone}/{i}: id {obj.id!r} is used twice")
                seen.add(obj.id)
                objects.append(obj)
    return phase, active, life, pools, objects
