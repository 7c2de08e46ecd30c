"""Answers to phase.rs's prompts (targets, mana payment, a source of your choice, a
discard) from the vocabulary's action, until a player has priority again (`settle`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance import Unsupported

from .mapping import MAX_PASSES, PASS, SEATS, SHARD
from .state import Rejected

if TYPE_CHECKING:
    from .state import GameState


def settle(g: GameState, seat: int, context: dict[str, Any],
            pay: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Answer phase.rs's prompts from the action until a player has priority again."""
    events: list[dict[str, Any]] = []
    targets = list(context.get("targets") or [])
    for _ in range(MAX_PASSES):
        waiting = g.game.waiting_for()
        kind, data = waiting["type"], waiting.get("data") or {}
        who = data.get("player", seat) if isinstance(data, dict) else seat
        if kind == "Priority" or kind == "GameOver":
            return events
        actions = g.actions()
        if kind == "TargetSelection":
            want = target(g, targets.pop(0) if targets else None)
            pick = [a for a in actions if a.kind == "ChooseTarget"
                    and a.data.get("target") == want]
            if not pick:
                raise Rejected(f"phase.rs does not allow the target {want}")
            events += g.apply_raw(who, pick[0])
        elif kind == "ManaPayment":
            for unit in units_for(g, who, pay or {}):
                events += g.apply_raw(who, {"type": "SpendPoolMana",
                                                "data": {"pip_id": unit}})
            pay = {}
            events += g.apply_raw(who, PASS)
            if g.game.waiting_for()["type"] == "ManaPayment":
                raise Rejected("the payment does not cover the cost")
        elif kind == "DamageSourceChoice":      # "a source of your choice"
            if context.get("choose") is None:
                raise Rejected("the text asks for a source of your choice; the action "
                                "names none (choose)")
            context["asked"] = True
            want = g.ids.get(context["choose"])
            pick = [a for a in actions if a.kind == "ChooseDamageSource"
                    and a.data.get("source") == want]
            if not pick:
                raise Rejected(f"phase.rs does not offer {context.get('choose')} as the "
                                f"source of your choice (options {data.get('options')})")
            events += g.apply_raw(who, pick[0])
        elif kind == "DiscardChoice":           # the vocabulary: from the front of the hand
            hand = g.view()["state"]["players"][who]["hand"]
            front = sorted(data["cards"], key=hand.index)[:data["count"]]
            pick = [a for a in actions if a.kind == "SelectCards"
                    and sorted(a.data["cards"]) == sorted(front)]
            if not pick:
                raise Unsupported(f"phase.rs offers no discard of {front}",
                                  kind="not-mapped")
            events += g.apply_raw(who, pick[0])
        else:
            raise Unsupported(f"phase.rs prompt {kind} is not mapped "
                              f"({[a.kind for a in actions][:4]})",
                              kind="not-mapped")
    raise Unsupported("phase.rs kept prompting",
                      kind="not-mapped")


def target(g: GameState, want: Any) -> Any:
    if want in SEATS:
        return {"Player": SEATS[want]}
    if want is None:
        raise Unsupported("phase.rs asks for a target the action does not name",
                          kind="not-mapped")
    return {"Object": g.oid(want)}


def pool(g: GameState, seat: int) -> dict[str, int]:
    pool: dict[str, int] = {}
    for unit in g.view()["state"]["players"][seat]["mana_pool"]["mana"]:
        t = SHARD[unit["color"]]
        pool[t] = pool.get(t, 0) + 1
    return pool


def units_for(g: GameState, seat: int, pay: dict[str, int]) -> list[int]:
    units = g.view()["state"]["players"][seat]["mana_pool"]["mana"]
    chosen = []
    for t, n in pay.items():
        have = [u["pip_id"] for u in units if SHARD[u["color"]] == t]
        if len(have) < n:
            raise Rejected(f"the pool has {len(have)} {t}, the payment needs {n}")
        chosen += have[:n]
    return chosen
