"""Shared by the phase.rs reproductions beside it: a board built through phase-python's
public API only (``pip install phase-python==0.103.0``; no other package).

phase.rs starts games from decks, so a board is a new game with every card in its
owner's deck, both hands kept, passed to turn 1's precombat main phase, and then each
card put where the reproduction says by editing ``game.state()`` and resuming it with
``Engine.load_game`` (zones, life).  Everything after that is real game
actions (``game.actions()`` / ``game.apply``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import phase

PASS = {"type": "PassPriority", "data": None}


def card(name: str, text: str, types: str, colors: str = "", cost: str = "",
         pt: tuple[int, int] | None = None, subtypes: tuple[str, ...] = ()) -> dict[str, Any]:
    """An MTGJSON atomic card (the fields phase.build_oracle_face reads).  ``colors``:
    letters (``"R"``), ``types``: the card type (``"Creature"``)."""
    shards = cost.strip("{}").split("}{") if cost else []
    c: dict[str, Any] = {
        "name": name, "manaCost": cost,
        "manaValue": sum(int(s) if s.isdigit() else 1 for s in shards),
        "colors": list(colors), "colorIdentity": list(colors), "types": types.split(),
        "subtypes": list(subtypes), "supertypes": [], "layout": "normal",
        "type": types + (" — " + " ".join(subtypes) if subtypes else ""), "text": text,
        "identifiers": {}, "legalities": {}}
    if pt is not None:
        c["power"], c["toughness"] = str(pt[0]), str(pt[1])
    return c


FILLER = card("Test Filler", "", "Artifact")


class Board:
    """A two-player game in its first turn's precombat main phase, ``active`` (seat 0 is
    p1, seat 1 p2) the active player with priority, holding ``cards``:
    ``(seat, zone, card)`` with zone one of battlefield, graveyard, hand, library,
    exile, command.  ``self.id[name]`` is the object id of the card of that name."""

    def __init__(self, cards: list[tuple[int, str, dict[str, Any]]],
                 life: tuple[int, int] = (20, 20), active: int = 0) -> None:
        faces = {c["name"].lower(): phase.build_oracle_face(c, None)
                 for c in [FILLER] + [c for _, _, c in cards]}
        self.engine = phase.Engine.from_json(json.dumps(faces))
        decks: list[list[str]] = [[FILLER["name"]], [FILLER["name"]]]  # no empty deck
        for seat, _, c in cards:
            decks[seat].append(c["name"])
        game = self.engine.new_game(decks[0], decks[1], seed=1, first_player=active)
        for _ in range(20):                 # keep both hands, pass to the main phase
            waiting = game.waiting_for()
            if waiting["type"] == "Priority" and game.phase == "PreCombatMain":
                break
            if waiting["type"] == "MulliganDecision":
                keep = next(a for a in game.actions() if a.data["choice"]["type"] == "Keep")
                game.apply(waiting["data"]["pending"][0]["player"], keep)
            else:
                game.apply(game.priority_player(), PASS)
        state = game.state()
        st = state["state"]
        for p in st["players"]:
            p["library"], p["hand"], p["graveyard"] = [], [], []
        st["battlefield"], st["exile"], st["command_zone"] = [], [], []
        for oid in [i for i, o in st["objects"].items() if o["name"] == FILLER["name"]]:
            del st["objects"][oid]                    # the filler leaves the game
        self.id: dict[str, int] = {}
        for seat, zone, c in cards:
            oid = next(int(i) for i, o in sorted(st["objects"].items(), key=lambda x: int(x[0]))
                       if o["name"] == c["name"] and o["owner"] == seat
                       and int(i) not in self.id.values())
            self.id.setdefault(c["name"], oid)
            obj = st["objects"][str(oid)]
            obj["zone"] = {"command": "Command"}.get(zone, zone.capitalize())
            if zone == "battlefield":
                obj["entered_battlefield_turn"] = 0      # not summoning-sick
                obj["summoning_sick"] = obj["has_summoning_sickness"] = False
                st["battlefield"].append(oid)
            elif zone == "exile":
                st["exile"].append(oid)
            elif zone == "command":
                st["command_zone"].append(oid)
            else:
                st["players"][seat][zone].append(oid)
        for seat in (0, 1):
            st["players"][seat]["life"] = life[seat]
        self.game = self.engine.load_game(state)
        self.events: list[dict[str, Any]] = []

    def obj(self, name: str) -> dict[str, Any]:
        o: dict[str, Any] = self.game.object(self.id[name])
        return o

    def life(self, seat: int) -> int:
        n: int = self.game.state()["state"]["players"][seat]["life"]
        return n

    def apply(self, seat: int, action: Any) -> list[dict[str, Any]]:
        events = list(self.game.apply(seat, action).events)
        self.events += events
        return events

    def activate(self, seat: int, name: str, n: int = 0) -> None:
        """``seat`` activates the n-th offered ability of the card ``name``."""
        while self.game.priority_player() != seat:
            self.apply(self.game.priority_player(), PASS)
        offered = [a for a in self.game.actions() if a.kind == "ActivateAbility"
                   and a.data["source_id"] == self.id[name]]
        self.apply(seat, offered[n])

    def pick(self, kind: str, **data: Any) -> list[dict[str, Any]]:
        """Answer the current prompt (or act) with the offered action of that kind whose
        data has those values; AssertionError when phase.rs offers none."""
        w = self.game.waiting_for()
        seat = (w.get("data") or {}).get("player", self.game.priority_player())
        offered = [a for a in self.game.actions() if a.kind == kind
                   and all(a.data.get(k) == v for k, v in data.items())]
        assert offered, f"phase.rs offers no {kind} {data} (prompt {w['type']})"
        return self.apply(seat, offered[0])

    def resolve(self, source: str | None = None) -> list[dict[str, Any]]:
        """Both players pass until the top of the stack resolves; a "source of your
        choice" prompt is answered with the card ``source``.  The events of it."""
        start = len(self.events)
        for _ in range(10):
            if self.waiting()[0] == "DamageSourceChoice":
                assert source is not None, "phase.rs asks for a source of damage"
                self.pick("ChooseDamageSource", source=self.id[source])
            else:
                self.apply(self.game.priority_player(), PASS)
            if self.waiting()[0] == "Priority" and any(
                    e["type"] == "StackResolved" for e in self.events[start:]):
                return self.events[start:]
        raise AssertionError("the stack did not resolve")

    def waiting(self) -> tuple[str, Any]:
        w = self.game.waiting_for()
        return w["type"], w.get("data")


def verdict(bug: bool, title: str, observed: str) -> None:
    """The last line: REPRODUCED (exit 0) while the bug shows, NOT REPRODUCED (exit 1)
    once it does not (phase.rs fixed: the script stays as a regression check)."""
    if bug:
        print(f"REPRODUCED: {title} ({observed})")
        sys.exit(0)
    print(f"NOT REPRODUCED: {title} does not show ({observed})")
    sys.exit(1)
