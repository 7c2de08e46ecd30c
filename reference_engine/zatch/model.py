"""What a Zatch card and its effect are, read from the canonical setup.

Plain data only: no rule is decided here.  The vocabulary is
docs/rulesets/zatch.md; anything outside it raises `Unsupported` naming the
key, so an unknown word is never silently ignored.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from conformance import Unsupported

PLAYERS = ("p1", "p2")
ZONES = ("hand", "field", "discard")
KINDS = ("ordinary", "battle", "non_battle_spell", "attack", "defense", "on_field")
TRIGGERS = ("battle_in", "end_of_battle", "end_of_turn")
STEPS = ("attack_defense", "effects", "contest", "resolution")

_EFFECT_KEYS = {"kind", "cost", "side", "jammer", "negates", "stay", "standby", "when",
                "power", "unnegatable", "usable_anyway", "do"}
_CARD_KEYS = {"id", "name", "effect"}


@dataclasses.dataclass(frozen=True)
class Effect:
    """One card effect: how it is used, what it costs, and its instructions."""

    kind: str = "ordinary"
    mp_cost: int = 0
    discard_self: bool = False
    side: str | None = None            # non_battle_spell: "attack" (攻) or "defense" (防)
    jammer: bool = False
    negates: str = "effects"           # jammer: "effects" or "non_battle_spells"
    stay_until: str | None = None      # 【ステイ】
    standby_when: str | None = None    # 【スタンバイ】
    when: str | None = None            # on_field trigger
    power: int = 0                     # attack/defense magic power
    unnegatable: bool = False          # 無効にならない
    usable_anyway: str | None = None   # "cannot_use" / "regardless"
    do: tuple[dict[str, Any], ...] = ()


@dataclasses.dataclass(frozen=True)
class Card:
    id: str
    owner: str
    name: str
    effect: Effect | None


def _reject_unknown(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise Unsupported(f"{where}: unknown keys {unknown}; the vocabulary allows "
                          f"{sorted(allowed)} (docs/rulesets/zatch.md)")


def read_effect(data: dict[str, Any], where: str) -> Effect:
    _reject_unknown(data, _EFFECT_KEYS, where)
    kind = data.get("kind", "ordinary")
    if kind not in KINDS:
        raise Unsupported(f"{where}: effect kind {kind!r} is not one of {KINDS}")
    cost = data.get("cost", {})
    _reject_unknown(cost, {"mp", "discard_self"}, where + ".cost")
    return Effect(
        kind=kind, mp_cost=int(cost.get("mp", 0)), discard_self=bool(cost.get("discard_self")),
        side=data.get("side"), jammer=bool(data.get("jammer")),
        negates=data.get("negates", "effects"),
        stay_until=(data.get("stay") or {}).get("until"),
        standby_when=(data.get("standby") or {}).get("when"),
        when=data.get("when"), power=int(data.get("power", 0)),
        unnegatable=bool(data.get("unnegatable")), usable_anyway=data.get("usable_anyway"),
        do=tuple(data.get("do", ())))


def read_setup(setup: Any) -> tuple[dict[str, Any], list[tuple[Card, str]]]:
    """The game-level settings and every card with its starting zone."""
    if not isinstance(setup, dict):
        raise Unsupported("setup must be an object")
    _reject_unknown(setup, {"turn", "phase", "p1", "p2"}, "setup")
    settings = {"turn": setup.get("turn", "p1"), "phase": setup.get("phase", "main"), "mp": {},
                "damage": {}}
    cards: list[tuple[Card, str]] = []
    for player in PLAYERS:
        side = setup.get(player, {})
        _reject_unknown(side, {"mp", "damage", *ZONES}, f"setup.{player}")
        settings["mp"][player] = int(side.get("mp", 0))
        settings["damage"][player] = int(side.get("damage", 0))
        for zone in ZONES:
            for raw in side.get(zone, []):
                _reject_unknown(raw, _CARD_KEYS, f"setup.{player}.{zone} card")
                effect = raw.get("effect")
                cards.append((Card(id=raw["id"], owner=player, name=raw.get("name", ""),
                                   effect=read_effect(effect, f"card {raw['id']}.effect")
                                   if effect else None), zone))
    ids = [card.id for card, _ in cards]
    twice = sorted({cid for cid in ids if ids.count(cid) > 1})
    if twice:
        raise Unsupported(f"setup: card ids must be unique; used twice: {twice}")
    return settings, cards
